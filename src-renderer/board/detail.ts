// Level of detail for drawing many objects zoomed out, and the dot grid's fade: pure maths on the camera's
// scale. An object drawn a couple of screen pixels wide is a plain box; a freehand line keeps only points at
// least a pixel or so apart and is drawn straight between them; text too small to read is drawn as grey bars;
// a note's soft shadow (dear on a CPU canvas) only from half size up. At 100 % and above nothing is simplified.
// Knows nothing of Konva, React or the DOM.

/** The scale the detail is chosen for: the camera's, rounded down to a power of two, at most 1. */
export function detailScale(scale: number): number {
  if (!(scale > 0)) return 1;
  return Math.min(1, 2 ** Math.floor(Math.log2(scale) + 1e-9));
}

/** Screen px below which an object is drawn as a plain box. */
export const TINY_PX = 2;
/** Screen px below which a glyph is not drawn as text. */
export const UNREADABLE_PX = 5;

/** Whether an object of w × h world units is drawn as a box at this detail scale. */
export function isTiny(w: number, h: number, scale: number): boolean {
  return Math.max(Math.abs(w), Math.abs(h)) * scale < TINY_PX;
}

/** Whether text of `fontSize` world units is drawn as bars at this detail scale. */
export function isUnreadable(fontSize: number, scale: number): boolean {
  return fontSize * scale < UNREADABLE_PX;
}

/** Whether curves and soft shadows are drawn at this detail scale. */
export function isFine(scale: number): boolean {
  return scale >= 0.5;
}

/**
 * Flat [x0, y0, x1, y1, …] keeping the first and last point and, between them, each point at least `minDist`
 * from the last one kept. A line of fewer than 3 points comes back as it is.
 */
export function decimate(points: readonly number[], minDist: number): number[] {
  const n = Math.floor(points.length / 2);
  if (n < 3 || !(minDist > 0)) return [...points];
  const out = [points[0] ?? 0, points[1] ?? 0];
  let lx = out[0] ?? 0;
  let ly = out[1] ?? 0;
  const min2 = minDist * minDist;
  for (let i = 1; i < n - 1; i++) {
    const x = points[2 * i] ?? 0;
    const y = points[2 * i + 1] ?? 0;
    if ((x - lx) ** 2 + (y - ly) ** 2 >= min2) {
      out.push(x, y);
      lx = x;
      ly = y;
    }
  }
  out.push(points[2 * n - 2] ?? 0, points[2 * n - 1] ?? 0);
  return out;
}

/** Grid spacing (CSS px at scale 1) of the dot grid. */
export const GRID_PX = 24;

/**
 * The dot grid's opacity at a camera scale: whole while the dots are at least 12 px apart, fading out as they
 * close in, gone below 6 px (where they would blur into a moiré).
 */
export function gridAlpha(scale: number): number {
  const spacing = GRID_PX * scale;
  return Math.min(1, Math.max(0, (spacing - 6) / 6));
}
