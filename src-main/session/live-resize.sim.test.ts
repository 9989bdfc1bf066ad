import { describe, expect, it } from 'vitest';
import type { ObjectId, PeerId } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { NO_IMPAIRMENT } from '../net/impairment';
import type { Controls } from './controls';
import { hostControls, peerControls } from './controls';
import type { LiveGeometry } from './presence';
import type { PointerInfo, SessionEvent } from './session-events';
import type { SimSession } from './testing/sim-session';
import { makeSimSession } from './testing/sim-session';

// Live resize and rotate over the simulated network (issue 19, point 4): the holder's presence carries the held
// object's live place, size and rotation like a drag; the others see it while it goes on, the newest state wins
// under loss, and the release (an edit, then a drop) lands on every board as one undo step. Each seed prints on
// failure.

const lossy = { ...NO_IMPAIRMENT, loss: 0.15, delayMs: 40, jitterMs: 30, reorder: 0.1 };

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

async function run(s: SimSession, until: number): Promise<void> {
  while (s.sim.now < until) {
    s.sim.runUntil(Math.min(until, s.sim.now + 16));
    await flush();
  }
}

/** What `events` reported of `peer`'s live drag, in arrival order. */
function dragsOf(events: readonly SessionEvent[], peer: PeerId): PointerInfo['drag'][] {
  const out: PointerInfo['drag'][] = [];
  for (const e of events)
    if (e.type === 'pointer' && e.pointer.peer === peer) out.push(e.pointer.drag);
  return out;
}

const geometryOf = (d: PointerInfo['drag']): (LiveGeometry & { id: ObjectId }) | undefined =>
  d?.shape === undefined ? undefined : { id: d.id, x: d.x, y: d.y, ...d.shape };

async function created(s: SimSession, u: Controls): Promise<ObjectId> {
  const made = u.create(s.sim.now, newRect({ x: 100, y: 100, w: 100, h: 60 }));
  await run(s, s.sim.now + 1500);
  const r = await made;
  if (typeof r !== 'number') throw new Error(r.refused);
  return r;
}

/** A resize then a rotate, as the select tool reports them: ~60 updates a second. */
function gesture(steps: number): LiveGeometry[] {
  const out: LiveGeometry[] = [];
  for (let k = 1; k <= steps; k++)
    out.push({ x: 100 - k, y: 100 - k, w: 100 + 3 * k, h: 60 + 2 * k, rotation: 0 });
  const last = out.at(-1) ?? { x: 100, y: 100, w: 100, h: 60, rotation: 0 };
  for (let k = 1; k <= steps; k++) out.push({ ...last, x: last.x + k, rotation: 3600 - 15 * k });
  return out;
}

async function resizeAndRelease(seed: number): Promise<void> {
  const msg = `seed ${seed}`;
  const s = makeSimSession({ seed, conditions: lossy });
  s.addPeer('Ana');
  s.addPeer('Ben');
  await run(s, 2000);
  const anaPeer = s.peers[0];
  if (anaPeer === undefined) throw new Error('missing');
  const ana = peerControls(anaPeer);
  const anaId = anaPeer.peerId ?? -1;
  const id = await created(s, ana);
  const before = s.host.board.get(id);

  ana.grab(s.sim.now, id);
  const path = gesture(30);
  for (const g of path) {
    ana.reshape(s.sim.now, id, g);
    await run(s, s.sim.now + 16);
  }
  // Still held: the others have seen it live, and (current state, resent until delivered) end on its newest state.
  await run(s, s.sim.now + 1500);
  const final = path.at(-1);
  const benSaw = dragsOf(s.peerEvents[1] ?? [], anaId).map(geometryOf);
  const hostSaw = dragsOf(s.hostEvents, anaId).map(geometryOf);
  for (const saw of [benSaw, hostSaw]) {
    const shapes = saw.filter((g): g is LiveGeometry & { id: ObjectId } => g !== undefined);
    expect(shapes.length, msg).toBeGreaterThan(path.length / 3);
    // Never a value that was not sent, and the newest last.
    for (const g of shapes) expect(path, msg).toContainEqual(stripId(g));
    expect(shapes.at(-1), msg).toEqual({ id, ...final });
  }
  for (const b of [s.host.board, ...s.peers.map((p) => p.board)])
    expect(b.get(id), `${msg}: nothing lands before the release`).toMatchObject({
      x: before?.x,
      w: before?.w,
      lockedBy: anaId,
    });

  // The release: one edit with the whole geometry, then the drop where it put it.
  if (final === undefined) throw new Error('no gesture');
  ana.edit(s.sim.now, id, final);
  ana.drop(s.sim.now, id, final.x, final.y);
  await run(s, s.sim.now + 3000);
  for (const b of [s.host.board, ...s.peers.map((p) => p.board)])
    expect(b.get(id), msg).toMatchObject({ ...final, lockedBy: null });
  expect(dragsOf(s.peerEvents[1] ?? [], anaId).at(-1), msg).toBeNull();
  expect(s.host.counters.dragsNotHeld, msg).toBeLessThanOrEqual(1);

  // One undo step takes the whole resize and rotate back, on every board.
  expect(await ana.undo(s.sim.now), msg).toBe('done');
  await run(s, s.sim.now + 3000);
  for (const b of [s.host.board, ...s.peers.map((p) => p.board)])
    expect(b.get(id), msg).toMatchObject({ x: 100, y: 100, w: 100, h: 60, rotation: 0 });
  expect(await ana.redo(s.sim.now), msg).toBe('done');
  await run(s, s.sim.now + 3000);
  for (const b of [s.host.board, ...s.peers.map((p) => p.board)])
    expect(b.get(id), msg).toMatchObject(final);
}

