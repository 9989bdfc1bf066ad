import { describe, expect, it } from 'vitest';
import type { NewObject } from '../../shared/board';
import { MAX_OBJECT_ID, MAX_SIZE, OBJECT_KINDS, ROTATION_STEPS } from '../../shared/board';
import type { Rng } from '../net/rng';
import { isRefusal } from './board';
import { peerControls } from './controls';
import type { RawPeer } from './raw-peer';
import type { SimSession } from './testing/sim-session';
import { makeSimSession } from './testing/sim-session';

// Random RPCs from bare connections, before and after they say hello, mixed with two ordinary peers and the
// host's own edits. The host must not fail (a handler that threw would close the sender with
// 'protocol-error'), and after every step: only participants hold locks, the participant list is consistent,
// nobody but the host acts as id 0, and the ordinary peers end with the host's board. Ana also undoes and
// redoes her own steps as she goes: the boards still converge.
const STEPS = Number(process.env.GB_FUZZ_SESSION_STEPS ?? 1500);
const SEEDS = [0x5e551, 0x5e552, 0x5e553];
const MAX_PEERS = 5;

function randomObject(rng: Rng): NewObject {
  const kind = rng.pick(OBJECT_KINDS);
  return {
    kind,
    x: rng.range(-3000, 3000),
    y: rng.range(-3000, 3000),
    w: rng.range(0, 500),
    h: rng.range(0, 500),
    rotation: rng.int(3600),
    stroke: rng.int(2) === 0 ? null : rng.int(0x1000000),
    fill: rng.int(2) === 0 ? null : rng.int(0x1000000),
    strokeWidth: rng.int(65),
    text: 'x'.repeat(rng.int(40)),
    points: rng.int(2) === 0 ? [] : [0, 0, rng.range(-100, 100), rng.range(-100, 100)],
    // An image whose bytes the host never had: its create is refused (blob-link tests send real ones).
    blob: '',
  };
}

/** An id on the board most of the time, otherwise anything in range. */
function someId(s: SimSession): number {
  const ids = s.host.board.all().map((o) => o.id);
  return ids.length > 0 && s.rng.int(4) !== 0 ? s.rng.pick(ids) : s.rng.range(1, MAX_OBJECT_ID);
}

function randomCall(s: SimSession, r: RawPeer): void {
  const rng = s.rng;
  const rpc = r.rpc;
  const pr = r.proto;
  const x = rng.range(-5000, 5000);
  const y = rng.range(-5000, 5000);
  switch (rng.int(19)) {
    case 0:
      rpc.send(pr.hello, {
        name: rng.int(3) === 0 ? '' : `raw${rng.int(100)}`,
        viewer: rng.int(3) === 0,
      });
      return;
    case 1:
      rpc.send(pr.viewport, { x, y, w: rng.range(0, 5000), h: rng.range(0, 5000) });
      return;
    case 2:
      {
        const o = randomObject(rng);
        rpc.send(pr.create, { req: rng.int(65536), ...o, points: [...o.points] });
      }
      return;
    case 3: {
      const o = randomObject(rng);
      rpc.send(pr.edit, { id: someId(s), mask: rng.int(256), ...o });
      return;
    }
    case 4:
      rpc.send(pr.remove, { id: someId(s) });
      return;
    case 5:
      rpc.send(pr.restack, {
        id: someId(s),
        front: rng.int(2) === 0,
        z: rng.int(2) === 0 ? null : rng.range(-20, 20),
      });
      return;
    case 6:
      rpc.send(pr.setPoints, { id: someId(s), points: [0, 0, rng.range(-50, 50), 7] });
      return;
    case 7:
      rpc.send(pr.text, {
        id: someId(s),
        at: rng.int(50),
        remove: rng.int(50),
        insert: 'y'.repeat(rng.int(20)),
      });
      return;
    case 8:
      rpc.send(pr.grab, { id: someId(s) });
      return;
    case 9:
      rpc.send(pr.drop, { id: someId(s), x, y });
      return;
    case 10:
      rpc.send(pr.chat, { text: `chat ${rng.int(1000)}` });
      return;
    case 11: {
      // Mostly ids someone deleted (or never issued): only the one who deleted an id may restore it.
      rpc.send(pr.restore, { id: s.rng.range(1, s.host.board.state.nextId + 2) });
      return;
    }
    case 12:
      // Locks and unlocks: a locked object refuses the others' edits until someone unlocks it.
      rpc.send(pr.pin, { id: someId(s), pinned: rng.int(3) !== 0 });
      return;
    // textot: co-editing calls, in and out of step (the host drops a link that does not fit, never crashes).
    case 13:
      rpc.send(pr.textOpen, { id: someId(s) });
      return;
    case 14:
      rpc.send(pr.textEdit, {
        id: someId(s),
        seen: rng.int(rng.int(4) === 0 ? 1024 : 3),
        at: rng.int(rng.int(4) === 0 ? 50 : 8),
        remove: rng.int(3),
        insert: rng.int(3) === 0 ? '😀' : 'z'.repeat(rng.int(4)),
      });
      return;
    case 15:
      rpc.send(pr.textAck, { id: someId(s), seen: rng.int(1024) });
      return;
    case 16:
      rpc.send(pr.textClose, { id: someId(s) });
      return;
    default:
      r.setPresence({
        peer: rng.int(4),
        x,
        y,
        visible: true,
        dragId: rng.int(2) === 0 ? 0 : someId(s),
        dragX: x,
        dragY: y,
        // A live resize or rotate now and then (liveresize), of anything in range.
        dragShaped: rng.int(3) === 0,
        dragW: rng.range(0, MAX_SIZE),
        dragH: rng.range(0, 5000),
        dragRotation: rng.int(ROTATION_STEPS),
      });
  }
}

