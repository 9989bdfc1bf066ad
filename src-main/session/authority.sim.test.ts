import { describe, expect, it } from 'vitest';
import type { NewObject } from '../../shared/board';
import { newRect } from '../../shared/testing/rect';
import { isRefusal } from './board';
import type { RefusableCommand } from './protocol';
import type { RawPeer } from './raw-peer';
import type { SessionEvent } from './session-events';
import { defaultMaxPerAddress } from './host';
import { makeSimSession } from './testing/sim-session';

const rect = (x: number, y: number): NewObject => newRect({ x, y });

const EFFECTS = new Set<SessionEvent['type']>([
  'chat',
  'object',
  'deleted',
  'grabbed',
  'dropped',
  'joined',
]);

interface Case {
  readonly name: string;
  /** What the connection sends; `free` is an object nobody holds, `held` one the host holds. */
  readonly send: (r: RawPeer, free: number, held: number) => void;
  /** The refusal it is told of (none for presence, which is no call). */
  readonly refused?: RefusableCommand;
}

const EDIT = { mask: 0b11, x: 500, y: 500, w: 1, h: 1, rotation: 0, stroke: null, fill: null };
const CASES: Case[] = [
  {
    name: 'chat',
    send: (r) => r.rpc.send(r.proto.chat, { text: 'I am the host' }),
    refused: 'chat',
  },
  {
    name: 'create',
    send: (r) => r.rpc.send(r.proto.create, { req: 1, ...rect(9, 9), points: [] }),
    refused: 'create',
  },
  {
    name: 'edit',
    send: (r, free) => r.rpc.send(r.proto.edit, { id: free, ...EDIT, strokeWidth: 1 }),
    refused: 'edit',
  },
  {
    name: 'edit of what the host holds',
    send: (r, _f, held) => r.rpc.send(r.proto.edit, { id: held, ...EDIT, strokeWidth: 1 }),
    refused: 'edit',
  },
  {
    name: 'setPoints',
    send: (r, _f, held) => r.rpc.send(r.proto.setPoints, { id: held, points: [0, 0, 5, 5] }),
    refused: 'edit',
  },
  {
    name: 'text',
    send: (r, free) => r.rpc.send(r.proto.text, { id: free, at: 0, remove: 0, insert: 'x' }),
    refused: 'text',
  },
  {
    name: 'remove',
    send: (r, free) => r.rpc.send(r.proto.remove, { id: free }),
    refused: 'delete',
  },
  {
    name: 'restack',
    send: (r, free) => r.rpc.send(r.proto.restack, { id: free, front: false, z: null }),
    refused: 'restack',
  },
  { name: 'grab', send: (r, free) => r.rpc.send(r.proto.grab, { id: free }), refused: 'grab' },
  {
    name: 'drop of what the host holds',
    send: (r, _f, held) => r.rpc.send(r.proto.drop, { id: held, x: 700, y: 700 }),
    refused: 'drop',
  },
  {
    name: 'drag (presence)',
    send: (r, _f, held) => {
      r.setPresence({ x: 5, y: 5, visible: true, dragId: held, dragX: 900, dragY: 900 });
    },
  },
];

describe('a connection that has not said hello is no participant', () => {
  for (const c of CASES) {
    it(`${c.name} before hello has no effect, is refused to the sender, and relays nothing`, () => {
      const seed = 16_100 + CASES.indexOf(c);
      const s = makeSimSession({ seed });
      const free = s.host.create(rect(0, 0), 0);
      const held = s.host.create(rect(200, 0), 0);
      if (isRefusal(free) || isRefusal(held)) throw new Error('setup');
      s.host.grab(held.id, 0);
      s.addPeer('Ana');
      const raw = s.addRaw();
      s.sim.runUntil(2000);
      const hash = s.host.board.hash();
      const hostFrom = s.hostEvents.length;
      const anaFrom = s.peerEvents[0]?.length ?? 0;
      c.send(raw, free.id, held.id);
      s.sim.runUntil(4000);
      const msg = `seed ${seed}`;
      expect(s.host.board.hash(), msg).toBe(hash);
      expect(s.host.board.get(held.id)?.lockedBy, msg).toBe(0);
      const hostAfter = s.hostEvents.slice(hostFrom);
      expect(
        hostAfter.filter((e) => EFFECTS.has(e.type) || e.type === 'pointer'),
        msg,
      ).toEqual([]);
      const anaAfter = (s.peerEvents[0] ?? []).slice(anaFrom);
      expect(
        anaAfter.filter((e) => EFFECTS.has(e.type) || e.type === 'pointer'),
        msg,
      ).toEqual([]);
      expect(
        s.host.participants.map((p) => p.name),
        msg,
      ).toEqual(['Host', 'Ana']);
      expect(raw.welcomedAs, msg).toBeUndefined();
      if (c.refused !== undefined) {
        expect(
          raw.refusals.map((r) => r.cmd),
          msg,
        ).toEqual([c.refused]);
        expect(s.host.counters.beforeHello, msg).toBe(1);
      }
    });
  }

  it('the same connection, once it says hello, is a participant with its own id (never 0)', () => {
    const seed = 16_200;
    const s = makeSimSession({ seed });
    const raw = s.addRaw();
    s.sim.runUntil(1000);
    raw.rpc.send(raw.proto.chat, { text: 'early' });
    s.sim.runUntil(1500);
    raw.rpc.send(raw.proto.hello, { name: 'Late', viewer: false });
    s.sim.runUntil(2000);
    raw.rpc.send(raw.proto.chat, { text: 'after hello' });
    s.sim.runUntil(3000);
    expect(raw.welcomedAs, `seed ${seed}`).toBe(1);
    const chats = s.hostEvents.filter((e) => e.type === 'chat');
    expect(chats, `seed ${seed}`).toEqual([{ type: 'chat', peer: 1, text: 'after hello' }]);
    expect(
      raw.refusals.map((r) => r.cmd),
      `seed ${seed}`,
    ).toEqual(['chat']);
  });
});

