// The sender's persistent line pops (key, order) in order through random pushes and pops across growth, and
// hands back each entry's order; knows nothing of bits.
import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import { KeyHeap } from './ghost-select';

interface Entry {
  readonly name: number;
  readonly key: number;
  readonly order: number;
}

const byKey = (a: Entry, b: Entry): number => a.key - b.key || a.order - b.order;

describe('KeyHeap', () => {
  it('pops (key, order) in order through random pushes and pops (seed 11)', () => {
    const rng = new Rng(11);
    const heap = new KeyHeap<Entry>();
    const model: Entry[] = [];
    let order = 0;
    for (let step = 0; step < 20_000; step++) {
      // Phases that grow the heap past its first arrays, then drain it.
      const pushing = step % 4000 < 2500 ? 0.7 : 0.3;
      if (rng.bool(pushing)) {
        const e = { name: step, key: rng.int(60), order: order++ };
        heap.push(e, e.key, e.order);
        model.push(e);
      } else {
        model.sort(byKey);
        const want = model.shift();
        expect(heap.peek(), `seed 11, step ${step}`).toBe(want);
        if (want !== undefined) expect(heap.peekOrder()).toBe(want.order);
        heap.pop();
      }
      expect(heap.size).toBe(model.length);
    }
  });

  it('is empty after clear() and works again', () => {
    const heap = new KeyHeap<string>();
    heap.push('a', 2, 0);
    heap.push('b', 1, 1);
    heap.clear();
    expect(heap.peek()).toBeUndefined();
    heap.pop(); // popping an empty heap does nothing
    heap.push('c', 5, 7);
    heap.push('d', 5, 8);
    expect([heap.peek(), heap.peekOrder()]).toEqual(['c', 7]);
    heap.pop();
    expect([heap.peek(), heap.peekOrder()]).toEqual(['d', 8]);
  });
});
