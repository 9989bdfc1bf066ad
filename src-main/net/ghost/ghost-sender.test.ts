// The coordinator alone: the demand it reports, when it wakes the scheduler, the next time it wants to be asked, and
// what dispose() lets go of. The jobs it joins have their own tests.
import { describe, expect, it } from 'vitest';
import { BitWriter } from '../bitstream';
import { blankShape, POINTER, SHAPE, testRegistry } from '../testing/ghost-classes';
import { GhostSender, TAIL_REPEAT_MS } from './ghost-sender';
import { GhostDomain } from './ghost-source';

const POSITION = POINTER.maskOf('position');

function sender(scopeIntervalMs?: number): {
  sender: GhostSender;
  domain: GhostDomain;
  wakes: () => number;
} {
  const domain = new GhostDomain(testRegistry());
  const s = new GhostSender({
    domain,
    scope: () => undefined,
    ...(scopeIntervalMs === undefined ? {} : { scopeIntervalMs }),
  });
  let wakes = 0;
  s.wake = () => {
    wakes++;
  };
  return { sender: s, domain, wakes: () => wakes };
}

/** Writes and delivers everything waiting at `now`. */
function flush(s: GhostSender, now: number): void {
  const rec = s.write(now, new BitWriter(), 100_000);
  if (rec !== undefined) s.notify(rec, true);
}

describe('GhostSender', () => {
  it('wakes the scheduler when its demand rises, not again while it stays', () => {
    const { sender: s, domain, wakes } = sender();
    const p = domain.add(POINTER, { x: 0, y: 0, tool: 0 }, { always: true });
    expect(wakes()).toBe(1); // the always-in-scope set changed: rescope
    expect(s.demand(0)).toBe('normal'); // the create
    flush(s, 0);
    expect(s.demand(1)).toBe('none');
    const before = wakes();
    p.markDirty(POINTER.maskOf('tool'));
    expect(wakes()).toBe(before + 1); // none → normal
    p.markDirty(POSITION);
    expect(wakes()).toBe(before + 2); // normal → urgent
    p.markDirty(POSITION);
    expect(wakes()).toBe(before + 2);
    expect(s.demand(1)).toBe('urgent');
  });

  it('asks to be polled at the next scope pass or tail repeat, whichever is first', () => {
    const { sender: s, domain } = sender(500);
    const p = domain.add(POINTER, { x: 0, y: 0, tool: 0 }, { always: true });
    s.demand(0);
    flush(s, 0);
    expect(s.nextCheckAt()).toBe(500);
    p.markDirty(POSITION);
    const w = new BitWriter();
    s.write(10, w, 100_000); // not notified yet
    expect(s.nextCheckAt()).toBe(10 + TAIL_REPEAT_MS);
  });

  it('lets every source go on dispose(), and wants nothing after', () => {
    const { sender: s, domain } = sender();
    const shape = domain.add(SHAPE, { ...blankShape(), key: 1 }, { always: true });
    s.demand(0);
    expect(shape.observerCount).toBe(1);
    s.dispose();
    expect(shape.observerCount).toBe(0);
    expect(s.recordOf(shape)).toBeUndefined();
    expect(s.demand(1)).toBe('none');
  });
});
