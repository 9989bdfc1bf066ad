// Freehand strokes to board points: Ramer–Douglas–Peucker simplification down to MAX_POINTS, made relative to
// the stroke's top-left corner and clamped to the wire's point range. Pure; knows nothing of Konva or React.
import { MAX_POINTS, POINT_EXTENT } from '../../shared/board';

export interface Pt {
  readonly x: number;
  readonly y: number;
}

function distToSegment(p: Pt, a: Pt, b: Pt): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  if (len2 === 0) return Math.hypot(p.x - a.x, p.y - a.y);
  const t = Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** Ramer–Douglas–Peucker with tolerance `epsilon` (iterative: long strokes must not overflow the stack). */
export function rdp(points: readonly Pt[], epsilon: number): Pt[] {
  const n = points.length;
  if (n <= 2) return [...points];
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const stack: [number, number][] = [[0, n - 1]];
  for (let span = stack.pop(); span !== undefined; span = stack.pop()) {
    const [lo, hi] = span;
    const a = points[lo];
    const b = points[hi];
    if (a === undefined || b === undefined) continue;
    let best = -1;
    let bestDist = epsilon;
    for (let i = lo + 1; i < hi; i++) {
      const p = points[i];
      const d = p === undefined ? 0 : distToSegment(p, a, b);
      if (d > bestDist) {
        best = i;
        bestDist = d;
      }
    }
    if (best < 0) continue;
    keep[best] = 1;
    stack.push([lo, best], [best, hi]);
  }
  return points.filter((_, i) => keep[i] === 1);
}

/** Simplifies with a growing tolerance until at most `max` points remain. */
export function simplifyTo(points: readonly Pt[], max: number, startEpsilon = 0.5): Pt[] {
  let eps = startEpsilon;
  let out = rdp(points, eps);
  while (out.length > max) {
    eps *= 1.5;
    out = rdp(points, eps);
  }
  return out;
}

export interface StrokeGeometry {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  /** Flat, relative to (x, y), integers within ±POINT_EXTENT. */
  readonly points: number[];
}

/** World points of a pen stroke to an object's geometry (origin at the top-left of the points). */
export function strokeGeometry(world: readonly Pt[], epsilon = 0.5): StrokeGeometry {
  const rounded = world.map((p) => ({ x: Math.round(p.x), y: Math.round(p.y) }));
  const pts = simplifyTo(dedupe(rounded), MAX_POINTS, epsilon);
  const x = Math.min(...pts.map((p) => p.x));
  const y = Math.min(...pts.map((p) => p.y));
  const clampPt = (v: number): number =>
    Math.max(-POINT_EXTENT, Math.min(POINT_EXTENT, Math.round(v)));
  const points = pts.flatMap((p) => [clampPt(p.x - x), clampPt(p.y - y)]);
  const xs = points.filter((_, i) => i % 2 === 0);
  const ys = points.filter((_, i) => i % 2 === 1);
  return { x, y, w: Math.max(...xs), h: Math.max(...ys), points };
}

function dedupe(points: readonly Pt[]): Pt[] {
  const out: Pt[] = [];
  for (const p of points) {
    const last = out.at(-1);
    if (last === undefined || last.x !== p.x || last.y !== p.y) out.push(p);
  }
  return out.length > 0 ? out : [{ x: 0, y: 0 }];
}
