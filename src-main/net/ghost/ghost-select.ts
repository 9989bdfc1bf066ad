// The ghost sender's line of records waiting to send: a binary min-heap that lives across packets, ordered by
// (key, order), its keys in typed arrays so that finding a packet's next record reads a few contiguous numbers
// rather than hundreds of scattered record objects. A packet pops only as many records as it has room for, so
// its cost grows with what it carries, not with how many records wait. The caller tells a stale entry (its
// record queued again since) by the order it was pushed with. Knows nothing of bits or of what the keys mean.

export class KeyHeap<T> {
  private keys = new Float64Array(16);
  private orders = new Float64Array(16);
  private readonly items: (T | undefined)[] = [];
  private n = 0;

  get size(): number {
    return this.n;
  }

  /** The first entry's item (smallest key, then order), or undefined when empty. */
  peek(): T | undefined {
    return this.n === 0 ? undefined : this.items[0];
  }

  /** The first entry's order. */
  peekOrder(): number {
    return this.orders[0] as number;
  }

  push(item: T, key: number, order: number): void {
    if (this.n === this.keys.length) this.grow();
    const keys = this.keys;
    const orders = this.orders;
    let i = this.n++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pk = keys[p] as number;
      if (pk < key || (pk === key && (orders[p] as number) <= order)) break;
      this.move(p, i);
      i = p;
    }
    this.set(i, item, key, order);
  }

  /** Removes the first entry. */
  pop(): void {
    if (this.n === 0) return;
    const last = --this.n;
    const item = this.items[last];
    const key = this.keys[last] as number;
    const order = this.orders[last] as number;
    this.items[last] = undefined;
    if (last === 0) return;
    const keys = this.keys;
    const orders = this.orders;
    const n = this.n;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n) {
        const lk = keys[l] as number;
        const rk = keys[r] as number;
        if (rk < lk || (rk === lk && (orders[r] as number) < (orders[l] as number))) c = r;
      }
      const ck = keys[c] as number;
      if (key < ck || (key === ck && order <= (orders[c] as number))) break;
      this.move(c, i);
      i = c;
    }
    this.set(i, item as T, key, order);
  }

  clear(): void {
    this.items.length = 0;
    this.n = 0;
  }

  private set(i: number, item: T, key: number, order: number): void {
    this.items[i] = item;
    this.keys[i] = key;
    this.orders[i] = order;
  }

  private move(from: number, to: number): void {
    this.items[to] = this.items[from];
    this.keys[to] = this.keys[from] as number;
    this.orders[to] = this.orders[from] as number;
  }

  private grow(): void {
    const size = this.keys.length * 2;
    const grown = (a: Float64Array): Float64Array<ArrayBuffer> => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    this.keys = grown(this.keys);
    this.orders = grown(this.orders);
  }
}
