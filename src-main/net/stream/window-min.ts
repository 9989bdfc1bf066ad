// The lowest of the values added over a sliding window of time (a monotonic deque): O(1) amortized per value, where
// a scan of every value in the window cost the rate controller a loop per look, several looks a round. Pure.

interface Sample {
  readonly at: number;
  readonly value: number;
}

export class WindowMin {
  /** Oldest first, values strictly rising: a value with a later one no higher can never be the lowest again. */
  private readonly samples: Sample[] = [];

  constructor(private readonly windowMs: number) {}

  /** Adds `value` seen at `at` (not before the last one added) and forgets the ones older than the window. */
  add(at: number, value: number): void {
    const s = this.samples;
    while (s.length > 0 && (s[s.length - 1] as Sample).value >= value) s.pop();
    s.push({ at, value });
    while ((s[0] as Sample).at < at - this.windowMs) s.shift();
  }

  /** The lowest value in the window as of the last add; Infinity before any. */
  get min(): number {
    return this.samples[0]?.value ?? Infinity;
  }

  /** Samples kept (at most the window's, usually a handful). */
  get size(): number {
    return this.samples.length;
  }
}
