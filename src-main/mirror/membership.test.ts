// Membership's liveness when a message is delivered but dropped on arrival (the link reports its packet
// delivered, so nothing re-sends it): founders on an in-memory bus that carries each message in 1 ms, notifies
// its sender, and drops on arrival the messages a test names. A view change goes on after RETRY_MS (the
// coordinator's proposal or target again, a member's answer again for an install it never saw); a proposal that
// comes before the install it follows waits for it; a late ask for a joiner already admitted lets no one in twice.
import { describe, expect, it } from 'vitest';
import { Rng } from '../net/rng';
import type { GroupMessage, View } from './group-wire';
import { decodeGroupMessage, encodeGroupMessage, isGroupDecodeError } from './group-wire';
import type { MembershipHost } from './membership';
import { Membership, RETRY_MS } from './membership';
import type { MirrorId } from './mirror-id';

interface Sent {
  readonly from: MirrorId;
  readonly to: MirrorId;
  readonly bytes: Uint8Array;
  readonly tag: number;
}

/** Founders 0..n-1 in view 0, linked to each other; ids outside them (an admitted joiner) take nothing. */
class Bus {
  now = 0;
  readonly nodes = new Map<MirrorId, Membership>();
  /** Messages lost on arrival: the receiver never sees them, the sender is told they were delivered. */
  drop: (from: MirrorId, to: MirrorId, m: GroupMessage) => boolean = () => false;
  readonly dropped: string[] = [];
  private wire: Sent[] = [];

  constructor(founders: number) {
    const view: View = {
      number: 0,
      members: Array.from({ length: founders }, (_, id) => ({
        id,
        address: { address: `10.0.0.${id + 1}`, port: 8000 },
      })),
      nextId: founders,
    };
    for (let id = 0; id < founders; id++)
      this.nodes.set(
        id,
        new Membership({ self: id, view, rng: new Rng(id + 1), host: this.host(id) }),
      );
  }

  node(id: MirrorId): Membership {
    const m = this.nodes.get(id);
    if (m === undefined) throw new Error(`no mirror ${id}`);
    return m;
  }

  /** A message as mirror `from` would send it (a sponsor's ask, told again late). */
  inject(from: MirrorId, to: MirrorId, m: GroupMessage): void {
    this.node(to).receive(
      this.now,
      { key: from + 1, id: from, peer: `10.0.0.${from + 1}:8000` },
      encodeGroupMessage(m),
    );
  }

  /** Runs `ms` of 1 ms steps: what was sent arrives (or is dropped on arrival), then every mirror ticks. */
  run(ms: number): void {
    for (let i = 0; i < ms; i++) {
      this.now++;
      const due = this.wire;
      this.wire = [];
      for (const s of due) {
        this.node(s.from).notify(this.now, s.tag, true);
        const m = decodeGroupMessage(s.bytes);
        if (isGroupDecodeError(m)) throw new Error(m.detail);
        if (this.drop(s.from, s.to, m)) {
          this.dropped.push(`${m.kind} ${s.from}→${s.to}`);
          continue;
        }
        this.node(s.to).receive(
          this.now,
          { key: s.from + 1, id: s.from, peer: `10.0.0.${s.from + 1}:8000` },
          s.bytes,
        );
      }
      for (const m of this.nodes.values()) m.tick(this.now);
    }
  }

  private host(self: MirrorId): MembershipHost {
    return {
      send: (_now, to, bytes, tag) => {
        if ('id' in to && this.nodes.has(to.id))
          this.wire.push({ from: self, to: to.id, bytes, tag });
        return true;
      },
      linkOpen: () => true,
      freeze: () => undefined,
      target: () => undefined,
      holdsAll: () => true,
      held: (origin) => ({ origin, upTo: 0, above: [] }),
      addMember: () => undefined,
      removeMember: () => undefined,
      takeTransfer: () => new Uint8Array(0),
      welcomed: () => undefined,
      chunk: () => undefined,
    };
  }
}

