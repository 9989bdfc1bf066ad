import { describe, expect, it } from 'vitest';
import type { BitReader, BitWriter } from '../bitstream';
import { BitReader as Reader, BitWriter as Writer } from '../bitstream';
import type { PacketFiller } from '../connection';
import { NO_IMPAIRMENT } from '../impairment';
import type { SendDemand, StreamManager } from './manager';
import { uint } from './params';
import { PACKET_OVERHEAD_BYTES, RATE_PRESETS, readRateField, SendCredit } from './rate';
import { RpcRegistry } from './rpc';
import type { PacketRecord } from './scheduler';
import { StreamConnection } from './scheduler';
import { makeStreamPair } from '../testing/stream-pair';

/** A manager that writes `pending` 8-bit values when asked and records fates. */
class Counter implements StreamManager<number[]> {
  pending: number[] = [];
  readonly read_: number[] = [];
  readonly fates: [number[], boolean][] = [];
  urgent = false;
  constructor(readonly name: string) {}
  demand(): SendDemand {
    return this.pending.length === 0 ? 'none' : this.urgent ? 'urgent' : 'normal';
  }
  write(_now: number, w: BitWriter, budget: number): number[] | undefined {
    const n = Math.min(this.pending.length, 15, Math.floor((budget - 4) / 8));
    if (n === 0) return undefined;
    const out = this.pending.splice(0, n);
    w.writeUint(n, 4);
    for (const v of out) w.writeUint(v, 8);
    return out;
  }
  read(_now: number, r: BitReader): void {
    const n = r.readUint(4);
    for (let i = 0; i < n; i++) this.read_.push(r.readUint(8));
  }
  notify(_now: number, rec: number[], delivered: boolean): void {
    this.fates.push([rec, delivered]);
  }
}

class FakeConn {
  open = true;
  readonly packets: { bytes: Uint8Array; rec: PacketRecord | undefined; at: number }[] = [];
  canSend(): boolean {
    return this.open;
  }
  send(now: number, fill: PacketFiller<PacketRecord>): boolean {
    const w = new Writer();
    const rec = fill(w, 1200 * 8);
    this.packets.push({ bytes: w.finish(), rec, at: now });
    return true;
  }
}

