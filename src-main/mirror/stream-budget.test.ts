import { describe, expect, it } from 'vitest';
import { StreamBudget } from './stream-budget';

describe('StreamBudget', () => {
  it('starts with a tenth of a second saved and is ready while not overdrawn', () => {
    const b = new StreamBudget(0, 10_000);
    expect(b.readyAt()).toBe(0);
    b.charge(0, 1000);
    expect(b.readyAt()).toBe(0);
    b.charge(0, 500);
    // 500 B overdrawn at 10,000 B/s: ready 50 ms on.
    expect(b.readyAt()).toBe(50);
  });

  it('earns back at its rate and saves no more than a tenth of a second', () => {
    const b = new StreamBudget(0, 10_000);
    b.charge(0, 3000);
    expect(b.readyAt()).toBe(200);
    b.charge(200, 0);
    expect(b.readyAt()).toBe(200);
    // A long idle saves 1,000 B at most: 1,500 then overdraws by 500.
    b.charge(10_000, 1500);
    expect(b.readyAt()).toBe(10_050);
  });

  it('refuses a budget that earns nothing', () => {
    expect(() => new StreamBudget(0, 0)).toThrow(RangeError);
  });
});
