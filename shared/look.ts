// How board objects look, wherever they are drawn: the canvas (src-renderer/canvas/shape-bodies.tsx) and the
// exports (shared/svg.ts, shared/excalidraw.ts) take their fonts, paddings and default colours from here, so an
// export looks like the board. Data and pure helpers only.
import type { BoardObject } from './board';

export const FONT_FAMILY =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
export const TEXT_FONT_SIZE = 20;
export const NOTE_FONT_SIZE = 18;
export const NOTE_PADDING = 14;
/** Line height as a multiple of the font size. */
export const LINE_HEIGHT = 1.3;
/** A note's fill when it has none of its own; its text is always dark. */
export const NOTE_FILL = 0xfff3bf;
export const INK = 0x1e1e1e;
export const RECT_CORNER = 4;
export const NOTE_CORNER = 6;

/** An arrow's head: as long as it is wide, growing with the stroke. */
export function arrowHead(o: Pick<BoardObject, 'strokeWidth'>): number {
  return Math.max(10, o.strokeWidth * 3.5);
}
