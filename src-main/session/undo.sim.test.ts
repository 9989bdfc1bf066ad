import { describe, expect, it } from 'vitest';
import type { BoardObject, ObjectId } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { NO_IMPAIRMENT } from '../net/impairment';
import { isRefusal } from './board';
import type { Controls } from './controls';
import { hostControls, peerControls } from './controls';
import type { SimSession } from './testing/sim-session';
import { makeSimSession } from './testing/sim-session';

// Per-user undo and redo over the simulated network: each user takes back only their own steps, as ordinary
// operations the host orders, so every board converges; an undo never brings back what someone else deleted,
// and the host's restore is held to who deleted what.

const lossy = { ...NO_IMPAIRMENT, loss: 0.1, delayMs: 40, jitterMs: 30, reorder: 0.1 };

/** Lets promise continuations run (a create's answer, an undo waiting for it). */
const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

function users(s: SimSession): Controls[] {
  return [hostControls(s.host), ...s.peers.map((p) => peerControls(p))];
}

/** Runs the simulation in small slices, letting continuations run between them. */
async function run(s: SimSession, until: number): Promise<void> {
  while (s.sim.now < until) {
    s.sim.runUntil(Math.min(until, s.sim.now + 20));
    await flush();
  }
}

function must<T>(v: T | undefined): T {
  if (v === undefined) throw new Error('missing');
  return v;
}

function hashes(s: SimSession): string[] {
  return [s.host.board.hash(), ...s.peers.map((p) => p.board.hash())];
}

