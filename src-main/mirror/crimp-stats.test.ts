import { describe, expect, it } from 'vitest';
import { LatencyWindow } from './crimp-stats';

describe('LatencyWindow', () => {
  it('summarizes nothing before the first sample', () => {
    expect(new LatencyWindow(8).summary()).toBeNull();
  });

  it('keeps only the last `size` samples: memory and figures follow the recent repairs', () => {
    const w = new LatencyWindow(100);
    for (let ms = 1; ms <= 1_000; ms++) w.record(ms);
    expect(w.summary()).toEqual({ n: 100, p50: 951, p95: 996, p99: 1000, max: 1000 });
  });

  it('hands back the samples it holds, oldest first, before and after the ring wraps', () => {
    const w = new LatencyWindow(4);
    expect(w.samples()).toEqual([]);
    for (const ms of [5, 6, 7]) w.record(ms);
    expect(w.samples()).toEqual([5, 6, 7]);
    for (const ms of [8, 9, 10]) w.record(ms);
    expect(w.samples()).toEqual([7, 8, 9, 10]);
  });

  it('orders samples numerically, not as strings', () => {
    const w = new LatencyWindow(4);
    for (const ms of [9, 100, 20, 3]) w.record(ms);
    expect(w.summary()).toMatchObject({ p50: 20, max: 100 });
  });
});
