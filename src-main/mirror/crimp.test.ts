import { describe, expect, it } from 'vitest';
import { Rng } from '../net/rng';
import type { CrimpConfig, MirrorGroupOptions } from './crimp';
import { MirrorGroup } from './crimp';
import type { MemberOutReason } from './crimp-stats';
import { encodeCrimpDatagram } from './crimp-wire';
import type { MirrorId } from './mirror-id';

interface InFlight {
  readonly at: number;
  readonly from: MirrorId;
  readonly to: MirrorId | 'group';
  readonly bytes: Uint8Array;
  readonly tag: number;
}

/**
 * Groups wired to each other by hand, every datagram taking 5 ms; `cut(from, to)` decides what is lost. Small
 * scripted cases beside the seeded simulation.
 */
class Wire {
  now = 0;
  readonly groups = new Map<MirrorId, MirrorGroup>();
  readonly inFlight: InFlight[] = [];
  readonly delivered = new Map<MirrorId, string[]>();
  readonly out: { id: MirrorId; by: MirrorId; reason: MemberOutReason }[] = [];
  cut: (from: MirrorId, to: MirrorId) => boolean = () => false;

  constructor(
    ids: readonly MirrorId[],
    config: Partial<CrimpConfig> = {},
    extra: (id: MirrorId) => Partial<MirrorGroupOptions> = () => ({}),
  ) {
    for (const id of ids) {
      this.delivered.set(id, []);
      this.groups.set(
        id,
        new MirrorGroup({
          self: id,
          members: ids,
          rng: new Rng(id + 1),
          now: 0,
          config,
          send: (to, bytes, tag) =>
            this.inFlight.push({ at: this.now + 5, from: id, to, bytes, tag }),
          deliver: (origin, seq) => this.delivered.get(id)?.push(`${origin}:${seq}`),
          onMemberOut: (out, reason) => this.out.push({ id: out, by: id, reason }),
          ...extra(id),
        }),
      );
    }
  }

  group(id: MirrorId): MirrorGroup {
    const g = this.groups.get(id);
    if (g === undefined) throw new Error(`no group ${id}`);
    return g;
  }

  run(until: number): void {
    for (; this.now <= until; this.now++) {
      const due = this.inFlight.filter((d) => d.at <= this.now);
      this.inFlight.splice(
        0,
        this.inFlight.length,
        ...this.inFlight.filter((d) => d.at > this.now),
      );
      for (const d of due) {
        const targets =
          d.to === 'group' ? [...this.groups.keys()].filter((id) => id !== d.from) : [d.to];
        for (const to of targets) {
          if (this.cut(d.from, to)) continue;
          this.group(to).receive(this.now, d.to === 'group' ? undefined : d.from, d.bytes);
        }
      }
      for (const g of this.groups.values()) if (g.nextTimeout() <= this.now) g.tick(this.now);
    }
  }
}

