// The per-packet record heap pops status changes first, then by rank, and is reused packet after packet without
// leaking an earlier packet's records; knows nothing of bits.
import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import type { Ranked } from './ghost-select';
import { RecordHeap } from './ghost-select';

const rec = (tier: number, rank: number): Ranked => ({ tier, rank });
const order = (a: Ranked, b: Ranked): number => b.tier - a.tier || b.rank - a.rank;

describe('RecordHeap', () => {
  it('pops (tier, rank) in descending order over builds of growing and shrinking sizes (seed 11)', () => {
    const rng = new Rng(11);
    const heap = new RecordHeap<Ranked>();
    for (let round = 0; round < 300; round++) {
      const n = rng.int(round % 3 === 0 ? 300 : 12);
      const records = Array.from({ length: n }, () => rec(rng.int(2), rng.int(40)));
      heap.build(records);
      expect(heap.size, `seed 11, round ${round}`).toBe(n);
      // A packet usually fills before the heap is empty: pop only part of it, sometimes.
      const take = rng.bool(0.5) ? n : rng.int(n + 1);
      const want = [...records].sort(order).slice(0, take);
      const got: Ranked[] = [];
      for (let i = 0; i < take; i++) got.push(heap.pop() as Ranked);
      expect(
        got.map((r) => [r.tier, r.rank]),
        `seed 11, round ${round}`,
      ).toEqual(want.map((r) => [r.tier, r.rank]));
      if (take === n) expect(heap.pop()).toBeUndefined();
    }
  });

  it('holds exactly the records of the last build', () => {
    const heap = new RecordHeap<Ranked>();
    const old = [rec(1, 9), rec(1, 8), rec(0, 7)];
    heap.build(old);
    heap.pop();
    const now = [rec(0, 1), rec(0, 2)];
    heap.build(now);
    expect([heap.pop(), heap.pop(), heap.pop()]).toEqual([now[1], now[0], undefined]);
  });
});
