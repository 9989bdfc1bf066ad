// Zoom out / level / in / fit, bottom left. Changes the store's camera; knows nothing of Konva or the bridge.
import type { ReactElement } from 'react';
import { boardBounds } from '../board/bounds';
import { type Camera, fitCamera, type Size, zoomAt } from '../board/camera';
import type { Store } from '../store/store';
import { useAppState, useController } from '../view/context';
import { Icon } from './icons';

/** Zooms about the centre of a view of `size`. */
export function zoomBy(store: Store, factor: number, size: Size): void {
  const c: Camera = store.getState().camera;
  store.dispatch({
    type: 'camera',
    camera: zoomAt(c, c.scale * factor, size.width / 2, size.height / 2),
  });
}

export function fitBoard(store: Store, size: Size): void {
  const bounds = boardBounds(store.getState().board.values());
  store.dispatch({ type: 'camera', camera: fitCamera(bounds, size) });
}

export function ZoomControls({ size }: { size: Size }): ReactElement {
  const { store } = useController();
  const scale = useAppState((s) => s.camera.scale);
  return (
    <div className="zoom" role="group" aria-label="Zoom">
      <button
        type="button"
        className="icon-btn"
        aria-label="Zoom out"
        data-tip="Zoom out · −"
        onClick={() => {
          zoomBy(store, 1 / 1.25, size);
        }}
      >
        <Icon name="minus" />
      </button>
      <button
        type="button"
        className="zoom-level"
        aria-label="Reset zoom to 100%"
        data-tip="Reset to 100% · Shift+0"
        onClick={() => {
          zoomBy(store, 1 / scale, size);
        }}
      >
        {Math.round(scale * 100)}%
      </button>
      <button
        type="button"
        className="icon-btn"
        aria-label="Zoom in"
        data-tip="Zoom in · +"
        onClick={() => {
          zoomBy(store, 1.25, size);
        }}
      >
        <Icon name="plus" />
      </button>
      <button
        type="button"
        className="icon-btn"
        aria-label="Fit the board"
        data-tip="Fit · Shift+1"
        onClick={() => {
          fitBoard(store, size);
        }}
      >
        <Icon name="fit" />
      </button>
    </div>
  );
}
