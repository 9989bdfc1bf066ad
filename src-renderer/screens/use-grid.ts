// The board area's dot grid follows the camera: its spacing and offset, and its fade zoomed far out (no moiré;
// board/detail.ts gridAlpha), written straight onto the element's style as the camera moves, so a pan or zoom
// re-renders none of the board screen. Reads the store; knows nothing of Konva.
import { type RefObject, useEffect } from 'react';
import { GRID_PX, gridAlpha } from '../board/detail';
import type { Camera } from '../board/camera';
import type { Store } from '../store/store';

function paint(el: HTMLElement, c: Camera): void {
  const grid = GRID_PX * c.scale;
  const alpha = gridAlpha(c.scale);
  el.dataset.gridAlpha = alpha.toFixed(2);
  el.style.setProperty('--grid-alpha', String(alpha));
  el.style.backgroundImage = alpha > 0 ? '' : 'none';
  el.style.backgroundSize = `${grid}px ${grid}px`;
  el.style.backgroundPosition = `${c.x}px ${c.y}px`;
}

export function useGrid(ref: RefObject<HTMLElement | null>, store: Store): void {
  useEffect(() => {
    let last: Camera | null = null;
    const follow = (): void => {
      const el = ref.current;
      const c = store.getState().camera;
      if (!el || c === last) return;
      last = c;
      paint(el, c);
    };
    follow();
    return store.subscribe(follow);
  }, [ref, store]);
}