function invariantBreaks(s: SimSession): string[] {
  const out: string[] = [];
  const people = s.host.participants;
  const ids = people.map((p) => p.peer);
  if (new Set(ids).size !== ids.length) out.push(`duplicate participant ids ${ids.join(',')}`);
  if (people.filter((p) => p.isHost).length !== 1 || people[0]?.peer !== 0 || !people[0].isHost)
    out.push('the host is not exactly participant 0');
  if (people.some((p) => !p.isHost && p.peer === 0)) out.push('a remote participant has id 0');
  if (people.length > MAX_PEERS + 1) out.push(`${people.length} participants past maxPeers`);
  if (s.host.peerConnections().length !== people.length - 1)
    out.push('connections and participants differ');
  for (const o of s.host.board.all())
    if (o.lockedBy !== null && !ids.includes(o.lockedBy))
      out.push(`object ${o.id} held by non-participant ${o.lockedBy}`);
  // restack: an exact z is honoured only while free, so z stays unique per board.
  const zs = s.host.board.all().map((o) => o.z);
  if (new Set(zs).size !== zs.length) out.push('two objects share a z');
  for (const o of s.host.board.all()) {
    const edited = s.host.texts.textOf(o.id);
    if (edited !== undefined && edited !== o.text)
      out.push(`object ${o.id}: co-edited text is not the board's`);
  }
  for (const r of s.raws) {
    if (r.welcomedAs === 0) out.push('a raw connection was welcomed as id 0');
    if (r.closed?.reason === 'protocol-error')
      out.push(`a raw connection closed by a host error: ${r.closed.detail}`);
  }
  return out;
}

describe('fuzz: random session RPCs before and after hello', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: ${STEPS} steps, the host holds its invariants`, async () => {
      const s = makeSimSession({ seed, maxPeers: MAX_PEERS, lockTimeoutMs: 3000 });
      const breaks: string[] = [];
      let hostActing = false;
      // Checked as they happen: whoever the host reports acting is a participant at that moment, and id 0 acts
      // only while the test drives the host itself.
      s.host.on((e) => {
        const ids = s.host.participants.map((p) => p.peer);
        const who =
          e.type === 'chat' || e.type === 'grabbed'
            ? e.peer
            : e.type === 'pointer'
              ? e.pointer.peer
              : undefined;
        if (who !== undefined && !ids.includes(who))
          breaks.push(`${e.type} by non-participant ${who}`);
        if (who === 0 && e.type !== 'pointer' && !hostActing) breaks.push(`${e.type} as the host`);
      });
      s.addPeer('Ana');
      s.addPeer('Ben', { viewer: true });
      const ana = peerControls(s.peers[0] ?? assertNever());
      for (let i = 0; i < 4; i++) s.addRaw();
      s.sim.runUntil(1000);
      for (let step = 0; step < STEPS; step++) {
        const rng = s.rng;
        const roll = rng.int(100);
        if (roll < 3 && s.raws.length < 12) s.addRaw();
        else if (roll < 5) {
          const r = rng.pick(s.raws);
          if (r.stack?.conn.isOpen === true) {
            r.stack.conn.close(s.sim.now, 'closed', 'fuzz');
            r.endpoint.touch(r.stack.conn);
          }
        } else if (roll < 10) {
          hostActing = true;
          const o = s.host.create(randomObject(rng), s.sim.now);
          if (!isRefusal(o) && rng.int(2) === 0) s.host.grab(o.id, s.sim.now);
          hostActing = false;
        } else if (roll < 14) {
          void ana.create(s.sim.now, randomObject(rng));
          ana.chat(s.sim.now, 'hello from Ana');
        } else if (roll < 18) {
          const ids = ana.board.all().map((o) => o.id);
          const id = ids.length > 0 ? rng.pick(ids) : 1;
          if (roll === 14) ana.remove(s.sim.now, id);
          else if (roll === 15) ana.edit(s.sim.now, id, { x: rng.range(-3000, 3000) });
          else if (roll === 16) void ana.undo(s.sim.now);
          else void ana.redo(s.sim.now);
        } else {
          const r = rng.pick(s.raws);
          if (r.stack?.conn.isOpen === true) randomCall(s, r);
        }
        s.sim.runUntil(s.sim.now + rng.range(1, 30));
        // Lets Ana's awaited creates and undos go on.
        await new Promise((r) => setImmediate(r));
        for (const b of invariantBreaks(s)) breaks.push(`step ${step}: ${b}`);
        if (breaks.length > 0) break;
      }
      s.sim.runUntil(s.sim.now + 5000);
      for (const b of invariantBreaks(s)) breaks.push(`settled: ${b}`);
      expect(breaks.slice(0, 5), `seed ${seed}`).toEqual([]);
      expect(s.peers[0]?.board.hash(), `seed ${seed}`).toBe(s.host.board.hash());
      expect(s.host.counters.beforeHello, `seed ${seed}`).toBeGreaterThan(0);
      expect(s.host.counters.restoresRefused, `seed ${seed}`).toBeGreaterThan(0);
    });
  }
});

function assertNever(): never {
  throw new Error('missing peer');
}
