import { describe, expect, it } from 'vitest';
import { Board, isRefusal } from './board';
import { BoardBudget, objectBytes, TokenBucket } from './peer-limits';

describe('TokenBucket', () => {
  it('starts full, refills at its rate up to its capacity, and never passes more than it holds', () => {
    const b = new TokenBucket(3, 2, 0);
    expect([b.take(0), b.take(0), b.take(0), b.take(0)]).toEqual([true, true, true, false]);
    expect(b.take(499)).toBe(false);
    expect(b.take(500)).toBe(true);
    expect(b.take(10_000, 3)).toBe(true);
    expect(b.take(10_000)).toBe(false);
    expect(b.take(20_000, 4)).toBe(false);
  });
});

describe('BoardBudget', () => {
  it('follows the board through creates, growing edits and deletes', () => {
    const board = new Board();
    const fields = {
      kind: 'note' as const,
      x: 0,
      y: 0,
      w: 1,
      h: 1,
      rotation: 0,
      stroke: null,
      fill: null,
      strokeWidth: 1,
      text: 'abc',
      blob: '',
      points: [],
    };
    const before = board.create(fields);
    const budget = new BoardBudget(board, { objects: 2, bytes: 1000 });
    expect(budget.bytes).toBe(objectBytes(fields));
    const o = board.create({ ...fields, points: [1, 2] });
    if (isRefusal(o) || isRefusal(before)) throw new Error('create');
    expect(budget.bytes).toBe(2 * 131 + 8);
    expect(budget.refuseNew(128)).toBe('the board is full (2 objects)');
    board.update(o.id, { text: 'x'.repeat(500) });
    expect(budget.bytes).toBe(131 + 128 + 500 + 8);
    expect(budget.refuseGrowth(300)).toBe('the board is full (1 KB)');
    expect(budget.refuseGrowth(-300)).toBeUndefined();
    board.delete(o.id);
    expect(budget.bytes).toBe(131);
    expect(budget.refuseNew(128)).toBeUndefined();
    budget.dispose();
  });
});
