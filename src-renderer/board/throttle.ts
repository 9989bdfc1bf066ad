// Leading + trailing throttle for high-rate commands (pointer, drag, viewport): at most one call per interval,
// and the latest value is never lost. The clock and timer are injected so tests are exact. No DOM, no React.

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: Clock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => {
    clearTimeout(h as ReturnType<typeof setTimeout>);
  },
};

export class Throttle<T> {
  private lastAt = -Infinity;
  private pending: { value: T } | null = null;
  private timer: unknown = null;

  constructor(
    private readonly intervalMs: number,
    private readonly send: (value: T) => void,
    private readonly clock: Clock = realClock,
  ) {}

  push(value: T): void {
    const now = this.clock.now();
    if (this.timer === null && now - this.lastAt >= this.intervalMs) {
      this.fire(value, now);
      return;
    }
    this.pending = { value };
    this.timer ??= this.clock.setTimeout(
      () => {
        this.timer = null;
        this.flush();
      },
      Math.max(0, this.lastAt + this.intervalMs - now),
    );
  }

  /** Sends the pending value now (if any). */
  flush(): void {
    if (this.timer !== null) {
      this.clock.clearTimeout(this.timer);
      this.timer = null;
    }
    const p = this.pending;
    this.pending = null;
    if (p) this.fire(p.value, this.clock.now());
  }

  /** Forgets the pending value (the caller sends something final instead, e.g. a drop). */
  cancel(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
  }

  private fire(value: T, now: number): void {
    this.lastAt = now;
    this.send(value);
  }
}
