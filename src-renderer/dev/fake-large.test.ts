// Unit tests of the large seeded board: the same seed gives the same board, the mix the benchmark names, and
// objects the board's own validation accepts.
import { describe, expect, it } from 'vitest';
import { validateObjectFields } from '../../shared/board';
import { largeBoard, largeBoardExtent, wanderingPointers } from './fake-large';

describe('largeBoard', () => {
  it('is the same for the same seed and differs for another', () => {
    expect(largeBoard(200, 7)).toEqual(largeBoard(200, 7));
    expect(largeBoard(200, 8)).not.toEqual(largeBoard(200, 7));
  });

  it('is half strokes of 50 points, the rest rects, ellipses, texts and notes, within its extent', () => {
    const board = largeBoard(1000, 3);
    const { w, h } = largeBoardExtent(1000);
    const strokes = board.filter((o) => o.kind === 'stroke');
    expect(strokes).toHaveLength(500);
    for (const s of strokes) expect(s.points).toHaveLength(100);
    const kinds = new Set(board.filter((o) => o.kind !== 'stroke').map((o) => o.kind));
    expect([...kinds].sort()).toEqual(['ellipse', 'note', 'rect', 'text']);
    expect(board.map((o) => o.id)).toEqual(board.map((_, i) => i + 1));
    for (const o of board) {
      expect(validateObjectFields(o)).toBeUndefined();
      expect(o.x).toBeGreaterThanOrEqual(0);
      expect(o.x).toBeLessThanOrEqual(w);
      expect(o.y).toBeLessThanOrEqual(h);
    }
  });

  it('fits the whole board at the smallest zoom of a 1280 × 800 view', () => {
    const { w, h } = largeBoardExtent(20_000);
    expect(w * 0.1).toBeLessThanOrEqual(1280 - 128);
    expect(h * 0.1).toBeLessThanOrEqual(800 - 128);
  });
});

describe('wanderingPointers', () => {
  it('moves the asked number of peers over the board', () => {
    const a = wanderingPointers(0, 3, 5000);
    const b = wanderingPointers(1, 3, 5000);
    expect(a.map((p) => p.peer)).toEqual([2, 3, 4]);
    expect(a).not.toEqual(b);
  });
});