describe('per-user undo over the session', () => {
  it('a peer undoes and redoes its create, drag and delete; every board follows', async () => {
    const s = makeSimSession({ seed: 19_001, conditions: lossy });
    s.addPeer('Ana');
    s.addPeer('Ben');
    await run(s, 2000);
    const [, ana] = users(s);
    const a = must(ana);
    const id = await (async () => {
      const made = a.create(s.sim.now, newRect({ x: 10, y: 20 }));
      await run(s, s.sim.now + 1000);
      const r = await made;
      if (typeof r !== 'number') throw new Error(r.refused);
      return r;
    })();
    a.grab(s.sim.now, id);
    for (let k = 1; k <= 5; k++) a.drag(s.sim.now, id, 10 + k * 10, 20);
    a.drop(s.sim.now, id, 60, 20);
    await run(s, s.sim.now + 1000);
    a.remove(s.sim.now, id);
    await run(s, s.sim.now + 1000);
    expect(s.host.board.get(id)).toBeUndefined();

    const seen = (): (BoardObject | undefined)[] => [
      s.host.board.get(id),
      ...s.peers.map((p) => p.board.get(id)),
    ];
    expect(await a.undo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 1500);
    for (const o of seen()) expect(o).toMatchObject({ id, x: 60, y: 20 });
    // The drag is one step: one undo takes it back to where it started.
    expect(await a.undo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 1500);
    for (const o of seen()) expect(o).toMatchObject({ x: 10, y: 20 });
    expect(await a.undo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 1500);
    for (const o of seen()) expect(o).toBeUndefined();
    expect(await a.undo(s.sim.now)).toBe('nothing');
    expect(await a.redo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 1500);
    for (const o of seen()) expect(o).toMatchObject({ id, x: 10, y: 20 });
    expect(await a.redo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 1500);
    for (const o of seen()) expect(o).toMatchObject({ id, x: 60, y: 20 });
    expect(new Set(hashes(s)).size).toBe(1);
    expect(s.host.counters.restoresRefused).toBe(0);
  });

  it('typing into a note, its box growing as it goes, is one step; anything else starts the next', async () => {
    const s = makeSimSession({ seed: 19_004 });
    const [host] = users(s);
    if (host === undefined) throw new Error('missing');
    const made = await host.create(0, newRect({ kind: 'note', h: 40 }));
    if (typeof made !== 'number') throw new Error(made.refused);
    const id = made;
    host.text(0, id, 0, 0, 'quick');
    host.edit(0, id, { h: 60 });
    host.text(0, id, 5, 0, ' brown');
    host.edit(0, id, { h: 80 });
    host.text(0, id, 11, 0, ' fox');
    expect(s.host.board.get(id)).toMatchObject({ text: 'quick brown fox', h: 80 });
    host.edit(0, id, { x: 50 });
    host.text(0, id, 0, 0, '!');
    expect(await host.undo(0)).toBe('done');
    expect(s.host.board.get(id)).toMatchObject({ text: 'quick brown fox', x: 50 });
    expect(await host.undo(0)).toBe('done');
    expect(s.host.board.get(id)).toMatchObject({ text: 'quick brown fox', x: 0 });
    expect(await host.undo(0)).toBe('done');
    expect(s.host.board.get(id)).toMatchObject({ text: '', h: 40 });
    expect(await host.redo(0)).toBe('done');
    expect(s.host.board.get(id)).toMatchObject({ text: 'quick brown fox', h: 80 });
  });

  it('a peer’s undo takes back its own typing and keeps what another user typed into the same text since', async () => {
    const s = makeSimSession({ seed: 19_006, conditions: lossy });
    s.addPeer('Ana');
    s.addPeer('Ben');
    await run(s, 2000);
    const [, ana, ben] = users(s);
    const [a, b] = [must(ana), must(ben)];
    const made = a.create(s.sim.now, newRect({ kind: 'note', text: 'Plan' }));
    await run(s, s.sim.now + 1000);
    const id = await made;
    if (typeof id !== 'number') throw new Error(id.refused);
    a.text(s.sim.now, id, 4, 0, ' for Monday');
    await run(s, s.sim.now + 1500);
    b.text(s.sim.now, id, 0, 0, 'Our ');
    await run(s, s.sim.now + 1500);
    expect(s.host.board.get(id)?.text).toBe('Our Plan for Monday');
    expect(await a.undo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 1500);
    expect(s.host.board.get(id)?.text).toBe('Our Plan');
    expect(await a.redo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 1500);
    expect(s.host.board.get(id)?.text).toBe('Our Plan for Monday');
    expect(new Set(hashes(s)).size).toBe(1);
  });

  it('a refused grab does not hold the drag open: the next two drags are two steps', async () => {
    const s = makeSimSession({ seed: 19_005 });
    s.addPeer('Ana');
    await run(s, 1000);
    const [host, ana] = users(s);
    if (host === undefined || ana === undefined) throw new Error('missing');
    const [x, y] = [await host.create(0, newRect()), await host.create(0, newRect({ x: 300 }))];
    if (typeof x !== 'number' || typeof y !== 'number') throw new Error('refused');
    host.grab(s.sim.now, x);
    await run(s, s.sim.now + 500);
    ana.grab(s.sim.now, x);
    await run(s, s.sim.now + 500);
    for (const to of [400, 500]) {
      ana.grab(s.sim.now, y);
      ana.drop(s.sim.now, y, to, 0);
      await run(s, s.sim.now + 500);
    }
    expect(await ana.undo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 500);
    expect(s.host.board.get(y)).toMatchObject({ x: 400 });
  });

  it('an undo never brings back an object another user deleted', async () => {
    const s = makeSimSession({ seed: 19_002, conditions: lossy });
    s.addPeer('Ana');
    s.addPeer('Ben');
    await run(s, 2000);
    const [host, ana, ben] = users(s);
    if (host === undefined || ana === undefined || ben === undefined) throw new Error('missing');
    const made = await host.create(s.sim.now, newRect());
    if (typeof made !== 'number') throw new Error(made.refused);
    const id: ObjectId = made;
    host.edit(s.sim.now, id, { x: 300, fill: 0xff0000 });
    await run(s, s.sim.now + 1000);
    ana.edit(s.sim.now, id, { y: 80 });
    await run(s, s.sim.now + 1000);
    ben.remove(s.sim.now, id);
    await run(s, s.sim.now + 1000);
    // The host's edit and create, and Ana's edit, all target what Ben deleted: nothing to take back.
    expect(await host.undo(s.sim.now)).toBe('nothing');
    expect(await ana.undo(s.sim.now)).toBe('nothing');
    await run(s, s.sim.now + 1500);
    expect(s.host.board.get(id)).toBeUndefined();
    expect(new Set(hashes(s)).size).toBe(1);
    // Ben's own undo brings it back, with everyone's edits in it.
    expect(await ben.undo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 1500);
    for (const b of [s.host.board, ...s.peers.map((p) => p.board)])
      expect(b.get(id)).toMatchObject({ x: 300, y: 80, fill: 0xff0000 });
  });

  it('a restack is one step: undo puts it back on every board, redo restacks again; one restacked by another since is left alone', async () => {
    const s = makeSimSession({ seed: 19_006, conditions: lossy });
    s.addPeer('Ana');
    s.addPeer('Ben');
    await run(s, 2000);
    const [host, ana, ben] = users(s);
    if (host === undefined || ana === undefined || ben === undefined) throw new Error('missing');
    const [a, b, c] = [0, 1, 2].map((i) => s.host.create(newRect({ x: i * 50 }), s.sim.now));
    if (a === undefined || b === undefined || c === undefined || isRefusal(a) || isRefusal(b))
      throw new Error('refused');
    if (isRefusal(c)) throw new Error(c.refused);
    await run(s, s.sim.now + 1000);
    const zs = (id: ObjectId): (number | undefined)[] =>
      [s.host.board, ...s.peers.map((p) => p.board)].map((board) => board.get(id)?.z);
    // Ana brings a to the front and, before it lands, takes it back at once.
    ana.restack(s.sim.now, a.id, true);
    expect(await ana.undo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 1500);
    expect(zs(a.id)).toEqual([a.z, a.z, a.z]);
    expect(await ana.redo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 1500);
    const top = s.host.board.get(a.id)?.z ?? 0;
    expect(top).toBeGreaterThan(c.z);
    expect(zs(a.id)).toEqual([top, top, top]);
    expect(await ana.undo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 1500);
    expect(zs(a.id)).toEqual([a.z, a.z, a.z]);
    // Ana sends c to the back; Ben then brings c to the front: Ana's restack is not hers to take back.
    ana.restack(s.sim.now, c.id, false);
    await run(s, s.sim.now + 1500);
    ben.restack(s.sim.now, c.id, true);
    await run(s, s.sim.now + 1500);
    const bens = s.host.board.get(c.id)?.z;
    expect(await ana.undo(s.sim.now)).toBe('nothing');
    await run(s, s.sim.now + 1500);
    expect(zs(c.id)).toEqual([bens, bens, bens]);
    // Ben's undo puts c where Ana's restack had left it.
    expect(await ben.undo(s.sim.now)).toBe('done');
    await run(s, s.sim.now + 1500);
    expect(zs(c.id)).toEqual([-1, -1, -1]);
    expect(new Set(hashes(s)).size).toBe(1);
    expect(s.host.counters.exactRestacksRefused).toBe(0);
  });

  it("a selection's restacks under one step are one undo step, the order among them kept", async () => {
    const s = makeSimSession({ seed: 19_008 });
    const [host] = users(s);
    if (host === undefined) throw new Error('missing');
    const ids: ObjectId[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await host.create(0, newRect({ x: i * 10 }));
      if (typeof r !== 'number') throw new Error(r.refused);
      ids.push(r);
    }
    const order = (): ObjectId[] =>
      s.host.board
        .all()
        .sort((p, q) => p.z - q.z)
        .map((o) => o.id);
    const [a, b, c, d] = ids as [ObjectId, ObjectId, ObjectId, ObjectId];
    // b and c to the back, top to bottom (as the selection sends them), then a alone to the front.
    host.restack(0, c, false, 7);
    host.restack(0, b, false, 7);
    host.restack(0, a, true);
    expect(order()).toEqual([b, c, d, a]);
    expect(await host.undo(0)).toBe('done');
    expect(order()).toEqual([b, c, a, d]);
    expect(await host.undo(0)).toBe('done');
    expect(order()).toEqual([a, b, c, d]);
    expect(await host.redo(0)).toBe('done');
    expect(order()).toEqual([b, c, a, d]);
    expect(await host.redo(0)).toBe('done');
    expect(order()).toEqual([b, c, d, a]);
  });

  it('the restack RPC with an exact z: one another object has is refused and counted; a free one is taken', () => {
    const s = makeSimSession({ seed: 19_007 });
    s.addPeer('Ana');
    const raw = s.addRaw();
    s.sim.runUntil(1000);
    raw.rpc.send(raw.proto.hello, { name: 'Mal', viewer: false });
    s.sim.runUntil(1500);
    const [a, b] = [0, 1].map((i) => s.host.create(newRect({ x: i * 200 }), s.sim.now));
    if (a === undefined || b === undefined || isRefusal(a) || isRefusal(b))
      throw new Error('refused');
    s.sim.runUntil(2000);
    const before = s.host.board.hash();
    raw.rpc.send(raw.proto.restack, { id: a.id, front: true, z: b.z });
    s.sim.runUntil(2500);
    expect(s.host.board.hash()).toBe(before);
    expect(s.host.counters.exactRestacksRefused).toBe(1);
    expect(raw.refusals).toEqual([
      { cmd: 'restack', reason: `object ${b.id} is at that place in the stack now` },
    ]);
    raw.rpc.send(raw.proto.restack, { id: a.id, front: true, z: -40 });
    s.sim.runUntil(3000);
    expect(s.host.board.get(a.id)?.z).toBe(-40);
    expect(s.peers[0]?.board.get(a.id)?.z).toBe(-40);
    expect(s.host.counters.exactRestacksRefused).toBe(1);
    // The top stays above every z: a create after a restack past it still lands on top.
    raw.rpc.send(raw.proto.restack, { id: a.id, front: false, z: 1000 });
    s.sim.runUntil(3500);
    const made = s.host.create(newRect(), s.sim.now);
    if (isRefusal(made)) throw new Error(made.refused);
    expect(made.z).toBe(1001);
  });

  it('the restore RPC: someone else’s, a never-issued or a live id is refused and counted; one’s own comes back as deleted', () => {
    const s = makeSimSession({ seed: 19_003 });
    s.addPeer('Ana');
    const raw = s.addRaw();
    s.sim.runUntil(1000);
    raw.rpc.send(raw.proto.hello, { name: 'Mal', viewer: false });
    s.sim.runUntil(1500);
    const made = [0, 1, 2].map((i) => s.host.create(newRect({ x: i * 200 }), s.sim.now));
    const [mine, theirs, live] = made.map((o) => ('id' in o ? o.id : 0));
    if (mine === undefined || theirs === undefined || live === undefined)
      throw new Error('missing');
    s.host.edit(mine, { fill: 0x123456 }, s.sim.now);
    s.host.remove(theirs, s.sim.now);
    s.sim.runUntil(2000);
    // Mal deletes one of its own choosing: that one it may restore.
    raw.rpc.send(raw.proto.remove, { id: mine });
    s.sim.runUntil(2500);
    const before = s.host.board.hash();
    for (const id of [theirs, 4242, live]) raw.rpc.send(raw.proto.restore, { id });
    s.sim.runUntil(3500);
    expect(s.host.board.hash()).toBe(before);
    expect(s.host.counters.restoresRefused).toBe(3);
    expect(raw.refusals).toEqual(
      [theirs, 4242, live].map((id) => ({
        cmd: 'restore',
        reason: `object ${id} is not yours to restore`,
      })),
    );
    raw.rpc.send(raw.proto.restore, { id: mine });
    raw.rpc.send(raw.proto.restore, { id: mine });
    s.sim.runUntil(4500);
    // As the host had it, at its own z, unlocked.
    expect(s.host.board.get(mine)).toMatchObject({ x: 0, fill: 0x123456, z: 1, lockedBy: null });
    // Once back it is no longer a deleted object: a second restore is refused.
    expect(s.host.counters.restoresRefused).toBe(4);
    expect(s.peers[0]?.board.hash()).toBe(s.host.board.hash());
  });
});