describe('packet scheduler', () => {
  it('writes presence bits in manager order, routes payloads and notifies, and counts bits per kind', () => {
    const a = new Counter('a');
    const b = new Counter('b');
    const conn = new FakeConn();
    const s = new StreamConnection(conn, { managers: [a, b], rate: RATE_PRESETS.broadband });
    expect(s.nextSendAt()).toBe(0); // the rate field alone is worth a packet
    b.pending = [1, 2, 3];
    s.onSendTime(0);
    expect(conn.packets).toHaveLength(1);
    const pkt = conn.packets[0];
    const rx = new Counter('a');
    const ry = new Counter('b');
    const peer = new StreamConnection(new FakeConn(), {
      managers: [rx, ry],
      rate: RATE_PRESETS.modem,
    });
    peer.onPayload(10, new Reader(pkt?.bytes ?? new Uint8Array()));
    expect([rx.read_, ry.read_]).toEqual([[], [1, 2, 3]]);
    expect(peer.stats(10).peerRate).toEqual(RATE_PRESETS.broadband);
    const rec = pkt?.rec;
    if (rec === undefined) throw new Error('no record');
    expect(rec.sections).toEqual([undefined, [1, 2, 3]]);
    s.onNotify(50, rec, false);
    expect(b.fates).toEqual([[[1, 2, 3], false]]);
    expect(a.fates).toEqual([]);
    const st = s.stats(60);
    expect(st.sent.b?.bits).toBe(4 + 24);
    // The rate field, the delay field (no stamp: this side has no adaptive rate; no queue report: nothing came
    // from the peer yet), presence bits.
    expect(st.sent.scheduler?.bits).toBe(1 + 18 + 2 + 2);
  });

  it('sends nothing without demand, ticks at the rate, and never leaves the timer due after a send', () => {
    const a = new Counter('a');
    const conn = new FakeConn();
    const s = new StreamConnection(conn, { managers: [a], rate: RATE_PRESETS.modem });
    s.onSendTime(0); // the rate field
    const rec = conn.packets[0]?.rec;
    if (rec === undefined) throw new Error('no record');
    s.onNotify(100, rec, true);
    expect(s.nextSendAt()).toBe(Infinity);
    for (let t = 100; t < 2100; t += 5) {
      a.pending.push(t % 256);
      if (s.nextSendAt() <= t) s.onSendTime(t);
      expect(s.nextSendAt()).toBeGreaterThan(t);
    }
    // 10 packets/s for 2 s, plus what the idle start had earned.
    expect(conn.packets.length - 1).toBeLessThanOrEqual(20 + 10);
    a.urgent = true;
    a.pending = [1];
    const before = conn.packets.length;
    s.onSendTime(5000); // credit rebuilt while idle: urgent data leaves at once
    expect(conn.packets.length).toBe(before + 1);
  });

  it('data that is not urgent rides the urgent stream instead of spending packets between its packets', () => {
    const pointer = new Counter('pointer');
    pointer.urgent = true;
    const events = new Counter('events');
    const conn = new FakeConn();
    // 66 packets/s: ticks every 15.2 ms, a 60 Hz pointer every 16.7 ms.
    const rate = { packetsPerSecond: 66, packetBytes: 1200 };
    const s = new StreamConnection(conn, {
      managers: [pointer, events],
      rate,
      initialPeerRate: rate,
    });
    let notified = 0;
    const run = (from: number, to: number, frame: (t: number) => void): void => {
      for (let t = from; t < to; t += 0.25) {
        frame(t);
        if (s.nextSendAt() <= t) s.onSendTime(t);
        for (; notified < conn.packets.length; notified++) {
          const rec = conn.packets[notified]?.rec;
          if (rec) s.onNotify(t, rec, true); // delivered at once: the rate field stops asking for packets
        }
      }
    };
    const eventsOnly = (from: number): number =>
      conn.packets.filter(
        (p) => p.at >= from && p.rec?.sections[0] === undefined && p.rec?.sections[1] !== undefined,
      ).length;
    // 2 s of pointer at 60 Hz with an event queued every 50 ms, 5 ms after a frame.
    let frames = 0;
    run(0, 2000, (t) => {
      if (t >= (frames * 1000) / 60) pointer.pending.push(frames++ % 256);
      if (t % 50 === 5) events.pending.push(7);
    });
    const streaming = conn.packets.filter((p) => p.at >= 500);
    expect(eventsOnly(500)).toBe(0);
    expect(streaming.length).toBeGreaterThanOrEqual(89); // one per frame, 1.5 s
    expect(streaming.length).toBeLessThanOrEqual(91);
    // The pointer stops: an event waits for the stream's next packet only a little past when it was due.
    const stoppedAt = conn.packets.at(-1)?.at ?? NaN;
    events.pending.push(9);
    run(2000, 2100, () => undefined);
    const alone = conn.packets.filter((p) => p.at >= 2000);
    expect(alone).toHaveLength(1);
    expect((alone[0]?.at ?? NaN) - stoppedAt).toBeCloseTo((1.25 * 1000) / 60, 0);
    // With no urgent stream at all, events tick at the packet rate.
    run(2500, 2600, (t) => {
      if (t % 5 === 0) events.pending.push(1);
    });
    const ticks = conn.packets.filter((p) => p.at >= 2500).map((p) => p.at);
    expect(ticks.length).toBeGreaterThanOrEqual(6);
    expect((ticks[2] ?? NaN) - (ticks[1] ?? NaN)).toBeCloseTo(1000 / 66, 0);
  });

  it('an urgent event leaves at once while pointers use every packet, on an allowance that leaves them theirs', () => {
    // Ghost-like urgent state: more updates than packets (11 pointers at 60 Hz into 195 packets/s).
    const pointers = new Counter('pointers');
    pointers.urgent = true;
    const state = Object.assign(pointers, { urgentState: true });
    const drops = new Counter('drops');
    drops.urgent = true;
    const conn = new FakeConn();
    const rate = { packetsPerSecond: 195, packetBytes: 238 };
    const s = new StreamConnection(conn, { managers: [state, drops], rate, initialPeerRate: rate });
    const waits: number[] = [];
    let queuedAt = NaN;
    let notified = 0;
    for (let t = 0; t < 3000; t += 0.25) {
      if (t % 1.5 === 0) state.pending.push(1); // 667 updates/s
      if (t >= 1000 && t % 100 === 37) {
        drops.pending.push(2);
        queuedAt = t;
      }
      if (s.nextSendAt() <= t) s.onSendTime(t);
      for (; notified < conn.packets.length; notified++) {
        const p = conn.packets[notified];
        if (p?.rec) s.onNotify(t, p.rec, true);
        if (p?.rec?.sections[1] !== undefined) waits.push(p.at - queuedAt);
      }
    }
    // The pointers alone drained the second's credit saved up at the start, and then kept to the rate: every drop
    // (one every 100 ms from 1 s on) left in the quarter millisecond it was queued, not up to 5 ms later.
    expect(waits).toHaveLength(20);
    expect(Math.max(...waits)).toBe(0);
    // Over the last second the pointers kept every packet of the rate, the drops' 10 came on top (their allowance is
    // a tenth of the rate: 19.5 a second).
    const lastSecond = conn.packets.filter((p) => p.at >= 2000);
    const pointerPackets = lastSecond.filter((p) => p.rec?.sections[1] === undefined).length;
    expect(pointerPackets).toBeGreaterThanOrEqual(194);
    expect(lastSecond.length).toBeLessThanOrEqual(196 + 10);
  });

  it('send credit: urgent events have a tenth of the packet rate of their own, two saved at most', () => {
    const c = new SendCredit(0, { packetsPerSecond: 10, packetBytes: 200 });
    for (let i = 0; i < 10; i++) c.charge(0, 10);
    expect(c.readyAt(0)).toBeCloseTo(100, 9); // the rate's packets are spent
    expect(c.readyAt(0, true)).toBe(0); // an urgent event's are not
    c.charge(0, 10, true);
    c.charge(0, 10, true);
    expect(c.readyAt(0, true)).toBeCloseTo(100, 9); // both saved spent: the rate's next packet comes first
    // The allowance earns a packet a second at 10 packets/s; charging it left the rate's packets alone.
    c.charge(100, 10);
    expect(c.readyAt(100, true)).toBeCloseTo(200, 9);
    expect(c.readyAt(1000, true)).toBe(1000);
  });

  it('send credit: one second of packets and bytes for a burst, then rate x size', () => {
    const c = new SendCredit(0, { packetsPerSecond: 10, packetBytes: 200 }); // 2280 B/s with IP/UDP
    let sent = 0;
    while (c.canSend(0)) {
      c.charge(0, 200 - PACKET_OVERHEAD_BYTES); // a full 200-byte datagram: 228 B with IP/UDP
      sent++;
    }
    expect(sent).toBe(10); // a second's worth of packets (and of bytes)
    expect(c.readyAt(0)).toBeCloseTo(100, 9); // the next packet's credit
    expect(c.canSend(100)).toBe(true);
    c.charge(100, 2280 - 28 - PACKET_OVERHEAD_BYTES); // a second's worth of bytes at once: bytes now -2052
    expect(c.readyAt(100)).toBeCloseTo(1000, 9);
  });

  it('send credit: small packets are limited by the packet rate, not only by bytes', () => {
    const c = new SendCredit(0, { packetsPerSecond: 30, packetBytes: 1200 });
    let sent = 0;
    for (let t = 0; t < 10_000; t += 1) {
      if (!c.canSend(t)) continue;
      c.charge(t, 10);
      sent++;
    }
    // 30 saved up, then 30 per second for ten seconds (±1 for the boundary).
    expect(sent).toBeGreaterThanOrEqual(329);
    expect(sent).toBeLessThanOrEqual(331);
  });

  it("honors the receiver's rate: a lan host sending to a modem client keeps to 10 x 200 B", () => {
    const registry = new RpcRegistry();
    const Msg = registry.register('m', { policy: 'reliableOrdered', params: { v: uint(32) } });
    let got = 0;
    const pair = makeStreamPair({
      seed: 5,
      registry,
      conditions: { ...NO_IMPAIRMENT, delayMs: 30 },
      hostRate: RATE_PRESETS.lan,
      clientRate: RATE_PRESETS.modem,
      setup: (side) => {
        side.s.rpc.on(Msg, () => got++);
      },
    });
    const { sim } = pair;
    sim.runUntil(sim.now + 500);
    expect(pair.hostSide.s.scheduler.stats(sim.now).effectiveRate).toEqual(RATE_PRESETS.modem);
    const t0 = sim.now;
    for (let i = 0; i < 2000; i++) pair.hostSide.s.rpc.send(Msg, { v: i });
    sim.runUntil(t0 + 5_000);
    const out = pair.net.log.filter((e) => e.from === '127.0.0.1:4000' && e.sentAt >= t0);
    expect(Math.max(...out.map((e) => e.size - 28))).toBeLessThanOrEqual(200 + 10);
    expect(pair.hostSide.s.scheduler.stats(sim.now).packetsBuilt).toBeLessThanOrEqual(
      5 * 10 + 10 + 5,
    );
    expect(got).toBeGreaterThan(1000);
    // Idle once the queue is empty and acked: the scheduler builds nothing (owed acks and keepalives are the
    // connection's business).
    expect(sim.runUntilTrue(() => got === 2000, t0 + 60_000)).toBe(true);
    sim.runUntil(sim.now + 1_000);
    const built = pair.hostSide.s.scheduler.stats(sim.now).packetsBuilt;
    sim.runUntil(sim.now + 5_000);
    expect(pair.hostSide.s.scheduler.stats(sim.now).packetsBuilt).toBe(built);
  });
});

