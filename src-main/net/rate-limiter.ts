// Bounded per-source counters of failed join attempts, so join codes can't be guessed quickly. Pure; time passed in.

/** Counts events per key in fixed windows; the table never holds more than `maxKeys` keys. */
export class FailureLimiter {
  private readonly table = new Map<string, { windowStart: number; count: number }>();

  constructor(
    private readonly maxPerWindow = 10,
    private readonly windowMs = 60_000,
    private readonly maxKeys = 4096,
  ) {}

  get size(): number {
    return this.table.size;
  }

  isLimited(now: number, key: string): boolean {
    const e = this.table.get(key);
    return e !== undefined && now - e.windowStart < this.windowMs && e.count >= this.maxPerWindow;
  }

  record(now: number, key: string): void {
    let e = this.table.get(key);
    if (e === undefined || now - e.windowStart >= this.windowMs) {
      e = { windowStart: now, count: 0 };
    }
    e.count++;
    // Re-insert so Map order is least-recently-failed first, then evict from the front.
    this.table.delete(key);
    this.table.set(key, e);
    while (this.table.size > this.maxKeys) {
      const oldest = this.table.keys().next();
      if (oldest.done === true) break;
      this.table.delete(oldest.value);
    }
  }
}
