// A board object created while peers are joined reaches each of them without a scope pass over the whole board
// per create: it is admitted into each peer's board scope, and the periodic passes are spaced by board size.
// Seeded simulated session.
import { describe, expect, it } from 'vitest';
import { newRect } from '../../shared/testing/rect';
import { NO_IMPAIRMENT } from '../net/impairment';
import { makeSimSession } from './testing/sim-session';

const SEED = 11;

describe('board objects admitted to scope', () => {
  it('a trickle of creates reaches every peer, with far fewer board scope passes than creates', () => {
    const s = makeSimSession({ seed: SEED, conditions: { ...NO_IMPAIRMENT, delayMs: 5 } });
    const maker = s.addPeer('Maker');
    const watcher = s.addPeer('Watcher');
    s.sim.runUntil(1000);
    const m = s.peers[maker];
    const w = s.peers[watcher];
    if (m === undefined || w === undefined) throw new Error('no peers');
    // A board of 200 objects first: a pass over it is 200 visits.
    for (let i = 0; i < 200; i++) m.create(newRect({ x: 10 * i, y: 0 }));
    s.sim.runUntil(3000);
    expect(w.board.all().length, `seed ${SEED}`).toBe(200);
    const passes = (): number =>
      s.host
        .peerConnections()
        .reduce((n, c) => n + (c.stack.board.stats().sent?.scopePasses ?? 0), 0);
    const before = passes();
    // Then one create every 20 ms for a second.
    const start = s.sim.now;
    let made = 0;
    s.sim.every(
      20,
      () => {
        if (made < 50) m.create(newRect({ x: 10 * made, y: 500 }));
        made++;
      },
      start,
    );
    s.sim.runUntil(start + 1500);
    expect(w.board.all().length, `seed ${SEED}`).toBe(250);
    // Two peers: a rescope per create took 120 passes here; the paced ones (one per 250 ms each) far fewer.
    expect(passes() - before, `seed ${SEED}`).toBeLessThan(30);
  });
});
