import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import { WindowMin } from './window-min';

describe('WindowMin', () => {
  it('is Infinity before any value', () => {
    expect(new WindowMin(100).min).toBe(Infinity);
  });

  it('forgets a low value once it is older than the window', () => {
    const w = new WindowMin(100);
    w.add(0, 5);
    w.add(50, 9);
    expect(w.min).toBe(5);
    w.add(100, 8);
    expect(w.min).toBe(5); // at 0 is exactly the window's age: kept
    w.add(101, 10);
    expect(w.min).toBe(8);
  });

  it('matches a scan of every value in the window (seeded sequences)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rng = new Rng(seed);
      const w = new WindowMin(1000);
      const all: { at: number; value: number }[] = [];
      let at = 0;
      for (let i = 0; i < 2000; i++) {
        at += Math.floor(rng.next() * 120);
        const value = 20 + Math.floor(rng.next() * 50);
        w.add(at, value);
        all.push({ at, value });
        const scan = Math.min(...all.filter((s) => s.at >= at - 1000).map((s) => s.value));
        if (w.min !== scan) throw new Error(`seed ${seed}, step ${i}: ${w.min} against ${scan}`);
      }
      expect(w.size).toBeLessThanOrEqual(all.filter((s) => s.at >= at - 1000).length);
    }
  });
});
