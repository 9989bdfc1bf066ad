// The board area's dot grid follows the camera: a layer of dots drawn once at a base scale and moved and scaled by
// a compositor transform as the camera moves (board/grid-layer.ts), faded by opacity far out (no moiré;
// board/detail.ts gridAlpha), drawn again at the camera's scale when a zoom has taken it too far from its base and
// once the camera has settled. Written straight onto the elements' style, so a pan or zoom re-renders none of the
// board screen and rasterises nothing. Reads the store; knows nothing of Konva.
import { type RefObject, useEffect } from 'react';
import type { Camera } from '../board/camera';
import { GRID_PX, gridAlpha } from '../board/detail';
import { gridBase, gridLayerSize, gridLayout } from '../board/grid-layer';
import type { Store } from '../store/store';

/** The camera still this long (ms) draws the dots again at its own scale, sharp. */
const SETTLE_MS = 200;

export function useGrid(
  stageRef: RefObject<HTMLElement | null>,
  gridRef: RefObject<HTMLElement | null>,
  store: Store,
): void {
  useEffect(() => {
    let last: Camera | null = null;
    let base: number | undefined;
    let settle: ReturnType<typeof setTimeout> | undefined;

    const draw = (el: HTMLElement, scale: number): void => {
      base = scale;
      const tile = GRID_PX * scale;
      el.style.backgroundSize = `${tile}px ${tile}px`;
      el.style.width = gridLayerSize(tile);
      el.style.height = gridLayerSize(tile);
    };

    const paint = (c: Camera): void => {
      const stage = stageRef.current;
      const el = gridRef.current;
      if (!stage || !el) return;
      const alpha = gridAlpha(c.scale);
      stage.dataset.gridAlpha = alpha.toFixed(2);
      // Where the camera is, for tests and tools that map world points to the screen.
      stage.dataset.camera = `${c.x} ${c.y} ${c.scale}`;
      el.style.display = alpha > 0 ? '' : 'none';
      if (alpha === 0) return;
      el.style.opacity = String(alpha);
      const next = gridBase(base, c);
      if (next !== base) draw(el, next);
      const at = gridLayout(next, c);
      el.style.transform = `translate(${at.x}px, ${at.y}px) scale(${at.scale})`;
    };

    const follow = (): void => {
      const c = store.getState().camera;
      if (c === last) return;
      last = c;
      paint(c);
      clearTimeout(settle);
      settle = setTimeout(() => {
        const el = gridRef.current;
        if (!el || base === c.scale || store.getState().camera !== c) return;
        draw(el, c.scale);
        paint(c);
      }, SETTLE_MS);
    };
    follow();
    const unsubscribe = store.subscribe(follow);
    return () => {
      clearTimeout(settle);
      unsubscribe();
    };
  }, [stageRef, gridRef, store]);
}
