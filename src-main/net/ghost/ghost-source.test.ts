import { describe, expect, it } from 'vitest';
import { blankShape, SHAPE, testRegistry } from '../testing/ghost-classes';
import type { GhostObserver } from './ghost-source';
import { GhostDomain } from './ghost-source';

const POS = SHAPE.maskOf('position');
const SIZE = SHAPE.maskOf('size');

/** An observer that records every change it is told of and holds what it was told (like a queued record). */
class FakeObserver implements GhostObserver {
  observerIndex = -1;
  told: number[] = [];
  private mask = 0;

  onDirty(mask: number): number {
    this.told.push(mask);
    this.mask |= mask;
    return this.mask;
  }

  onDestroyed(): void {}

  /** Sent: holds nothing any more. */
  sent(): void {
    this.mask = 0;
  }
}

function source(): ReturnType<GhostDomain['add']> {
  return new GhostDomain(testRegistry()).add(SHAPE, blankShape());
}

describe('ghost source change fan-out', () => {
  it('skips an observer for the groups it holds until it lets go of them', () => {
    const s = source();
    const [a, b] = [new FakeObserver(), new FakeObserver()];
    s.attach(a);
    s.attach(b);
    s.markDirty(POS);
    s.markDirty(POS); // both hold POS: nobody is told again
    expect(a.told).toEqual([POS]);
    s.markDirty(POS | SIZE); // SIZE is new to both
    expect(a.told).toEqual([POS, POS | SIZE]);
    a.sent();
    s.unhold(a);
    s.markDirty(POS);
    expect(a.told).toEqual([POS, POS | SIZE, POS]);
    expect(b.told).toEqual([POS, POS | SIZE]);
  });

  it('keeps each observer’s held groups with it when another observer leaves', () => {
    const s = source();
    const observers = [new FakeObserver(), new FakeObserver(), new FakeObserver()];
    for (const l of observers) s.attach(l);
    const [a, b, c] = observers as [FakeObserver, FakeObserver, FakeObserver];
    s.markDirty(POS);
    c.sent();
    s.unhold(c);
    s.detach(a); // c moves into a's place and must keep its own entry, not a's
    s.markDirty(POS);
    expect(c.told).toEqual([POS, POS]);
    expect(b.told).toEqual([POS]);
    expect(a.told).toEqual([POS]);
    s.unhold(a); // detached: no effect on whoever took its place
    s.markDirty(POS);
    expect(b.told).toEqual([POS]);
    expect(s.observerCount).toBe(2);
  });

  it('grows past its first slots', () => {
    const s = source();
    const observers = Array.from({ length: 40 }, () => new FakeObserver());
    for (const l of observers) s.attach(l);
    s.markDirty(POS);
    s.markDirty(POS);
    expect(observers.every((l) => l.told.length === 1)).toBe(true);
  });
});
