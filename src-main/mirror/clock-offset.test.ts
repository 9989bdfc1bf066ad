import { describe, expect, it } from 'vitest';
import { Rng } from '../net/rng';
import { ClockOffset } from './clock-offset';

/**
 * Their clock runs `offset0 + drift·t` ahead of ours; probes go every second over a path whose two directions
 * differ (a long jittery way there, a short steady way back), and each answer is held a little.
 */
function run(seed: number): {
  worstMiss: number;
  firstError: number;
  finalError: number;
  finalMiss: number;
} {
  const rng = new Rng(seed);
  const offset0 = rng.range(-1e6, 1e6) + rng.next();
  const drift = (rng.next() * 2 - 1) * 100e-6;
  const theirs = (t: number): number => t + offset0 + drift * t;
  const clock = new ClockOffset();
  let worstMiss = -Infinity;
  let firstError = Infinity;
  let t = rng.range(0, 1e5);
  for (let probe = 0; probe < 60; probe++) {
    const t0 = t;
    const there = 20 + rng.next() * 40;
    const hold = rng.next() * 2;
    const back = 5 + rng.next() * 3;
    const t1 = theirs(t0 + there);
    const t2 = theirs(t0 + there + hold);
    const t3 = t0 + there + hold + back;
    expect(clock.add({ t0, t1, t2, t3 })).toBe(true);
    // Until the next probe, the truth stays within the estimate's error bound.
    for (let k = 0; k < 4; k++) {
      const now = t3 + rng.next() * 1000;
      const e = clock.estimate(now);
      if (e === undefined) throw new Error('no estimate after a sample');
      if (probe === 0 && k === 0) firstError = e.error;
      const truth = theirs(now) - now;
      worstMiss = Math.max(worstMiss, Math.abs(e.offset - truth) - e.error);
    }
    t += 1000;
  }
  const e = clock.estimate(t);
  if (e === undefined) throw new Error('no estimate');
  return {
    worstMiss,
    firstError,
    finalError: e.error,
    finalMiss: Math.abs(e.offset - (theirs(t) - t)),
  };
}

describe('clock offset (NTP-style, Mills filter, drift)', () => {
  it('keeps the true offset within its error bound and converges under asymmetric jitter (200 seeds)', () => {
    let worstFinal = 0;
    let worstMiss = 0;
    let narrowed = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const r = run(seed);
      expect(r.worstMiss, `seed ${seed}: truth outside the bound by`).toBeLessThanOrEqual(1e-6);
      worstFinal = Math.max(worstFinal, r.finalError);
      worstMiss = Math.max(worstMiss, r.finalMiss);
      if (r.finalError < r.firstError) narrowed++;
    }
    console.log(
      `clock offset, 200 seeds: final error bound ≤ ${worstFinal.toFixed(2)} ms, final miss ≤ ${worstMiss.toFixed(2)} ms`,
    );
    // Round trips take 25 to 70 ms: the bound starts anywhere up to 35 ms and settles near the filter's best.
    expect(narrowed).toBeGreaterThan(150);
    expect(worstFinal).toBeLessThan(20);
    // The true error is the paths' asymmetry halved (7.5 ms at the shortest trips each way, unknowable from
    // inside) plus how far the recent shortest trips are from the shortest possible.
    expect(worstMiss).toBeLessThan(14);
  });

  it('refuses exchanges whose times cannot be', () => {
    const c = new ClockOffset();
    expect(c.add({ t0: 10, t1: 5, t2: 4, t3: 20 })).toBe(false);
    expect(c.add({ t0: 10, t1: 0, t2: 50, t3: 20 })).toBe(false);
    expect(c.add({ t0: 10, t1: NaN, t2: 5, t3: 20 })).toBe(false);
    expect(c.add({ t0: 30, t1: 5, t2: 6, t3: 20 })).toBe(false);
    expect(c.rejected).toBe(4);
    expect(c.estimate(0)).toBeUndefined();
  });
});
