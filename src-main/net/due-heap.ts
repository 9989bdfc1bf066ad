// A binary min-heap of items ordered by (due time, arrival order), so equal times pop first-in first-out; knows nothing of what the items carry.

export interface Due {
  /** Due time, ms. */
  readonly at: number;
  /** Tie-breaker: a counter that increases with every push. */
  readonly order: number;
}

export class DueHeap<T extends Due> {
  private readonly items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const q = this.items;
    q.push(item);
    let i = q.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = q[parent];
      if (p === undefined || !before(item, p)) break;
      q[i] = p;
      i = parent;
    }
    q[i] = item;
  }

  pop(): T | undefined {
    const q = this.items;
    const head = q[0];
    const last = q.pop();
    if (last === undefined || q.length === 0) return head;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = last;
      let at = -1;
      const lv = q[l];
      const rv = q[r];
      if (lv !== undefined && before(lv, smallest)) {
        smallest = lv;
        at = l;
      }
      if (rv !== undefined && before(rv, smallest)) {
        smallest = rv;
        at = r;
      }
      if (at < 0) break;
      q[i] = smallest;
      i = at;
    }
    q[i] = last;
    return head;
  }

  clear(): void {
    this.items.length = 0;
  }

  /** Empties the heap, returning its items in no particular order. */
  drain(): T[] {
    return this.items.splice(0);
  }
}

function before(a: Due, b: Due): boolean {
  return a.at < b.at || (a.at === b.at && a.order < b.order);
}