/** Drops the first message of a kind from one mirror to another, once. */
function once(kind: GroupMessage['kind'], from: MirrorId, to: MirrorId): Bus['drop'] {
  let done = false;
  return (f, t, m) => {
    if (done || m.kind !== kind || f !== from || t !== to) return false;
    done = true;
    return true;
  };
}

const members = (m: Membership): MirrorId[] => m.view?.members.map((x) => x.id) ?? [];

describe('a view change whose message is dropped on arrival', () => {
  for (const kind of ['propose', 'target'] as const)
    it(`goes on when a member never saw the ${kind}: the coordinator sends it again after RETRY_MS`, () => {
      const bus = new Bus(3);
      bus.drop = once(kind, 0, 1);
      bus.node(0).suspect(bus.now, 2, 'silent');
      bus.run(RETRY_MS - 10);
      expect(bus.dropped).toEqual([`${kind} 0→1`]);
      expect(bus.node(0).stats()).toMatchObject({ view: 0, changing: 1 });
      bus.run(20);
      for (const id of [0, 1]) {
        expect(members(bus.node(id)), `mirror ${id}`).toEqual([0, 1]);
        expect(bus.node(id).stats(), `mirror ${id}`).toMatchObject({
          view: 1,
          changing: null,
          queued: 0,
        });
      }
      expect(bus.node(0).counters.retried).toBe(1);
    });

  it('goes on when a member never saw the install: it answers again, and is sent the install', () => {
    const bus = new Bus(3);
    bus.drop = once('install', 0, 1);
    bus.node(0).suspect(bus.now, 2, 'silent');
    bus.run(RETRY_MS - 10);
    expect(bus.dropped).toEqual(['install 0→1']);
    expect(bus.node(0).stats()).toMatchObject({ view: 1, changing: null });
    expect(bus.node(1).stats()).toMatchObject({ view: 0, changing: 1 });
    bus.run(20);
    expect(bus.node(1).stats()).toMatchObject({ view: 1, changing: null, queued: 0 });
    expect(members(bus.node(1))).toEqual([0, 1]);
    expect(bus.node(1).counters.retried).toBe(1);
  });

  it('answers a proposal that came before the install it follows at that install, not a retry later', () => {
    const bus = new Bus(4);
    bus.drop = once('install', 0, 1);
    bus.node(0).suspect(bus.now, 3, 'silent');
    bus.run(10);
    expect(bus.node(0).stats()).toMatchObject({ view: 1 });
    expect(bus.node(1).stats()).toMatchObject({ view: 0 });
    // View 2's proposal reaches mirror 1 while it still holds view 0.
    bus.node(0).suspect(bus.now, 2, 'silent');
    bus.run(20);
    for (const id of [0, 1]) {
      expect(bus.node(id).stats(), `mirror ${id}`).toMatchObject({
        view: 2,
        changing: null,
        queued: 0,
      });
      expect(members(bus.node(id)), `mirror ${id}`).toEqual([0, 1]);
    }
    expect(bus.node(0).counters.retried + bus.node(1).counters.retried).toBe(0);
  });

  it('admits a joiner once though its sponsor tells the coordinator again after the install', () => {
    const bus = new Bus(2);
    const ask: GroupMessage = {
      kind: 'ask',
      nonce: 12345,
      address: { address: '10.0.0.9', port: 8000 },
      via: 1,
    };
    bus.inject(1, 0, ask);
    bus.run(20);
    expect(members(bus.node(0))).toEqual([0, 1, 2]);
    // The sponsor's second telling was on its way before it installed the view that admitted the joiner.
    bus.inject(1, 0, ask);
    bus.run(RETRY_MS * 2);
    for (const id of [0, 1]) {
      expect(bus.node(id).stats(), `mirror ${id}`).toMatchObject({
        view: 1,
        changing: null,
        queued: 0,
      });
      expect(members(bus.node(id)), `mirror ${id}`).toEqual([0, 1, 2]);
    }
    expect(bus.node(0).counters.attempts).toBe(1);
  });
});