describe('maxPeers counts participants at hello', () => {
  it('refuses the hello past it with a reason the joiner sees, and closes that connection', () => {
    const seed = 16_300;
    const s = makeSimSession({ seed, maxPeers: 2 });
    s.addPeer('Ana');
    s.addPeer('Ben');
    s.sim.runUntil(1000);
    s.addPeer('Cy');
    s.sim.runUntil(2000);
    const msg = `seed ${seed}`;
    expect(
      s.host.participants.map((p) => p.name),
      msg,
    ).toEqual(['Host', 'Ana', 'Ben']);
    expect(s.peers[2]?.peerId, msg).toBeUndefined();
    const cy = s.peerEvents[2] ?? [];
    expect(
      cy.filter((e) => e.type === 'ended'),
      msg,
    ).toEqual([{ type: 'ended', reason: 'full', detail: 'the session is full (2 participants)' }]);
    expect(s.host.counters.full, msg).toBe(1);
    s.sim.runUntil(6000);
    expect(s.host.endpoint.connectionCount, msg).toBe(2);
    // A place frees up: a new joiner gets in.
    s.peers[0]?.leave(s.sim.now);
    s.sim.runUntil(7000);
    s.addPeer('Di');
    s.sim.runUntil(8000);
    expect(
      s.host.participants.map((p) => p.name),
      msg,
    ).toEqual(['Host', 'Ben', 'Di']);
  });
});

describe('drags', () => {
  it('are relayed only from the lock’s holder; others’ pointers still move', () => {
    const seed = 16_400;
    const s = makeSimSession({ seed });
    const mine = s.host.create(rect(0, 0), 0);
    const hosts = s.host.create(rect(300, 0), 0);
    if (isRefusal(mine) || isRefusal(hosts)) throw new Error('setup');
    s.host.grab(hosts.id, 0);
    s.addPeer('Ana');
    s.addPeer('Ben');
    s.sim.runUntil(2000);
    const [ana, ben] = s.peers;
    if (ana === undefined || ben === undefined) throw new Error('setup');
    ana.grab(mine.id);
    s.sim.runUntil(2500);
    // Ben drags what Ana holds, and what the host holds, without holding either; Ana drags hers.
    for (let k = 1; k <= 30; k++) {
      ben.pointer(k * 10, 0);
      ben.drag(k % 2 === 0 ? mine.id : hosts.id, k * 10, 0);
      ana.drag(mine.id, k * 20, 40);
      s.sim.runUntil(2500 + k * 16);
    }
    s.sim.runUntil(4000);
    const msg = `seed ${seed}`;
    const pointersOf = (events: SessionEvent[], peer: number) =>
      events.flatMap((e) => (e.type === 'pointer' && e.pointer.peer === peer ? [e.pointer] : []));
    const benSeen = [...pointersOf(s.hostEvents, 2), ...pointersOf(s.peerEvents[0] ?? [], 2)];
    expect(benSeen.length, msg).toBeGreaterThan(20);
    expect(
      benSeen.filter((p) => p.drag !== null),
      msg,
    ).toEqual([]);
    const anaSeen = pointersOf(s.peerEvents[1] ?? [], 1).filter((p) => p.drag !== null);
    expect(anaSeen.length, msg).toBeGreaterThan(20);
    expect(s.host.counters.dragsNotHeld, msg).toBeGreaterThan(0);
    expect(s.host.board.get(hosts.id)).toMatchObject({ x: 300, y: 0, lockedBy: 0 });
  });
});

