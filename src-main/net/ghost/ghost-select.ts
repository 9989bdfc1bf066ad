// Partial selection of a packet's update list: a binary max-heap over (tier, rank), built in O(n) and popped
// only as far as the packet has room, so a packet costs O(n + k log n), not a full sort. Knows nothing of bits.
import type { GhostRecord } from './ghost-record';

function before(a: GhostRecord, b: GhostRecord): boolean {
  return a.tier > b.tier || (a.tier === b.tier && a.rank > b.rank);
}

export class RecordHeap {
  private items: GhostRecord[] = [];

  get size(): number {
    return this.items.length;
  }

  /** Replaces the contents with a copy of `records` (Floyd's heapify). */
  build(records: readonly GhostRecord[]): void {
    this.items = records.slice();
    for (let i = (this.items.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  /** The record that goes first, removed; undefined when empty. */
  pop(): GhostRecord | undefined {
    const h = this.items;
    const top = h[0];
    const last = h.pop();
    if (top === undefined || last === undefined || h.length === 0) return top;
    h[0] = last;
    this.siftDown(0);
    return top;
  }

  private siftDown(start: number): void {
    const h = this.items;
    const item = h[start] as GhostRecord;
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const lv = h[l] as GhostRecord;
      const rv = h[r];
      const c = rv !== undefined && before(rv, lv) ? rv : lv;
      if (!before(c, item)) break;
      h[i] = c;
      i = c === lv ? l : r;
    }
    h[i] = item;
  }
}
