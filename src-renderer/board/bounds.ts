// World-space bounds of board objects and culling to the viewport. Pure; knows nothing of Konva or React.
import type { BoardObject } from '../../shared/board';
import type { Rect } from './camera';

/** The axis-aligned box an object can cover (rotation included, conservatively). */
export function objectBounds(o: BoardObject): Rect {
  let minX = 0;
  let minY = 0;
  let maxX = o.w;
  let maxY = o.h;
  for (let i = 0; i + 1 < o.points.length; i += 2) {
    const px = o.points[i] ?? 0;
    const py = o.points[i + 1] ?? 0;
    minX = Math.min(minX, px);
    minY = Math.min(minY, py);
    maxX = Math.max(maxX, px);
    maxY = Math.max(maxY, py);
  }
  const pad = o.strokeWidth / 2 + 2;
  if (o.rotation !== 0) {
    // Rotation is about (x, y): every local point stays within the circle through the farthest corner.
    const r = Math.hypot(Math.max(-minX, maxX), Math.max(-minY, maxY)) + pad;
    return { x: o.x - r, y: o.y - r, w: 2 * r, h: 2 * r };
  }
  return {
    x: o.x + minX - pad,
    y: o.y + minY - pad,
    w: maxX - minX + 2 * pad,
    h: maxY - minY + 2 * pad,
  };
}

export function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

export function union(a: Rect | null, b: Rect): Rect {
  if (a === null) return b;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}

/** The box around every object, or null for an empty board. */
export function boardBounds(objects: Iterable<BoardObject>): Rect | null {
  let all: Rect | null = null;
  for (const o of objects) all = union(all, objectBounds(o));
  return all;
}

/** The objects that can show in `view` (grown by `margin` on each side), bottom to top. */
export function cullToView(
  objects: Iterable<BoardObject>,
  view: Rect,
  margin: number,
): BoardObject[] {
  const grown = {
    x: view.x - margin,
    y: view.y - margin,
    w: view.w + 2 * margin,
    h: view.h + 2 * margin,
  };
  const out: BoardObject[] = [];
  for (const o of objects) if (intersects(objectBounds(o), grown)) out.push(o);
  return out.sort((a, b) => a.z - b.z);
}
