// Unit tests of the pointer interpolation track: deterministic, every time passed in.
import { describe, expect, it } from 'vitest';
import { Track, type TrackOptions } from './track';

const OPTS: TrackOptions = { delayMs: 100, maxExtrapolateMs: 100, settleMs: 0, maxSamples: 64 };

function near(p: { x: number; y: number } | null, x: number, y: number): void {
  expect(p).not.toBeNull();
  expect(p?.x).toBeCloseTo(x, 6);
  expect(p?.y).toBeCloseTo(y, 6);
}

/** A track fed at a steady rate along x = t (one unit per ms). */
function steady(intervalMs: number, until: number, opts = OPTS): Track {
  const track = new Track(opts);
  for (let t = 0; t <= until; t += intervalMs) track.push(t, t, 0);
  return track;
}

describe('Track', () => {
  it('has no position before the first sample', () => {
    expect(new Track(OPTS).sample(0)).toBeNull();
  });

  it('shows the first sample at once and holds it', () => {
    const track = new Track(OPTS);
    track.push(1000, 5, 7);
    near(track.sample(1000), 5, 7);
    near(track.sample(5000), 5, 7);
  });

  it('renders the fixed delay behind and interpolates between the samples around render time', () => {
    const track = steady(50, 1000);
    near(track.sample(1000), 900, 0);
    near(track.sample(1025), 925, 0);
    near(track.sample(1040), 940, 0);
  });

  it('glides smoothly at any update rate (5, 20 and 60 Hz)', () => {
    for (const interval of [200, 50, 1000 / 60]) {
      const opts = { ...OPTS, delayMs: interval * 1.5 };
      const track = new Track(opts);
      let prevX = -Infinity;
      let t = 0;
      let next = 0;
      for (let now = 0; now <= 2000; now += 4) {
        while (next <= now) {
          track.push(next, next, 0);
          t = next;
          next += interval;
        }
        const p = track.sample(now);
        if (p === null) throw new Error('no position');
        expect(p.x).toBeGreaterThanOrEqual(prevX);
        if (now >= opts.delayMs) expect(p.x).toBeCloseTo(now - opts.delayMs, 6);
        prevX = p.x;
      }
      expect(t).toBeGreaterThan(0);
    }
  });
});

describe('Track across gaps', () => {
  it('extrapolates across a gap at the last velocity for at most maxExtrapolateMs, then holds', () => {
    const track = steady(50, 500); // newest sample x = 500 at t = 500
    near(track.sample(650), 550, 0); // render time 550: 50 ms past the newest
    near(track.sample(700), 600, 0); // 100 ms past: the limit
    near(track.sample(800), 600, 0); // held
    near(track.sample(5000), 600, 0);
  });

  it('settles back onto the newest real sample after extrapolating, when settleMs is set', () => {
    const track = steady(50, 500, { ...OPTS, settleMs: 100 });
    near(track.sample(700), 600, 0);
    const mid = track.sample(750);
    expect(mid?.x).toBeGreaterThan(500);
    expect(mid?.x).toBeLessThan(600);
    near(track.sample(800), 500, 0);
    near(track.sample(9000), 500, 0);
  });

  it('continues from where it is drawn when a sample arrives after a gap (no jump)', () => {
    const track = steady(50, 500);
    near(track.sample(800), 600, 0); // holding at the extrapolated 600
    track.push(800, 700, 0);
    near(track.sample(800), 600, 0); // same instant: unchanged
    near(track.sample(850), 650, 0); // gliding towards the new sample ...
    near(track.sample(900), 700, 0); // ... reached one delay later
  });

  it('does not jump when a stationary pointer starts moving after a long idle time', () => {
    const track = new Track(OPTS);
    track.push(0, 10, 10);
    near(track.sample(5000), 10, 10);
    track.push(5000, 110, 10);
    near(track.sample(5000), 10, 10);
    near(track.sample(5050), 60, 10);
    near(track.sample(5100), 110, 10);
  });
});

describe('Track bookkeeping', () => {
  it('never jumps backwards in time, even if asked about an earlier moment', () => {
    const track = steady(50, 1000);
    near(track.sample(1000), 900, 0);
    near(track.sample(950), 900, 0);
    near(track.sample(1010), 910, 0);
  });

  it('treats a sample that arrives with an earlier time as arriving with the newest', () => {
    const track = new Track(OPTS);
    track.push(100, 0, 0);
    track.push(200, 100, 0);
    track.push(150, 300, 0); // replaces the newest: latest data wins
    near(track.sample(300), 300, 0);
  });

  it('keeps only the samples it still needs', () => {
    const track = steady(10, 10_000, { ...OPTS, maxSamples: 1000 });
    track.sample(10_000);
    expect(track.size).toBeLessThanOrEqual(12);
    const capped = steady(10, 10_000, { ...OPTS, maxSamples: 8 });
    expect(capped.size).toBe(8);
  });

  it('shows the next sample at once after reset', () => {
    const track = steady(50, 500);
    track.sample(600);
    track.reset();
    track.push(700, -50, 40);
    near(track.sample(700), -50, 40);
  });

  it('interpolates both axes', () => {
    const track = new Track(OPTS);
    track.push(0, 0, 0);
    track.push(100, 100, -200);
    near(track.sample(150), 50, -100);
  });
});

describe('Track.hold', () => {
  it('ends the path at the newest sample instead of extrapolating past it', () => {
    const track = steady(50, 500);
    track.hold(520);
    near(track.sample(600), 500, 0);
    near(track.sample(700), 500, 0);
  });
});

describe('Track extrapolation on bursty arrivals', () => {
  it('does not fling a pointer whose last two updates arrived a millisecond apart', () => {
    const t = new Track({ delayMs: 0, maxExtrapolateMs: 100, settleMs: 0, maxSamples: 64 });
    t.push(0, 0, 0);
    t.push(1000, 100, 0);
    t.push(1001, 180, 0); // a burst: 80 units in 1 ms of arrival time
    const p = t.sample(1101);
    // At most the movement just seen (80) beyond the newest sample, not 80 units/ms x 100 ms.
    expect(p?.x).toBeLessThanOrEqual(260);
    expect(p?.x).toBeGreaterThanOrEqual(180);
  });
});
