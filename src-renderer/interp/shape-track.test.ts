// A remote resize or rotate's size and rotation, interpolated like a position.
import { describe, expect, it } from 'vitest';
import { ShapeTrack } from './shape-track';

const opts = { delayMs: 100, maxExtrapolateMs: 0, settleMs: 0, maxSamples: 64 };

describe('ShapeTrack', () => {
  it('renders size and rotation the fixed delay behind, halfway between two samples', () => {
    const t = new ShapeTrack(opts);
    expect(t.sample(0)).toBeNull();
    t.push(0, { w: 100, h: 50, rotation: 0 });
    t.push(50, { w: 200, h: 150, rotation: 900 });
    expect(t.sample(100)).toEqual({ w: 100, h: 50, rotation: 0 });
    expect(t.sample(125)).toEqual({ w: 150, h: 100, rotation: 450 });
    expect(t.sample(150)).toEqual({ w: 200, h: 150, rotation: 900 });
  });

  it('turns the short way across 0°, and reports rotation in 0..3599', () => {
    const t = new ShapeTrack(opts);
    t.push(0, { w: 10, h: 10, rotation: 3550 });
    t.push(50, { w: 10, h: 10, rotation: 50 });
    expect(t.sample(125)?.rotation).toBe(0);
    expect(t.sample(140)?.rotation).toBeCloseTo(30, 9);
    expect(t.sample(150)?.rotation).toBe(50);
    // And back again, over many turns' worth of updates.
    for (let i = 1; i <= 80; i++)
      t.push(50 + i * 10, { w: 10, h: 10, rotation: (50 - i * 100 + 36000) % 3600 });
    const r = t.sample(10_000)?.rotation ?? -1;
    expect(r).toBeGreaterThanOrEqual(0);
    expect(r).toBeLessThan(3600);
    expect(r).toBe((50 - 80 * 100 + 36000) % 3600);
  });

  it('a held track glides to its newest sample and stays there', () => {
    const t = new ShapeTrack({ ...opts, maxExtrapolateMs: 100 });
    t.push(0, { w: 100, h: 100, rotation: 0 });
    t.push(50, { w: 200, h: 100, rotation: 100 });
    t.hold(60);
    expect(t.sample(1000)).toEqual({ w: 200, h: 100, rotation: 100 });
  });
});