describe('MirrorGroup', () => {
  it('declares a silent member out and releases what only it held back', () => {
    const w = new Wire([0, 1, 2], { memberTimeoutMs: 2_000 });
    w.cut = (from, to) => from === 2 || to === 2;
    for (let i = 0; i < 10; i++) w.group(0).originate(w.now, new Uint8Array(100));
    w.run(1_000);
    expect(w.delivered.get(1)).toHaveLength(10);
    // Mirror 1 confirmed them; mirror 2 never will, so they stay.
    expect(w.group(0).stats().bufferedPayloads).toBe(10);
    w.run(2_100);
    expect(w.out).toContainEqual({ id: 2, by: 0, reason: 'silent' });
    expect(w.group(0).stats().bufferedPayloads).toBe(0);
    expect(w.group(0).liveMembers()).toEqual([0, 1]);
  });

  it("declares a member a full window behind out, so a deaf one can't hold more than a window", () => {
    // Mirror 2 is heard (its heartbeats get through) but hears nothing.
    const w = new Wire([0, 1, 2], { window: 16 });
    w.cut = (_from, to) => to === 2;
    for (let i = 0; i < 40; i++) {
      expect(w.group(0).originate(w.now, new Uint8Array(10)).kind).toBe('sent');
      expect(w.group(0).stats().bufferedPayloads).toBeLessThanOrEqual(16);
      w.run(w.now + 20);
    }
    expect(w.out.filter((o) => o.by === 0)).toEqual([{ id: 2, by: 0, reason: 'behind' }]);
    expect(w.delivered.get(1)).toHaveLength(40);
  });

  it('holds the byte cap: the member holding most back is declared out', () => {
    const w = new Wire([0, 1, 2], { maxBufferedBytes: 5_000 });
    w.cut = (_from, to) => to === 2;
    for (let i = 0; i < 12; i++) {
      expect(w.group(0).originate(w.now, new Uint8Array(1_000)).kind).toBe('sent');
      expect(w.group(0).stats().bufferedBytes).toBeLessThanOrEqual(5_000);
      w.run(w.now + 20);
    }
    expect(w.out.filter((o) => o.by === 0)).toEqual([{ id: 2, by: 0, reason: 'buffer' }]);
  });

  it('refuses a payload over the size cap with a typed result', () => {
    const w = new Wire([0, 1], { maxPayloadBytes: 100 });
    expect(w.group(0).originate(0, new Uint8Array(101))).toEqual({
      kind: 'refused',
      reason: 'too-large',
    });
    expect(w.group(0).stats().refused['too-large']).toBe(1);
  });

  it('re-sends at once when the link says a datagram was dropped, ahead of any NAK', () => {
    const tags: number[] = [];
    const w = new Wire([0, 1], {}, (id) =>
      id === 0 ? { send: (_to, _bytes, tag) => tags.push(tag) } : {},
    );
    w.group(0).originate(0, new Uint8Array([1, 2, 3]));
    const tag = tags.at(-1);
    expect(tag).toBeDefined();
    // Group 0's sends went to `tags` only; the re-send goes there too, as a repair of seq 1.
    const before = tags.length;
    w.group(0).linkNotify(1, 1, tag ?? 0, false);
    expect(tags.length).toBe(before + 1);
    expect(w.group(0).stats().earlyResends).toBe(1);
    w.group(0).linkNotify(2, 1, tag ?? 0, false);
    expect(w.group(0).stats().earlyResends).toBe(1);
  });

  it('uses one datagram for the whole group where the network multicasts (the IP multicast hook)', () => {
    const w = new Wire([0, 1, 2, 3], {}, (id) => ({
      sendToGroup: (bytes) =>
        w.inFlight.push({ at: w.now + 5, from: id, to: 'group', bytes, tag: 0 }),
    }));
    w.cut = (from, to) => from === 0 && to === 3 && w.now < 10;
    for (let i = 0; i < 5; i++) w.group(0).originate(0, new Uint8Array([i]));
    w.run(2_000);
    for (const id of [1, 2, 3]) expect(w.delivered.get(id)).toHaveLength(5);
    // Five originals in one group datagram each, whatever the group's size; the repair went to the group too.
    expect(w.group(0).stats().repairsSent).toBeGreaterThan(0);
    expect(w.group(0).stats().bufferedPayloads).toBe(0);
  });

  it('repairs a small group within one round trip of detection: ask the holders at once, they answer at once', () => {
    const at = new Map<string, number>();
    const w = new Wire([0, 1, 2], {}, (id) => ({
      deliver: (origin, seq, _payload, info) => {
        if (id === 1) at.set(`${origin}:${seq}`, w.now);
        if (id === 1 && origin === 0 && seq === 1)
          expect(info).toEqual({ repaired: true, detectedAt: 25 });
      },
    }));
    // Seq 1's first transmission to mirror 1 is lost; seq 2 (t=20, arriving 25) tells mirror 1 it lacks seq 1.
    w.cut = (from, to) => from === 0 && to === 1 && w.now === 5;
    w.group(0).originate(0, new Uint8Array([1]));
    w.run(19);
    w.group(0).originate(w.now, new Uint8Array([2]));
    w.run(500);
    // NAKs leave at 25, reach the origin and mirror 2 at 30; both repair at once, arriving at 35: one round trip.
    expect(at.get('0:1')).toBe(35);
    const st = w.group(1).stats();
    expect(st.repairLatencyMs).toMatchObject({ n: 1, max: 10 });
    expect(st.repairLatenciesMs).toEqual([10]);
    expect(st.duplicateRepairs).toBe(1);
    expect(st.fastRetries).toBe(0);
    expect(w.group(0).stats().originRepairs).toBe(1);
  });

  it('re-asks another holder when a round brings nothing back, delivering once', () => {
    const count = new Map<string, number>();
    const w = new Wire([0, 1, 2], {}, (id) => ({
      deliver: (origin, seq) => {
        const key = `${id}<${origin}:${seq}`;
        count.set(key, (count.get(key) ?? 0) + 1);
      },
    }));
    // Mirror 1 hears nothing from the origin for a while, and mirror 2's first answers to it are lost too.
    w.cut = (from, to) =>
      to === 1 && ((from === 0 && w.now < 400) || (from === 2 && w.now >= 60 && w.now < 70));
    for (let i = 0; i < 3; i++) {
      w.group(0).originate(w.now, new Uint8Array([i]));
      w.run(w.now + 20);
    }
    w.run(1_000);
    for (let seq = 1; seq <= 3; seq++) expect(count.get(`1<0:${seq}`)).toBe(1);
    const st = w.group(1).stats();
    expect(st.fastRetries).toBeGreaterThan(0);
    expect(st.pendingRequests).toBe(0);
    expect(w.group(2).stats().repairsSent).toBeGreaterThan(3);
  });

  it('answers a datagram naming one seq many times with one repair (no amplification)', () => {
    const w = new Wire([0, 1, 2]);
    const g = w.group(0);
    g.originate(0, new Uint8Array(100));
    const nak = { kind: 'nak', origin: 0, first: 1, count: 1 } as const;
    g.receive(
      1,
      1,
      encodeCrimpDatagram({ sender: 1, messages: Array.from({ length: 50 }, () => nak) }),
    );
    expect(g.stats().repairsSent).toBe(1);
    // The asker's next copy, a few ms on, is answered again: each copy is one more chance.
    g.receive(4, 1, encodeCrimpDatagram({ sender: 1, messages: [nak] }));
    expect(g.stats().repairsSent).toBe(2);
  });

  it('keeps SRM timers above fastRepairMaxMembers: no NAK at the moment of detection', () => {
    const w = new Wire([0, 1, 2], { fastRepairMaxMembers: 2, immediateNak: false });
    w.cut = (from, to) => from === 0 && to === 1 && w.now === 5;
    w.group(0).originate(0, new Uint8Array([1]));
    w.run(19);
    w.group(0).originate(w.now, new Uint8Array([2]));
    w.run(25);
    expect(w.group(1).stats().gaps).toBe(1);
    expect(w.group(1).stats().naksSent).toBe(0);
    w.run(2_000);
    expect(w.delivered.get(1)).toEqual(['0:2', '0:1']);
  });

  it('survives hostile datagrams from a member: typed errors counted, memory bounded (seeded)', () => {
    const w = new Wire([0, 1], { window: 64 });
    const g = w.group(0);
    const rng = new Rng(0xbad);
    for (let i = 0; i < 2_000; i++) {
      let bytes: Uint8Array;
      switch (i % 3) {
        case 0:
          bytes = rng.bytes(rng.range(0, 300));
          break;
        case 1:
          bytes = encodeCrimpDatagram({
            sender: 1,
            messages: [
              {
                kind: 'data',
                origin: rng.range(0, 3),
                seq: rng.range(1, 2 ** 40),
                repair: rng.bool(),
                payload: rng.bytes(rng.range(0, 50)),
              },
              { kind: 'nak', origin: rng.range(0, 3), first: rng.range(1, 2 ** 40), count: 64 },
            ],
          });
          break;
        default:
          bytes = encodeCrimpDatagram({
            sender: rng.range(0, 3),
            state: {
              stamp: rng.range(0, 65_535),
              vector: [{ origin: rng.range(0, 1), upTo: rng.range(0, 2 ** 40), maxSeen: 2 ** 41 }],
            },
            messages: [],
          });
      }
      g.receive(i, 1, bytes);
      g.tick(i);
      const st = g.stats();
      expect(st.pendingRequests).toBeLessThanOrEqual(2 * 64);
      expect(st.bufferedPayloads).toBeLessThanOrEqual(2 * 64);
    }
    const st = g.stats();
    expect(Object.values(st.decodeErrors).reduce((a, n) => a + n, 0)).toBeGreaterThan(100);
    expect(st.dropped.outOfWindow + st.dropped.unknownOrigin + st.dropped.spoofed).toBeGreaterThan(
      100,
    );
  });
});
