import { describe, expect, it } from 'vitest';
import { LossWindow, RateMeter, RttEstimator } from './stats';

describe('RttEstimator', () => {
  it('takes the peer ack delay out of samples', () => {
    const rtt = new RttEstimator();
    for (let i = 0; i < 50; i++) rtt.sample(80 + (i % 2) * 30, (i % 2) * 30);
    expect(rtt.smoothed).toBeCloseTo(80, 0);
    expect(rtt.min).toBe(80);
  });

  it('never goes below the path floor when the whole-ms delay exceeds a tiny sample', () => {
    const rtt = new RttEstimator();
    rtt.sample(0.3, 0);
    for (let i = 0; i < 50; i++) rtt.sample(24.7, 25);
    expect(rtt.smoothed).toBeCloseTo(0.3, 5);
  });

  it('starts from the initial guess until the first sample', () => {
    const rtt = new RttEstimator(250);
    expect(rtt.hasSample).toBe(false);
    expect(rtt.smoothed).toBe(250);
    rtt.sample(40, 0);
    expect(rtt.smoothed).toBe(40);
    expect(rtt.variance).toBe(20);
  });
});

describe('LossWindow', () => {
  it('reports the dropped fraction of the most recent packets only', () => {
    const w = new LossWindow(10);
    for (let i = 0; i < 10; i++) w.record(i % 2 === 0);
    expect(w.rate).toBeCloseTo(0.5);
    for (let i = 0; i < 10; i++) w.record(true);
    expect(w.rate).toBe(0);
  });
});

describe('RateMeter', () => {
  it('sums the last second and forgets older buckets', () => {
    const m = new RateMeter();
    for (let t = 0; t < 2000; t += 10) m.add(t, 1);
    expect(m.perSecond(1999)).toBeGreaterThanOrEqual(99);
    expect(m.perSecond(1999)).toBeLessThanOrEqual(101);
    expect(m.perSecond(5000)).toBe(0);
    expect(m.lifetimeTotal).toBe(200);
  });
});
