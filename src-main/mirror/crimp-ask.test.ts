import { describe, expect, it } from 'vitest';
import { askCopies, askTargets } from './crimp-ask';

describe('askTargets', () => {
  const candidates = [
    { id: 3, holds: false, distanceMs: 5 },
    { id: 1, holds: true, distanceMs: 40 },
    { id: 2, holds: true, distanceMs: 20 },
    { id: 0, holds: true, distanceMs: 60 },
  ];

  it('asks the origin first, then certain holders nearest first, then the rest', () => {
    expect(askTargets(candidates, 0, 0, 2)).toEqual([0, 2]);
    expect(askTargets(candidates, 0, 0, 4)).toEqual([0, 2, 1, 3]);
  });

  it('starts each later round one further down, so a re-ask goes to another holder first', () => {
    expect(askTargets(candidates, 0, 1, 2)).toEqual([2, 1]);
    expect(askTargets(candidates, 0, 3, 2)).toEqual([3, 0]);
  });

  it('asks nobody when nobody else is live', () => {
    expect(askTargets([], 0, 0, 2)).toEqual([]);
  });
});

describe('askCopies', () => {
  it('sends one copy on a clean network and more as loss grows, never past the cap', () => {
    expect(askCopies(0, 2, 0.02, 3)).toBe(1);
    expect(askCopies(0.05, 2, 0.02, 3)).toBe(1);
    expect(askCopies(0.2, 2, 0.02, 3)).toBe(3);
    expect(askCopies(0.9, 2, 0.02, 3)).toBe(3);
    let last = 1;
    for (let p = 0; p <= 1; p += 0.01) {
      const k = askCopies(p, 2, 0.02, 3);
      expect(k).toBeGreaterThanOrEqual(last);
      last = k;
    }
  });

  it('needs more copies with one target than with two', () => {
    expect(askCopies(0.1, 1, 0.02, 5)).toBeGreaterThan(askCopies(0.1, 2, 0.02, 5));
  });
});