describe('a holder’s drag sent with its grab', () => {
  it('is shown once the grab is granted, though it is read first', () => {
    const seed = 16_401;
    const s = makeSimSession({ seed });
    const o = s.host.create(rect(0, 0), 0);
    if (isRefusal(o)) throw new Error('setup');
    s.addPeer('Ana');
    s.addPeer('Ben');
    s.sim.runUntil(2000);
    s.peers[0]?.grab(o.id);
    s.peers[0]?.drag(o.id, 50, 60);
    s.sim.runUntil(3000);
    const seen = (s.peerEvents[1] ?? []).flatMap((e) =>
      e.type === 'pointer' && e.pointer.peer === 1 && e.pointer.drag ? [e.pointer.drag] : [],
    );
    expect(seen, `seed ${seed}`).toEqual([{ id: o.id, x: 50, y: 60 }]);
  });
});

describe('roles are the host’s to choose', () => {
  const ended = (events: SessionEvent[]) => events.filter((e) => e.type === 'ended');
  const refusedCreates = (events: SessionEvent[]) =>
    events.filter((e) => e.type === 'refused' && e.cmd === 'create');

  it('joinRole viewer makes joiners viewers whatever their hello says', () => {
    const seed = 16_500;
    const s = makeSimSession({ seed, joinRole: 'viewer' });
    s.addPeer('Ed', { viewer: false });
    s.sim.runUntil(1000);
    s.peers[0]?.create(rect(0, 0));
    s.sim.runUntil(2000);
    const msg = `seed ${seed}`;
    expect(
      s.host.participants.map((p) => p.role),
      msg,
    ).toEqual(['editor', 'viewer']);
    expect(refusedCreates(s.peerEvents[0] ?? []), msg).toHaveLength(1);
    expect(s.host.board.size, msg).toBe(0);
  });

  it('a viewer the host made stays a viewer when it reconnects from its address', () => {
    const seed = 16_501;
    const s = makeSimSession({ seed });
    const viv = { address: '10.0.0.7', port: 5000 };
    s.addPeer('Viv', { from: viv });
    s.addPeer('Eve');
    s.sim.runUntil(1000);
    expect(s.host.setRole(1, 'viewer'), `seed ${seed}`).toBe(true);
    s.peers[0]?.leave(s.sim.now);
    s.sim.runUntil(2000);
    // Back from the same machine (a new port), asking to edit.
    const again = s.addPeer('Viv', { from: { ...viv, port: 5001 }, viewer: false });
    s.sim.runUntil(3000);
    s.peers[again]?.create(rect(0, 0));
    s.peers[1]?.create(rect(50, 0));
    s.sim.runUntil(4000);
    const msg = `seed ${seed}`;
    expect(s.peers[again]?.role(), msg).toBe('viewer');
    expect(refusedCreates(s.peerEvents[again] ?? []), msg).toHaveLength(1);
    expect(s.peers[1]?.role(), msg).toBe('editor');
    expect(s.host.board.size, msg).toBe(1);
  });

  it('someone who rejoins keeps their colour, unless another participant has it now', () => {
    const seed = 16_503;
    const s = makeSimSession({ seed });
    const ana = { address: '10.0.0.8', port: 5000 };
    s.addPeer('Ana', { from: ana });
    s.addPeer('Ben');
    s.sim.runUntil(1000);
    const msg = `seed ${seed}`;
    const colourOf = (name: string) => s.host.participants.find((p) => p.name === name)?.color;
    const before = colourOf('Ana');
    s.peers[0]?.leave(s.sim.now);
    s.sim.runUntil(2000);
    s.addPeer('Cy');
    const again = s.addPeer('Ana', { from: { ...ana, port: 5001 } });
    s.sim.runUntil(3000);
    expect(s.peers[again]?.peerId, msg).toBeDefined();
    expect(colourOf('Ana'), msg).toBe(before);
    expect(colourOf('Cy'), msg).not.toBe(before);
    // Someone else under the same name from another machine is another person.
    s.addPeer('Ana', { from: { address: '10.0.0.9', port: 5000 } });
    s.sim.runUntil(4000);
    const anas = s.host.participants.filter((p) => p.name === 'Ana').map((p) => p.color);
    expect(new Set(anas).size, msg).toBe(2);
  });

  it('a kick bans the address for the session and suggests a new code; rotateCode changes it', () => {
    const seed = 16_502;
    const s = makeSimSession({ seed });
    const mal = { address: '10.0.0.66', port: 6000 };
    s.addPeer('Mal', { from: mal });
    s.addPeer('Ann');
    s.sim.runUntil(1000);
    const msg = `seed ${seed}`;
    expect(s.host.kick(s.sim.now, 1), msg).toBe(true);
    s.sim.runUntil(2000);
    expect(ended(s.peerEvents[0] ?? []), msg).toEqual([
      { type: 'ended', reason: 'kicked', detail: 'removed by the host' },
    ]);
    expect(
      s.hostEvents.filter((e) => e.type === 'banned'),
      msg,
    ).toEqual([{ type: 'banned', peer: 1, name: 'Mal', address: '10.0.0.66' }]);
    expect(s.host.endpoint.isBanned('10.0.0.66'), msg).toBe(true);
    // Mal comes back from another port of the same address: refused at the handshake.
    const back = s.addPeer('Mal', { from: { ...mal, port: 6001 } });
    s.sim.runUntil(4000);
    expect(ended(s.peerEvents[back] ?? []), msg).toEqual([
      { type: 'ended', reason: 'banned', detail: '' },
    ]);
    // A new code: Ann stays, the old code no longer lets anyone in, the new one does.
    const code = s.host.rotateCode();
    expect(s.hostEvents.at(-1), msg).toEqual({ type: 'code', code });
    const old = s.addPeer('Old');
    const fresh = s.addPeer('New', { code });
    s.sim.runUntil(6000);
    expect(ended(s.peerEvents[old] ?? []), msg).toEqual([
      { type: 'ended', reason: 'wrong-code', detail: '' },
    ]);
    expect(s.peers[fresh]?.peerId, msg).toBeDefined();
    expect(
      s.host.participants.map((p) => p.name),
      msg,
    ).toEqual(['Host', 'Ann', 'New']);
  });
});