describe('send time across the endpoint cache', () => {
  const registry = new RpcRegistry();
  const Grab = registry.register('grab', {
    policy: 'reliableOrdered',
    urgent: true,
    params: { v: uint(8) },
  });

  it('caps its own sending at sendRate while telling the peer the rate it accepts', () => {
    const a = new Counter('a');
    const conn = new FakeConn();
    const s = new StreamConnection(conn, {
      managers: [a],
      rate: RATE_PRESETS.lan,
      sendRate: RATE_PRESETS.broadband,
      initialPeerRate: RATE_PRESETS.lan,
    });
    expect(s.stats(0).effectiveRate).toEqual(RATE_PRESETS.broadband);
    a.pending.push(7);
    s.onSendTime(0);
    const r = new Reader(conn.packets[0]?.bytes ?? new Uint8Array());
    expect(r.readBool()).toBe(true);
    expect(readRateField(r)).toEqual(RATE_PRESETS.lan);
    s.setLocalRate(0, RATE_PRESETS.modem, RATE_PRESETS.lan);
    expect(s.stats(0).effectiveRate).toEqual(RATE_PRESETS.lan);
    expect(s.stats(0).localRate).toEqual(RATE_PRESETS.modem);
  });

  it('an event queued on an idle connection leaves at once, not at the next keepalive', () => {
    let got: number | undefined;
    const pair = makeStreamPair({
      seed: 9,
      registry,
      conditions: { ...NO_IMPAIRMENT, delayMs: 20 },
      setup: (side) => {
        side.s.rpc.on(Grab, () => (got = pair.sim.now));
      },
    });
    const { sim } = pair;
    sim.runUntil(3_000); // idle: the cached deadlines are keepalives, up to a second away
    const t0 = sim.now + 0.5;
    sim.after(0.5, () => pair.clientSide.s.rpc.send(Grab, { v: 1 }));
    sim.runUntil(t0 + 200);
    expect(got).toBeDefined();
    expect((got ?? Infinity) - t0).toBeLessThan(20 + 5);
  });

  it('the harness audit catches a manager that queues data without waking its connection', () => {
    const pair = makeStreamPair({ seed: 10, registry });
    pair.sim.runUntil(2_000);
    pair.clientSide.s.rpc.events.wake = undefined;
    pair.clientSide.s.rpc.send(Grab, { v: 2 });
    expect(() => {
      pair.sim.runUntil(2_100);
    }).toThrow(/cache says/);
  });
});

