// A late joiner of a large board (issue 20, point 3) over a simulated 40 ms link with loss: the board arrives
// whole, and the join progress the session reports only rises, to the total the host announced.
import { describe, expect, it } from 'vitest';
import { NO_IMPAIRMENT } from '../net/impairment';
import { bigBoard } from './testing/big-board';
import type { SessionEvent } from './session-events';
import { makeSimSession } from './testing/sim-session';

const OBJECTS = 5000;

function lateJoin(seed: number): void {
  const msg = `seed ${seed}`;
  const board = bigBoard(OBJECTS);
  const s = makeSimSession({
    seed,
    board,
    conditions: { ...NO_IMPAIRMENT, delayMs: 40, jitterMs: 5, loss: 0.02 },
  });
  s.addPeer('Early');
  s.sim.runUntil(3000);
  // The late joiner comes while the board is in use: an early participant edits and deletes as it downloads.
  const late = s.addPeer('Late');
  const peer = s.peers[late];
  if (peer === undefined) throw new Error('no peer');
  s.sim.after(500, () => {
    s.peers[0]?.edit(1, { x: 7 });
    s.peers[0]?.remove(3);
  });
  s.sim.runUntil(30_000);
  expect(peer.board.hash(), msg).toBe(s.host.board.hash());
  const progress = (s.peerEvents[late] ?? []).filter(
    (e): e is Extract<SessionEvent, { type: 'progress' }> => e.type === 'progress',
  );
  expect(progress.length, msg).toBeGreaterThan(1);
  for (const p of progress.slice(0, -1)) expect(p.total, msg).toBe(OBJECTS);
  for (let i = 1; i < progress.length; i++)
    expect(progress[i]?.received, msg).toBeGreaterThanOrEqual(progress[i - 1]?.received ?? 0);
  // Whole: every object, or all but the one deleted meanwhile when it went before it was sent (the download then
  // ends at what came, see below).
  const last = progress.at(-1);
  expect(last?.received, msg).toBe(last?.total);
  expect(last?.received ?? 0, msg).toBeGreaterThanOrEqual(OBJECTS - 1);
}

describe('a late joiner of a 5,000-object board', () => {
  for (const seed of [0x2001, 0x2002]) it(`seed ${seed}: gets it whole`, () => lateJoin(seed));

  it('objects deleted before they were sent end the download at what came, not short of the count', () => {
    const seed = 0x2003;
    const msg = `seed ${seed}`;
    const s = makeSimSession({
      seed,
      board: bigBoard(OBJECTS),
      conditions: { ...NO_IMPAIRMENT, delayMs: 40, loss: 0.02 },
    });
    const late = s.addPeer('Late');
    const peer = s.peers[late];
    if (peer === undefined) throw new Error('no peer');
    // Just after the welcome the host deletes the last hundred (most have not been sent yet).
    s.sim.runUntil(400);
    expect(peer.joinProgress.total, msg).toBe(OBJECTS);
    for (let id = OBJECTS - 99; id <= OBJECTS; id++) s.host.remove(id, s.sim.now);
    s.sim.runUntil(30_000);
    expect(peer.board.hash(), msg).toBe(s.host.board.hash());
    const last = (s.peerEvents[late] ?? []).filter((e) => e.type === 'progress').at(-1);
    // The count the welcome gave could not be reached: the download ended at what came.
    expect(last, msg).toEqual({
      type: 'progress',
      received: last?.received,
      total: last?.received,
    });
    expect(last?.received ?? OBJECTS, msg).toBeLessThan(OBJECTS);
  });
});