describe('connections from one address', () => {
  it('are capped well below the session by default: a quarter of it, at most 32', () => {
    expect([2, 8, 100, 256, 1000].map(defaultMaxPerAddress)).toEqual([1, 2, 25, 32, 32]);
    const seed = 16_800;
    const s = makeSimSession({ seed, maxPeers: 8 });
    const office = (port: number) => ({ address: '10.0.0.5', port });
    for (const port of [1001, 1002, 1003]) s.addPeer(`desk ${port}`, { from: office(port) });
    s.addPeer('Elsewhere');
    s.sim.runUntil(3000);
    const msg = `seed ${seed}`;
    expect(s.host.participants.map((p) => p.name).sort(), msg).toEqual([
      'Elsewhere',
      'Host',
      'desk 1001',
      'desk 1002',
    ]);
    expect(
      (s.peerEvents[2] ?? []).filter((e) => e.type === 'ended'),
      msg,
    ).toEqual([{ type: 'ended', reason: 'full', detail: '' }]);
  });

  it('can be raised for a load test whose bots share one address', () => {
    const seed = 16_801;
    const s = makeSimSession({ seed, maxPeers: 8, maxConnectionsPerAddress: 3 });
    for (const port of [1001, 1002, 1003])
      s.addPeer(`bot ${port}`, { from: { address: '10.0.0.5', port } });
    s.sim.runUntil(3000);
    expect(s.host.participants, `seed ${seed}`).toHaveLength(4);
  });
});

describe('a refusal names the object it refused', () => {
  it("so the sender can take back what it showed at once: a joiner's delete, edit and text of what the host holds", () => {
    const seed = 16_900;
    const s = makeSimSession({ seed });
    const held = s.host.create(rect(0, 0), 0);
    if (isRefusal(held)) throw new Error('setup');
    s.host.grab(held.id, 0);
    s.addPeer('Ana');
    s.sim.runUntil(2000);
    const ana = s.peers[0];
    if (ana === undefined) throw new Error('setup');
    const from = s.peerEvents[0]?.length ?? 0;
    ana.remove(held.id);
    ana.edit(held.id, { x: 40 });
    ana.text(held.id, 0, 0, 'hi');
    s.sim.runUntil(4000);
    const msg = `seed ${seed}`;
    const refusals = (s.peerEvents[0] ?? [])
      .slice(from)
      .flatMap((e) => (e.type === 'refused' ? [{ cmd: e.cmd, id: e.id }] : []));
    expect(refusals, msg).toEqual([
      { cmd: 'delete', id: held.id },
      { cmd: 'edit', id: held.id },
      { cmd: 'text', id: held.id },
    ]);
    expect(s.host.board.get(held.id)?.x, msg).toBe(0);
  });
});