/** Writes as many 8-bit values as its budget allows (a stand-in for a flood of pointers). */
class Flood implements StreamManager<number> {
  readonly written: number[] = [];
  constructor(
    readonly name: string,
    public pending: number,
    readonly maxShare?: number,
  ) {}
  demand(): SendDemand {
    return this.pending > 0 ? 'urgent' : 'none';
  }
  write(_now: number, w: BitWriter, budget: number): number | undefined {
    const n = Math.min(this.pending, 255, Math.floor((budget - 8) / 8));
    if (n <= 0) return undefined;
    w.writeUint(n, 8);
    for (let i = 0; i < n; i++) w.writeUint(i & 0xff, 8);
    this.pending -= n;
    this.written.push(n);
    return n;
  }
  read(): void {}
  notify(): void {}
}

describe('manager shares', () => {
  it('an early manager with maxShare leaves the rest of the packet to later ones with data waiting', () => {
    const pointers = new Flood('pointers', 10_000, 0.5);
    const events = new Flood('events', 10_000);
    const conn = new FakeConn();
    const s = new StreamConnection(conn, {
      managers: [pointers, events],
      rate: RATE_PRESETS.modem,
      initialPeerRate: RATE_PRESETS.modem,
    });
    s.onSendTime(0);
    const [p = 0] = pointers.written;
    const [e = 0] = events.written;
    expect(p).toBeGreaterThan(60);
    expect(p * 8).toBeLessThanOrEqual(((200 - 20) * 8) / 2);
    expect(e).toBeGreaterThanOrEqual(p - 4);
    // Nothing waits behind it: it may take the whole packet.
    events.pending = 0;
    const before = pointers.written.length;
    s.onSendTime(1000);
    expect(pointers.written[before] ?? 0).toBeGreaterThan(150);
  });
});

