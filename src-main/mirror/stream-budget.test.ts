import { describe, expect, it } from 'vitest';
import { streamBudget } from './stream-budget';

describe('a mirror link stream’s budget', () => {
  it('starts with a tenth of a second saved and is ready while not overdrawn', () => {
    const b = streamBudget(0, 10_000, 1000);
    expect(b.readyAt()).toBe(0);
    b.charge(0, 1000, 0);
    expect(b.readyAt()).toBe(0);
    b.charge(0, 500, 0);
    // 500 B overdrawn at 10,000 B/s: ready 50 ms on.
    expect(b.readyAt()).toBe(50);
  });

  it('earns back at its rate and saves no more than a tenth of a second', () => {
    const b = streamBudget(0, 10_000, 1000);
    b.charge(0, 3000, 0);
    expect(b.readyAt()).toBe(200);
    b.charge(200, 0, 0);
    expect(b.readyAt()).toBe(200);
    // A long idle saves 1,000 B at most: 1,500 then overdraws by 500.
    b.charge(10_000, 1500, 0);
    expect(b.readyAt()).toBe(10_050);
  });

  it('lets four packets of its own go back to back, then one per packet interval', () => {
    const b = streamBudget(0, 1_000_000, 250);
    for (let i = 0; i < 4; i++) {
      expect(b.readyAt()).toBe(0);
      b.charge(0, 50, 1);
    }
    expect(b.readyAt()).toBe(4);
    b.charge(4, 50, 1);
    expect(b.readyAt()).toBe(8);
  });

  it('refuses a budget that earns nothing', () => {
    expect(() => streamBudget(0, 0, 1)).toThrow(RangeError);
    expect(() => streamBudget(0, 1, 0)).toThrow(RangeError);
  });
});
