// NTP-style clock offset to one other mirror from probe/answer timestamps: offset ((t1-t0)+(t2-t3))/2 with an
// error bound of half the round trip, Mills' clock filter (of a sliding window, the sample with the lowest
// delay), and the drift (frequency error) fitted over the filtered samples, so the estimate is carried forward
// between probes. Pure arithmetic on times passed in: knows nothing of links, packets or what the offset is for.

/** One exchange, each time on the clock of the mirror that read it (ms). */
export interface ClockExchange {
  /** Our clock when the probe left. */
  readonly t0: number;
  /** Their clock when the probe arrived. */
  readonly t1: number;
  /** Their clock when the answer left. */
  readonly t2: number;
  /** Our clock when the answer arrived. */
  readonly t3: number;
}

export interface ClockOffsetConfig {
  /** Samples the clock filter picks the best of (NTP: 8). */
  readonly window: number;
  /** Filtered samples the drift is fitted over. */
  readonly driftSamples: number;
  /** Samples whose bounds are intersected for the estimate. */
  readonly history: number;
  /** Drift assumed possible beyond the fitted one, ms per ms (NTP's PHI is 15 ppm): an estimate's error grows with its age. */
  readonly tolerance: number;
  /**
   * Two mirrors' clocks drift apart by at most this (ms per ms): crystal clocks are within ±100 ppm each. A fitted
   * drift beyond it is clamped (a broken sample must not run the estimate away), and it bounds the drift's error.
   */
  readonly maxDrift: number;
}

export const DEFAULT_CLOCK_OFFSET_CONFIG: ClockOffsetConfig = {
  window: 8,
  driftSamples: 16,
  history: 32,
  tolerance: 15e-6,
  maxDrift: 200e-6,
};

interface Sample {
  /** Our clock at the middle of the exchange. */
  readonly at: number;
  /** Their clock minus ours, ms. */
  readonly offset: number;
  /** Round trip minus their hold time, ms. */
  readonly delay: number;
}

export interface ClockEstimate {
  /** Their clock minus ours, ms, at the time asked. */
  readonly offset: number;
  /** The true offset lies within offset ± error (ms), given clocks that drift within the tolerance. */
  readonly error: number;
  /** Their clock's rate minus ours, ms per ms (positive: theirs runs fast). */
  readonly drift: number;
}

export class ClockOffset {
  readonly config: ClockOffsetConfig;
  private readonly recent: Sample[] = [];
  /** The filter's picks, oldest first: the drift is fitted over them. */
  private readonly picks: Sample[] = [];
  private drift = 0;
  /** How far the fitted drift may be from the true one (ms per ms), given each pick's error bound. */
  private driftError: number;
  /** Exchanges refused: times out of order, or a hold longer than the round trip. */
  rejected = 0;
  samples = 0;
  /** Estimates whose samples' intervals did not overlap. */
  contradictions = 0;
  /** The newest samples, the estimate's evidence. */
  private readonly history: Sample[] = [];

  constructor(config: Partial<ClockOffsetConfig> = {}) {
    this.config = { ...DEFAULT_CLOCK_OFFSET_CONFIG, ...config };
    this.driftError = this.config.maxDrift;
  }

  /** Takes one exchange (its times come from the wire: checked, never trusted). */
  add(x: ClockExchange): boolean {
    const { t0, t1, t2, t3 } = x;
    if (![t0, t1, t2, t3].every(Number.isFinite) || t3 < t0 || t2 < t1 || t2 - t1 > t3 - t0) {
      this.rejected++;
      return false;
    }
    this.samples++;
    const sample: Sample = {
      at: (t0 + t3) / 2,
      offset: (t1 - t0 + (t2 - t3)) / 2,
      delay: t3 - t0 - (t2 - t1),
    };
    this.history.push(sample);
    if (this.history.length > this.config.history) this.history.shift();
    this.recent.push(sample);
    if (this.recent.length > this.config.window) this.recent.shift();
    const best = this.best();
    if (best !== undefined && this.picks.at(-1) !== best) {
      this.picks.push(best);
      if (this.picks.length > this.config.driftSamples) this.picks.shift();
      this.fitDrift();
    }
    return true;
  }

  /** The estimate at our clock's `now`, or undefined before the first exchange. */
  estimate(now: number): ClockEstimate | undefined {
    // Half the round trip bounds a sample's offset whatever the paths' asymmetry (NTP); since then the clocks
    // may have drifted apart by as much as the fitted drift can be wrong, and by the tolerance (wander) beyond it.
    // Every sample kept bounds the truth so; the truth lies in all those intervals at once (Marzullo), so their
    // intersection is the estimate: one sample's short way there and another's short way back both count.
    const slope = this.driftError + this.config.tolerance;
    let lo = -Infinity;
    let hi = Infinity;
    let tightest: { readonly center: number; readonly half: number } | undefined;
    for (const s of this.history) {
      const center = s.offset + this.drift * (now - s.at);
      const half = s.delay / 2 + slope * Math.abs(now - s.at);
      lo = Math.max(lo, center - half);
      hi = Math.min(hi, center + half);
      if (tightest === undefined || half < tightest.half) tightest = { center, half };
    }
    if (tightest === undefined) return undefined;
    if (lo > hi) {
      // Samples that contradict each other broke an assumption (a clock stepped): trust the tightest alone.
      this.contradictions++;
      return { offset: tightest.center, error: tightest.half, drift: this.drift };
    }
    return { offset: (lo + hi) / 2, error: (hi - lo) / 2, drift: this.drift };
  }

  /** Mills' clock filter: of the window, the sample whose round trip was shortest (the least queueing in it). */
  private best(): Sample | undefined {
    let best: Sample | undefined;
    for (const s of this.recent) {
      // The error a sample started with, grown by its age: a fresh sample can beat an old short one.
      if (best === undefined || s.delay < best.delay + 2 * this.config.tolerance * (s.at - best.at))
        best = s;
    }
    return best;
  }

  /**
   * Least-squares slope of the picks' offsets over time, clamped to what a clock can do, and its worst case: each
   * pick's offset is only known within half its round trip, and the slope moves by at most Σ|t−t̄|·(delay/2)/Σ(t−t̄)².
   */
  private fitDrift(): void {
    const max = this.config.maxDrift;
    const n = this.picks.length;
    let mt = 0;
    let mo = 0;
    for (const p of this.picks) {
      mt += p.at / n;
      mo += p.offset / n;
    }
    let num = 0;
    let den = 0;
    let spread = 0;
    for (const p of this.picks) {
      num += (p.at - mt) * (p.offset - mo);
      den += (p.at - mt) ** 2;
      spread += Math.abs(p.at - mt) * (p.delay / 2);
    }
    if (n < 2 || den <= 0) {
      this.drift = 0;
      this.driftError = max;
      return;
    }
    this.drift = Math.max(-max, Math.min(max, num / den));
    // The true drift is within ±max and within ±(spread/den) of the fit: the error is at most the narrower.
    this.driftError = Math.min(spread / den, max + Math.abs(this.drift));
  }
}
