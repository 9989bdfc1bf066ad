// The camera the board layer is culled, detailed and snapshotted for: the store's camera once it has been still
// for a moment, or at once when the view has moved so far that the layer would miss what should be seen (zoomed
// past half again, or panned onto board not culled in — or, while the layer shows its snapshot, panned at its
// scale onto board not in it; a zoom shows the snapshot scaled, over the board's overview, until it settles). In
// between the Stage follows the live camera and the layer moves its snapshot along (snapshot-layer.ts), so a
// pan or zoom re-renders no React object and redraws no object. Reads the store; draws nothing.
import { useEffect, useRef, useState } from 'react';
import type { BoardObject, ObjectId } from '../../shared/board';
import { boardBounds } from '../board/bounds';
import { type Camera, type Rect, type Size, visibleWorld } from '../board/camera';
import { detailScale } from '../board/detail';
import type { Store } from '../store/store';
import type { SnapshotLayer } from './snapshot-layer';

/**
 * How long the camera is still before the layer is drawn afresh for it: SETTLE_MS, or twice what the last whole
 * draw took when that is longer (up to MAX_SETTLE_MS), so a gesture with pauses on a dear board is not stalled
 * by a draw at each pause.
 */
export const SETTLE_MS = 150;
const MAX_SETTLE_MS = 1000;
/**
 * Zooming in past this factor draws afresh at once: up to two octaves a gesture shows the snapshot magnified
 * (soft, as a map's tiles are mid-pinch) rather than stall on a whole draw; zooming out is counted by area.
 */
const ZOOM_SLACK = 4;
/** Share of the view that may show board the snapshot lacks before it is drawn afresh mid-gesture. */
const UNCOVERED_SLACK = 0.15;

const bounds = new WeakMap<ReadonlyMap<ObjectId, BoardObject>, Rect | null>();
function boundsOf(board: ReadonlyMap<ObjectId, BoardObject>): Rect | null {
  let b = bounds.get(board);
  if (b === undefined) bounds.set(board, (b = boardBounds(board.values())));
  return b;
}

function intersect(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const w = Math.min(a.x + a.w, b.x + b.w) - x;
  const h = Math.min(a.y + a.h, b.y + b.h) - y;
  return w > 0 && h > 0 ? { x, y, w, h } : null;
}

const area = (r: Rect | null): number => (r === null ? 0 : r.w * r.h);

/**
 * Whether the layer drawn for `settled` (culled to its view grown by `marginPx`) falls short for `now`: the
 * share of the view showing board outside it beyond `slack`, or zoomed in past ZOOM_SLACK.
 */
export function fallsShort(
  settled: Camera,
  now: Camera,
  size: Size,
  board: Rect | null,
  marginPx: number,
  slack: number,
): boolean {
  if (now.scale / settled.scale > ZOOM_SLACK) return true;
  if (board === null) return false;
  const view = visibleWorld(now, size);
  const m = marginPx / settled.scale;
  const drawn = visibleWorld(settled, size);
  const covered = { x: drawn.x - m, y: drawn.y - m, w: drawn.w + 2 * m, h: drawn.h + 2 * m };
  const seen = intersect(view, board);
  const missing = area(seen) - area(seen && intersect(seen, covered));
  return missing > slack * area(view);
}

/**
 * Whether a layer showing its snapshot is drawn afresh before the camera settles: for a pan onto much board the
 * snapshot lacks; a zoom (or a pan at another scale) shows the snapshot scaled, over the overview where there is
 * one, until the camera settles, since a whole draw of a large board takes many frames.
 */
export function redrawMidGesture(
  shot: Camera,
  now: Camera,
  size: Size,
  board: Rect | null,
  overview: boolean,
): boolean {
  if (overview && now.scale !== shot.scale) return false;
  return fallsShort(shot, now, size, board, 0, UNCOVERED_SLACK);
}

export function useSettledCamera(
  store: Store,
  size: Size,
  snapshot: SnapshotLayer,
  cullMarginPx: number,
): Camera {
  const [settled, setSettled] = useState<Camera>(() => store.getState().camera);
  const current = useRef(settled);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The layer takes the camera; React re-culls only when the culled objects or their detail may differ, and
    // the snapshot is drawn afresh only when it is at another scale or lacks board now in view.
    const publish = (c: Camera): void => {
      clearTimeout(timer);
      const was = current.current;
      const board = boundsOf(store.getState().board);
      const shot = snapshot.shotCamera;
      const recull =
        c !== was &&
        (detailScale(c.scale) !== detailScale(was.scale) ||
          fallsShort(was, c, size, board, cullMarginPx, 0));
      // Re-culled, the layer is drawn afresh once React has committed the objects (StaticLayer says so).
      snapshot.settle(
        c,
        !recull &&
          (shot === null || shot.scale !== c.scale || fallsShort(shot, c, size, board, 0, 0)),
      );
      if (recull) {
        current.current = c;
        setSettled(c);
      }
    };
    let last: Camera | null = null;
    const follow = (): void => {
      const s = store.getState();
      const c = s.camera;
      if (c === last) return;
      last = c;
      clearTimeout(timer);
      snapshot.follow(c);
      // Showing a snapshot: draw afresh once a pan outruns it; drawing whole each frame (cheap):
      // re-cull once past the margin.
      const board = boundsOf(s.board);
      const shot = snapshot.shotCamera;
      const short =
        shot !== null
          ? redrawMidGesture(shot, c, size, board, snapshot.hasOverview)
          : fallsShort(current.current, c, size, board, cullMarginPx, 0);
      if (short) publish(c);
      else
        timer = setTimeout(
          () => {
            publish(store.getState().camera);
          },
          Math.min(MAX_SETTLE_MS, Math.max(SETTLE_MS, 2 * snapshot.lastDrawMs)),
        );
    };
    follow();
    const off = store.subscribe(follow);
    snapshot.onCatchUp = () => {
      publish(store.getState().camera);
    };
    return () => {
      snapshot.onCatchUp = null;
      off();
      clearTimeout(timer);
    };
  }, [store, size, snapshot, cullMarginPx]);
  return settled;
}