function stripId(g: LiveGeometry & { id: ObjectId }): LiveGeometry {
  return { x: g.x, y: g.y, w: g.w, h: g.h, rotation: g.rotation };
}

describe('live resize and rotate over the session', () => {
  for (const seed of [0x4e51, 0x4e52, 0x4e53, 0x4e54])
    it(`seed ${seed}: the others see it live under loss, and every board converges to the release`, () =>
      resizeAndRelease(seed));

  it('a resize of an object someone else holds is refused and never shown to the others', async () => {
    const s = makeSimSession({ seed: 0x4e60 });
    s.addPeer('Ana');
    s.addPeer('Ben');
    await run(s, 1500);
    const [ana, ben] = s.peers.map((p) => peerControls(p));
    const [anaId, benId] = s.peers.map((p) => p.peerId ?? -1);
    if (ana === undefined || ben === undefined) throw new Error('missing');
    const id = await created(s, ana);
    ana.grab(s.sim.now, id);
    await run(s, s.sim.now + 500);
    ben.grab(s.sim.now, id);
    ben.reshape(s.sim.now, id, { x: 0, y: 0, w: 400, h: 400, rotation: 900 });
    await run(s, s.sim.now + 500);
    ben.edit(s.sim.now, id, { w: 400, h: 400, rotation: 900 });
    await run(s, s.sim.now + 500);
    const refused = (s.peerEvents[1] ?? []).filter((e) => e.type === 'refused').map((e) => e.cmd);
    expect(refused).toEqual(['grab', 'edit']);
    expect(s.host.counters.dragsNotHeld).toBeGreaterThan(0);
    for (const events of [s.hostEvents, s.peerEvents[0] ?? []])
      expect(dragsOf(events, benId ?? -1).filter((d) => d !== null)).toEqual([]);
    expect(s.host.board.get(id)).toMatchObject({ w: 100, h: 60, rotation: 0, lockedBy: anaId });
  });

  it("the host's own resize travels the same way", async () => {
    const s = makeSimSession({ seed: 0x4e61 });
    s.addPeer('Ana');
    await run(s, 1500);
    const host = hostControls(s.host);
    const id = await created(s, host);
    host.grab(s.sim.now, id);
    host.reshape(s.sim.now, id, { x: 90, y: 90, w: 300, h: 200, rotation: 450 });
    await run(s, s.sim.now + 1000);
    expect(dragsOf(s.peerEvents[0] ?? [], 0).at(-1)).toEqual({
      id,
      x: 90,
      y: 90,
      shape: { w: 300, h: 200, rotation: 450 },
    });
    // A plain drag after it carries no stale shape.
    host.drag(s.sim.now, id, 50, 50);
    await run(s, s.sim.now + 1000);
    expect(dragsOf(s.peerEvents[0] ?? [], 0).at(-1)).toEqual({ id, x: 50, y: 50 });
    host.drop(s.sim.now, id, 50, 50);
    await run(s, s.sim.now + 1000);
    expect(dragsOf(s.peerEvents[0] ?? [], 0).at(-1)).toBeNull();
  });
});
