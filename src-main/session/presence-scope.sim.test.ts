// Pointers scoped by view: a peer that said where it looks receives the pointers there and not the far ones, starts
// to as soon as it pans to them, and is told a pointer it stopped receiving is hidden; a peer that never said keeps
// receiving every pointer. Seeded simulated session.
import { describe, expect, it } from 'vitest';
import { NO_IMPAIRMENT } from '../net/impairment';
import { pointerInView, scopePresence } from './presence-scope';
import { GhostDomain } from '../net/ghost/ghost-source';
import { blankPresence, Presence, PRESENCE_REGISTRY } from './ghost-classes';
import type { SessionEvent } from './session-events';
import { makeSimSession } from './testing/sim-session';

const SEED = 7;

/** Moves of `peer`'s pointer among `events`, from index `from` on. */
function movesOf(events: readonly SessionEvent[], peer: number, from = 0): number {
  return events
    .slice(from)
    .filter((e) => e.type === 'pointer' && e.moved && e.pointer.peer === peer).length;
}

describe('pointers scoped by view', () => {
  it('a far pointer is not sent to a peer looking elsewhere, and is once it pans there', () => {
    const s = makeSimSession({ seed: SEED, conditions: { ...NO_IMPAIRMENT, delayMs: 5 } });
    const mover = s.addPeer('Mover');
    const viewer = s.addPeer('Viewer');
    const blind = s.addPeer('NoView');
    s.sim.runUntil(2000);
    const m = s.peers[mover];
    const v = s.peers[viewer];
    if (m === undefined || v === undefined) throw new Error('no peers');
    const moverId = m.peerId ?? -1;
    expect(moverId, `seed ${SEED}`).toBeGreaterThan(0);
    v.viewport(0, 0, 1000, 800);
    // The mover circles far from the viewer's view (10,000 units away) at 60 Hz.
    const start = s.sim.now;
    s.sim.every(1000 / 60, (now) => {
      const a = (now - start) / 200;
      m.pointer(Math.round(10_000 + 50 * Math.cos(a)), Math.round(10_000 + 50 * Math.sin(a)));
    });
    s.sim.runUntil(start + 500);
    const viewerEvents = s.peerEvents[viewer] ?? [];
    const blindEvents = s.peerEvents[blind] ?? [];
    const far = viewerEvents.length;
    const blindFar = blindEvents.length;
    s.sim.runUntil(start + 2500);
    expect(movesOf(viewerEvents, moverId, far), `seed ${SEED}: far, viewer`).toBe(0);
    // A peer that never said where it looks receives every pointer, as before views scoped them.
    expect(movesOf(blindEvents, moverId, blindFar), `seed ${SEED}: no view`).toBeGreaterThan(30);
    // The viewer pans to the mover: its pointer comes.
    v.viewport(9_500, 9_500, 1000, 800);
    const panned = viewerEvents.length;
    s.sim.runUntil(s.sim.now + 2000);
    expect(movesOf(viewerEvents, moverId, panned), `seed ${SEED}: after pan`).toBeGreaterThan(30);
    // And back away: it is told the pointer is hidden, and receives no more of it.
    v.viewport(0, 0, 1000, 800);
    const back = viewerEvents.length;
    s.sim.runUntil(s.sim.now + 500);
    const hidden = viewerEvents
      .slice(back)
      .some((e) => e.type === 'pointer' && e.pointer.peer === moverId && !e.pointer.visible);
    expect(hidden, `seed ${SEED}: hidden on leaving the view`).toBe(true);
    const gone = viewerEvents.length;
    s.sim.runUntil(s.sim.now + 2000);
    expect(movesOf(viewerEvents, moverId, gone), `seed ${SEED}: away again`).toBe(0);
  });

  it('keeps a margin around the view, and every pointer without one', () => {
    const view = { x: 0, y: 0, w: 1000, h: 800 };
    expect(pointerInView(view, 500, 400)).toBe(true);
    expect(pointerInView(view, 1200, 400)).toBe(true); // within a quarter of the larger side
    expect(pointerInView(view, 1300, 400)).toBe(false);
    expect(pointerInView(view, -240, -240)).toBe(true);
    expect(pointerInView(undefined, 1e6, -1e6)).toBe(true);
    // A view zoomed far in still keeps the least margin.
    expect(pointerInView({ x: 0, y: 0, w: 10, h: 10 }, 105, 5)).toBe(true);
  });

  it('never puts a peer in its own scope', () => {
    const domain = new GhostDomain(PRESENCE_REGISTRY);
    const me = domain.add(Presence, blankPresence(1));
    const other = domain.add(Presence, blankPresence(2));
    const added: unknown[] = [];
    const sink = { add: (src: unknown) => added.push(src) };
    scopePresence(sink, undefined, me, me);
    scopePresence(sink, undefined, me, other);
    expect(added).toEqual([other]);
  });
});