/** A manager with a backlog of bytes: each packet takes as many as its budget holds. */
class Backlog implements StreamManager<number> {
  pending = 0;
  readonly name = 'backlog';
  demand(): SendDemand {
    return this.pending === 0 ? 'none' : 'normal';
  }
  write(_now: number, w: BitWriter, budget: number): number | undefined {
    const n = Math.min(this.pending, Math.floor((budget - 16) / 8));
    if (n <= 0) return undefined;
    this.pending -= n;
    w.writeUint(n, 16);
    for (let i = 0; i < n; i++) w.writeUint(0xa5, 8);
    return n;
  }
  read(): void {}
  notify(): void {}
}

describe('a backlog (a paste)', () => {
  const rate = { packetsPerSecond: 10, packetBytes: 1000 };

  /** Every packet so far delivered (the rate field with them: nothing but the backlog wants a packet after). */
  function settle(s: StreamConnection, conn: FakeConn, now: number): void {
    for (const p of conn.packets) if (p.rec !== undefined) s.onNotify(now, p.rec, true);
  }

  /** Drives the scheduler every millisecond over [from, to); returns the send times of the packets. */
  function drive(s: StreamConnection, conn: FakeConn, from: number, to: number): number[] {
    const before = conn.packets.length;
    for (let t = from; t < to; t++) if (s.nextSendAt() <= t) s.onSendTime(t);
    return conn.packets.slice(before).map((p) => p.at);
  }

  it('spends the credit saved while idle paced at 3x the packet rate, then goes at the rate', () => {
    const data = new Backlog();
    const conn = new FakeConn();
    const s = new StreamConnection(conn, { managers: [data], rate, initialPeerRate: rate });
    drive(s, conn, 0, 1000); // the rate field; a second of idle time saves a second of credit
    settle(s, conn, 1000);
    data.pending = 30 * 950;
    const sent = drive(s, conn, 1000, 5000);
    const interval = 1000 / rate.packetsPerSecond;
    const gaps = sent.slice(1).map((t, i) => t - (sent[i] ?? 0));
    // A second's worth (10 packets) leaves in a third of the time one per tick takes, never faster than that...
    expect(sent[9]).toBeLessThanOrEqual(1000 + 9 * Math.ceil(interval / 3)); // this test drives whole ms
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(Math.floor(interval / 3));
    // ...every packet but the last full...
    for (const p of conn.packets.slice(-sent.length, -1))
      expect(p.bytes.length).toBeGreaterThan(0.9 * (rate.packetBytes - PACKET_OVERHEAD_BYTES));
    expect(data.pending).toBe(0);
    // ...and once the credit is spent, one per tick: no more than the saved second and the rate allow.
    expect(sent.filter((t) => t < 3000).length).toBeLessThanOrEqual(10 + 20 + 1);
    for (const g of gaps.slice(-5)) expect(g).toBeGreaterThanOrEqual(interval - 1);
  });

  it('data that fits one packet still waits for the tick', () => {
    const data = new Backlog();
    const conn = new FakeConn();
    const s = new StreamConnection(conn, { managers: [data], rate, initialPeerRate: rate });
    drive(s, conn, 0, 1000);
    settle(s, conn, 1000);
    const sent: number[] = [];
    for (let t = 1000; t < 2000; t += 10) {
      data.pending += 20;
      sent.push(...drive(s, conn, t, t + 10));
    }
    expect(sent.length).toBeLessThanOrEqual(11);
  });
});
