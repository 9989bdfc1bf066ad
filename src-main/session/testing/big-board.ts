// Test kit: the large board of issue 20 (point 3), for join tests and the bigjoin benchmark: half freehand
// strokes of 50 points, the rest rectangles, ellipses, texts and notes, on a grid. Knows nothing of the wire.
import type { NewObject } from '../../../shared/board';
import { isRefusal } from '../board';
import { Board } from '../board';

export const STROKE_POINTS = 50;
const COLUMNS = 100;
const CELL = 120;
const SHAPES = ['rect', 'ellipse', 'text', 'note'] as const;

/** The i-th object: even ones are strokes, odd ones take turns among the other kinds. */
export function bigBoardObject(i: number): NewObject {
  const base = {
    x: (i % COLUMNS) * CELL,
    y: Math.floor(i / COLUMNS) * CELL,
    w: 100,
    h: 60,
    rotation: 0,
    stroke: 0x222222,
    fill: null,
    strokeWidth: 2,
    text: '',
    points: [] as number[],
    blob: '',
  };
  if (i % 2 === 0) {
    const points: number[] = [];
    for (let k = 0; k < STROKE_POINTS; k++)
      points.push(k * 2, Math.round(30 + 25 * Math.sin((k + i) / 4)));
    return { ...base, kind: 'stroke', points };
  }
  const kind = SHAPES[((i - 1) / 2) % SHAPES.length] ?? 'rect';
  const text = kind === 'text' || kind === 'note' ? `item ${i}: something to read` : '';
  return { ...base, kind, text, fill: kind === 'note' ? 0xfff3a0 : null };
}

/** A board of `n` such objects, made as the host makes them. */
export function bigBoard(n: number): Board {
  const board = new Board();
  for (let i = 0; i < n; i++) {
    const o = board.create(bigBoardObject(i));
    if (isRefusal(o)) throw new Error(`object ${i}: ${o.refused}`);
  }
  return board;
}
