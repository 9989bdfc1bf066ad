import { describe, expect, it } from 'vitest';
import type { ObjectId } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { NO_IMPAIRMENT } from '../net/impairment';
import type { Controls } from './controls';
import { hostControls, peerControls } from './controls';
import type { SessionEvent } from './session-events';
import type { SimSession } from './testing/sim-session';
import { makeSimSession } from './testing/sim-session';

// Locking an object in place (its pinned field) over the simulated network: the host refuses every change of a
// pinned object but its unlock, whoever asks, with a reason; every board shows the lock; lock and unlock are
// undoable; and a paste's creates (one step number) are one undo step.

const lossy = { ...NO_IMPAIRMENT, loss: 0.1, delayMs: 40, jitterMs: 30, reorder: 0.1 };

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

async function run(s: SimSession, until: number): Promise<void> {
  while (s.sim.now < until) {
    s.sim.runUntil(Math.min(until, s.sim.now + 20));
    await flush();
  }
}

function users(s: SimSession): Controls[] {
  return [hostControls(s.host), ...s.peers.map((p) => peerControls(p))];
}

function three(s: SimSession): [Controls, Controls, Controls] {
  const [host, ana, ben] = users(s);
  if (host === undefined || ana === undefined || ben === undefined) throw new Error('missing');
  return [host, ana, ben];
}

async function made(s: SimSession, r: Promise<ObjectId | { refused: string }>): Promise<ObjectId> {
  await run(s, s.sim.now + 1000);
  const id = await r;
  if (typeof id !== 'number') throw new Error(id.refused);
  return id;
}

function refusals(c: Controls): string[] {
  const out: string[] = [];
  c.on((e: SessionEvent) => {
    if (e.type === 'refused') out.push(`${e.cmd}: ${e.reason}`);
  });
  return out;
}

function pinnedEverywhere(s: SimSession, id: ObjectId): (number | undefined)[] {
  return [s.host.board.get(id), ...s.peers.map((p) => p.board.get(id))].map((o) => o?.pinned);
}

