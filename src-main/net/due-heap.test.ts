// The delivery heap pops by due time, first-in first-out among equal times; knows nothing of datagrams.
import { describe, expect, it } from 'vitest';
import { Rng } from './rng';
import { DueHeap } from './due-heap';

describe('DueHeap', () => {
  it('pops in (at, order) order for random pushes and pops (seed 3)', () => {
    const rng = new Rng(3);
    const heap = new DueHeap<{ at: number; order: number }>();
    const model: { at: number; order: number }[] = [];
    for (let order = 0; order < 5000; order++) {
      if (rng.bool(0.6)) {
        const item = { at: rng.int(50), order };
        heap.push(item);
        model.push(item);
        model.sort((a, b) => a.at - b.at || a.order - b.order);
      } else {
        expect(heap.pop()).toEqual(model.shift());
      }
      expect(heap.size).toBe(model.length);
    }
    while (model.length > 0) expect(heap.pop()).toEqual(model.shift());
    expect(heap.pop()).toBeUndefined();
  });
});
