// Selection geometry: an object's tight box (rotation applied exactly), the box around a selection, and which
// objects a marquee contains. Pure; knows nothing of the store, Konva or React.
import type { BoardObject } from '../../shared/board';
import type { Rect } from './camera';
import type { Pt } from './simplify';
import { union } from './bounds';

/** The axis-aligned box of an object as drawn: its local box (w × h and any points) rotated about (x, y). */
export function tightBounds(o: BoardObject): Rect {
  let minX = Math.min(0, o.w);
  let minY = Math.min(0, o.h);
  let maxX = Math.max(0, o.w);
  let maxY = Math.max(0, o.h);
  for (let i = 0; i + 1 < o.points.length; i += 2) {
    const px = o.points[i] ?? 0;
    const py = o.points[i + 1] ?? 0;
    minX = Math.min(minX, px);
    minY = Math.min(minY, py);
    maxX = Math.max(maxX, px);
    maxY = Math.max(maxY, py);
  }
  // Rotation is in tenths of a degree, about the object's (x, y).
  const rad = (o.rotation / 10) * (Math.PI / 180);
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  const corners: Pt[] = [
    { x: minX, y: minY },
    { x: maxX, y: minY },
    { x: maxX, y: maxY },
    { x: minX, y: maxY },
  ].map((c) => ({ x: o.x + c.x * cos - c.y * sin, y: o.y + c.x * sin + c.y * cos }));
  const xs = corners.map((c) => c.x);
  const ys = corners.map((c) => c.y);
  const pad = o.strokeWidth / 2;
  const x = Math.min(...xs) - pad;
  const y = Math.min(...ys) - pad;
  return { x, y, w: Math.max(...xs) + pad - x, h: Math.max(...ys) + pad - y };
}

/** The one box around every object given, or null for none. */
export function selectionBounds(objects: Iterable<BoardObject>): Rect | null {
  let all: Rect | null = null;
  for (const o of objects) all = union(all, tightBounds(o));
  return all;
}

/** The rectangle two corners span, whichever way the drag went. */
export function rectBetween(a: Pt, b: Pt): Rect {
  return {
    x: Math.min(a.x, b.x),
    y: Math.min(a.y, b.y),
    w: Math.abs(a.x - b.x),
    h: Math.abs(a.y - b.y),
  };
}

/** Whether `inner` lies wholly within `outer` (edges may touch). */
export function contains(outer: Rect, inner: Rect): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.w <= outer.x + outer.w &&
    inner.y + inner.h <= outer.y + outer.h
  );
}