/**
 * Users edit, drag, type, restack, delete, undo and redo at once under loss and reordering; once the network settles,
 * every board hashes like the host's. Each seed prints on failure.
 */
async function undoStorm(seed: number, peers: number): Promise<void> {
  const s = makeSimSession({ seed, conditions: lossy });
  for (let i = 0; i < peers; i++) s.addPeer(`P${i}`);
  await run(s, 2000);
  const us = users(s);
  const rng = s.rng;
  const done = { undo: 0, redo: 0 };
  // Undone restacks the host placed (an exact z), watched at the board core.
  let placed = 0;
  const apply = s.host.board.apply.bind(s.host.board);
  s.host.board.apply = (op) => {
    const r = apply(op);
    if (r.ok && op.type === 'restack' && typeof op.to === 'object') placed++;
    return r;
  };
  const count = (way: 'undo' | 'redo', r: Promise<string>): void =>
    void r.then((o) => {
      if (o === 'done') done[way]++;
    });
  for (let step = 0; step < 300; step++) {
    const u = rng.pick(us);
    const now = s.sim.now;
    const ids = [...u.board.all().map((o) => o.id)];
    const id = ids.length > 0 ? rng.pick(ids) : undefined;
    const r = rng.int(100);
    if (r < 25 || id === undefined)
      void u.create(now, newRect({ x: rng.range(-3000, 3000), y: rng.range(-3000, 3000) }));
    else if (r < 40) u.edit(now, id, { x: rng.range(-3000, 3000), fill: rng.int(0xffffff) });
    else if (r < 48) {
      u.grab(now, id);
      u.drag(now, id, 5, 5);
      u.drop(now, id, rng.range(-3000, 3000), rng.range(-3000, 3000));
    } else if (r < 56) u.text(now, id, rng.int(5), rng.int(2), 'ab');
    else if (r < 60) u.restack(now, id, rng.int(2) === 0);
    else if (r < 64) u.remove(now, id);
    else if (r < 66) u.group(() => ids.slice(0, 3).forEach((x) => u.remove(now, x)));
    else if (r < 84) count('undo', u.undo(now));
    else count('redo', u.redo(now));
    await run(s, now + rng.range(1, 60));
  }
  s.net.setDefaults(NO_IMPAIRMENT);
  await run(s, s.sim.now + 6000);
  const msg = `seed ${seed}, ${peers} peers`;
  expect(done.undo, msg).toBeGreaterThan(20);
  expect(done.redo, msg).toBeGreaterThan(5);
  expect(placed, msg).toBeGreaterThan(0);
  expect(s.host.board.size, msg).toBeGreaterThan(5);
  const all = hashes(s);
  for (const [i, h] of all.entries()) expect(h, `${msg}: board ${i}`).toBe(all[0]);
  // No undo of a restack ever puts two objects at one z.
  const zs = s.host.board.all().map((o) => o.z);
  expect(new Set(zs).size, msg).toBe(zs.length);
}

describe('undo storm: concurrent edits, undos and redos converge', () => {
  // Seeds whose storm includes an undone restack (0x0d2's stopped doing so when hosts' keepalives went to 250 ms:
  // the packets, so the draws, moved; it still converges).
  for (const seed of [0x0d0, 0x0d1, 0x0d6])
    it(`seed ${seed}: host and one peer`, () => undoStorm(seed, 1));
  for (const seed of [0x0d3, 0x0d4, 0x0d5])
    it(`seed ${seed}: host and two peers`, () => undoStorm(seed, 2));
});