describe('locking an object in place', () => {
  it('the host refuses every change of a locked object but its unlock, from anyone, with a reason', async () => {
    const seed = 31_001;
    const msg = `seed ${seed}`;
    const s = makeSimSession({ seed, conditions: lossy });
    s.addPeer('Ana');
    s.addPeer('Ben');
    await run(s, 2000);
    const [host, ana, ben] = three(s);
    const id = await made(s, ana.create(s.sim.now, newRect({ kind: 'note', x: 10, y: 20 })));
    ana.pin(s.sim.now, id, true);
    await run(s, s.sim.now + 1500);
    expect(pinnedEverywhere(s, id), msg).toEqual([1, 1, 1]);
    const before = s.host.board.get(id);

    const benSaw = refusals(ben);
    const hostSaw = refusals(host);
    ben.edit(s.sim.now, id, { x: 500 });
    ben.edit(s.sim.now, id, { fill: 0xff0000 });
    ben.text(s.sim.now, id, 0, 0, 'typed');
    ben.restack(s.sim.now, id, true);
    ben.grab(s.sim.now, id);
    ben.remove(s.sim.now, id);
    host.edit(s.sim.now, id, { w: 5 });
    host.remove(s.sim.now, id);
    await run(s, s.sim.now + 2000);
    const locked = 'it is locked: unlock it first';
    expect(benSaw, msg).toEqual(
      ['edit', 'edit', 'text', 'restack', 'grab', 'delete'].map((c) => `${c}: ${locked}`),
    );
    expect(hostSaw, msg).toEqual([`edit: ${locked}`, `delete: ${locked}`]);
    expect(s.host.board.get(id), msg).toEqual(before);
    expect(new Set([s.host.board.hash(), ...s.peers.map((p) => p.board.hash())]).size, msg).toBe(1);

    // Anyone may unlock it; then it moves again.
    ben.pin(s.sim.now, id, false);
    ben.edit(s.sim.now, id, { x: 500 });
    await run(s, s.sim.now + 1500);
    expect(pinnedEverywhere(s, id), msg).toEqual([0, 0, 0]);
    expect(
      s.peers.map((p) => p.board.get(id)?.x),
      msg,
    ).toEqual([500, 500]);
  });

  it('is refused while someone else holds the object', async () => {
    const seed = 31_002;
    const msg = `seed ${seed}`;
    const s = makeSimSession({ seed });
    s.addPeer('Ana');
    s.addPeer('Ben');
    await run(s, 1500);
    const [, ana, ben] = three(s);
    const id = await made(s, ana.create(s.sim.now, newRect()));
    const anaSaw = refusals(ana);
    ben.grab(s.sim.now, id);
    await run(s, s.sim.now + 500);
    ana.pin(s.sim.now, id, true);
    await run(s, s.sim.now + 500);
    expect(anaSaw, msg).toEqual(['pin: held by Ben']);
    expect(s.host.board.get(id)?.pinned, msg).toBe(0);
  });

  it('a lock is one undo step; an undo passes over edits of an object someone has locked since', async () => {
    const seed = 31_003;
    const msg = `seed ${seed}`;
    const s = makeSimSession({ seed, conditions: lossy });
    s.addPeer('Ana');
    s.addPeer('Ben');
    await run(s, 2000);
    const [, ana, ben] = three(s);
    const id = await made(s, ana.create(s.sim.now, newRect()));
    const anaSaw = refusals(ana);
    ana.pin(s.sim.now, id, true);
    await run(s, s.sim.now + 1500);
    expect(await ana.undo(s.sim.now), msg).toBe('done');
    await run(s, s.sim.now + 1500);
    expect(pinnedEverywhere(s, id), msg).toEqual([0, 0, 0]);
    expect(await ana.redo(s.sim.now), msg).toBe('done');
    await run(s, s.sim.now + 1500);
    expect(pinnedEverywhere(s, id), msg).toEqual([1, 1, 1]);
    expect(await ana.undo(s.sim.now), msg).toBe('done');
    await run(s, s.sim.now + 1500);

    // Ana moves it, Ben locks it: Ana's undo leaves it where it is (and sends nothing the host would refuse).
    ana.edit(s.sim.now, id, { x: 300 });
    await run(s, s.sim.now + 1500);
    ben.pin(s.sim.now, id, true);
    await run(s, s.sim.now + 1500);
    expect(await ana.undo(s.sim.now), msg).toBe('nothing');
    await run(s, s.sim.now + 1000);
    expect(s.host.board.get(id), msg).toMatchObject({ x: 300, pinned: 1 });
    expect(anaSaw, msg).toEqual([]);
  });

  it('creates with one step number are one undo step (a paste); others are steps of their own', async () => {
    const seed = 31_004;
    const msg = `seed ${seed}`;
    const s = makeSimSession({ seed, conditions: lossy });
    s.addPeer('Ana');
    await run(s, 2000);
    const [, ana] = users(s);
    if (ana === undefined) throw new Error('missing');
    const single = await made(s, ana.create(s.sim.now, newRect({ x: -500 })));
    const pasted = createStep(ana, s.sim.now, 7, 3);
    const again = createStep(ana, s.sim.now, 8, 2);
    await run(s, s.sim.now + 1500);
    const first = await Promise.all(pasted);
    const second = await Promise.all(again);
    const ids = (rs: (ObjectId | { refused: string })[]): ObjectId[] =>
      rs.map((r) => (typeof r === 'number' ? r : -1));
    const on = (list: ObjectId[]): boolean[] => list.map((i) => s.host.board.get(i) !== undefined);
    expect(on([single, ...ids(first), ...ids(second)]), msg).toEqual(Array(6).fill(true));
    // In the order asked, so their stacking order is the pasted one.
    const zs = ids(first).map((i) => s.host.board.get(i)?.z ?? 0);
    expect(
      [...zs].sort((a, b) => a - b),
      msg,
    ).toEqual(zs);

    expect(await ana.undo(s.sim.now), msg).toBe('done');
    await run(s, s.sim.now + 1500);
    expect(on([single, ...ids(first), ...ids(second)]), msg).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(await ana.undo(s.sim.now), msg).toBe('done');
    await run(s, s.sim.now + 1500);
    expect(on([single, ...ids(first)]), msg).toEqual([true, false, false, false]);
    expect(await ana.redo(s.sim.now), msg).toBe('done');
    await run(s, s.sim.now + 1500);
    expect(on([single, ...ids(first)]), msg).toEqual([true, true, true, true]);
    expect(s.peers[0]?.board.hash(), msg).toBe(s.host.board.hash());
  });
});

/** `n` creates given one step number, one after another. */
function createStep(
  c: Controls,
  now: number,
  step: number,
  n: number,
): Promise<ObjectId | { refused: string }>[] {
  return Array.from({ length: n }, (_, i) => c.create(now, newRect({ x: i * 150, y: step }), step));
}
