// Partial selection of a packet's update list: a binary max-heap over (tier, rank), built in O(n) and popped
// only as far as the packet has room, so a packet costs O(n + k log n), not a full sort. Knows nothing of bits.

/** What the heap orders by: status changes (higher tier) first, then rank (priority aged by waiting). */
export interface Ranked {
  readonly tier: number;
  readonly rank: number;
}

function before(a: Ranked, b: Ranked): boolean {
  return a.tier > b.tier || (a.tier === b.tier && a.rank > b.rank);
}

export class RecordHeap<T extends Ranked> {
  /** items[0..n) is the heap; the array only grows, so a packet allocates nothing here. */
  private readonly items: T[] = [];
  private n = 0;

  get size(): number {
    return this.n;
  }

  /** Replaces the contents with `records` (Floyd's heapify). */
  build(records: readonly T[]): void {
    const h = this.items;
    for (let i = 0; i < records.length; i++) h[i] = records[i] as T;
    this.n = records.length;
    for (let i = (this.n >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  /** The record that goes first, removed; undefined when empty. */
  pop(): T | undefined {
    if (this.n === 0) return undefined;
    const h = this.items;
    const top = h[0];
    this.n--;
    if (this.n > 0) {
      h[0] = h[this.n] as T;
      this.siftDown(0);
    }
    return top;
  }

  private siftDown(start: number): void {
    const h = this.items;
    const n = this.n;
    const item = h[start] as T;
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const lv = h[l] as T;
      const c = r < n && before(h[r] as T, lv) ? (h[r] as T) : lv;
      if (!before(c, item)) break;
      h[i] = c;
      i = c === lv ? l : r;
    }
    h[i] = item;
  }
}
