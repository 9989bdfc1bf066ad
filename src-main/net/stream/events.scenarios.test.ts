import { describe, expect, it } from 'vitest';
import type { Notification } from '../notify';
import { NO_IMPAIRMENT } from '../impairment';
import { SIM_CLIENT, SIM_HOST } from '../testing/pair';
import { string, uint } from './params';
import { RATE_PRESETS } from './rate';
import { RpcRegistry } from './rpc';
import type { PacketRecord } from './scheduler';
import type { StreamPair } from '../testing/stream-pair';
import { makeStreamPair } from '../testing/stream-pair';

const p = { id: uint(20) };

function registry() {
  const registry = new RpcRegistry();
  return {
    registry,
    chanA: registry.register('a', {
      policy: 'reliableOrdered',
      channel: 1,
      urgent: true,
      params: p,
    }),
    chanB: registry.register('b', {
      policy: 'reliableOrdered',
      channel: 2,
      urgent: true,
      params: p,
    }),
    quick: registry.register('q', { policy: 'quickest', channel: 3, priority: 7, params: p }),
    quickUrgent: registry.register('qu', {
      policy: 'quickest',
      channel: 4,
      priority: 7,
      urgent: true,
      params: p,
    }),
    pointer: registry.register('ptr', {
      policy: 'unreliableSequenced',
      channel: 5,
      priority: 6,
      urgent: true,
      params: p,
    }),
    chat: registry.register('chat', {
      policy: 'reliableOrdered',
      channel: 6,
      priority: 1,
      params: { ...p, text: string(24) },
    }),
    twice: registry.register('twice', {
      policy: 'reliableOrdered',
      channel: 7,
      priority: 1,
      urgent: true,
      copies: 2,
      params: p,
    }),
    once: registry.register('once', {
      policy: 'reliableOrdered',
      channel: 8,
      priority: 1,
      urgent: true,
      params: p,
    }),
    bulk: registry.register('bulk', {
      policy: 'unreliable',
      priority: 0,
      params: { ...p, text: string(200) },
    }),
  };
}

type Defs = ReturnType<typeof registry>;

/** Host-side receipt times by id. */
function pairWithLog(
  defs: Defs,
  seed: number,
  extra: Partial<Parameters<typeof makeStreamPair>[0]> = {},
) {
  const got = new Map<number, number>();
  const order: number[] = [];
  const pair = makeStreamPair({
    seed,
    registry: defs.registry,
    ...extra,
    setup: (side) => {
      if (side.role !== 'host') return;
      for (const def of [
        defs.chanA,
        defs.chanB,
        defs.quick,
        defs.quickUrgent,
        defs.pointer,
        defs.twice,
        defs.once,
      ]) {
        side.s.rpc.on(def, (m, now) => {
          got.set(m.id, now);
          order.push(m.id);
        });
      }
      side.s.rpc.on(defs.chat, (m, now) => {
        got.set(m.id, now);
        order.push(m.id);
      });
    },
  });
  return { pair, got, order };
}

function dropClientToHost(pair: StreamPair, loss: number): void {
  pair.net.setConditions(SIM_CLIENT, SIM_HOST, { ...NO_IMPAIRMENT, delayMs: 50, loss });
}

describe('event manager scenarios', () => {
  it('a loss on one channel never delays another; the same channel waits for the resend', () => {
    const defs = registry();
    const { pair, got, order } = pairWithLog(defs, 1, {
      conditions: { ...NO_IMPAIRMENT, delayMs: 50 },
    });
    const { sim } = pair;
    const rpc = pair.clientSide.s.rpc;
    sim.runUntil(sim.now + 500);
    const t = sim.now;
    dropClientToHost(pair, 1);
    rpc.send(defs.chanA, { id: 1 }); // urgent: its packet leaves now, into the loss
    sim.runUntil(t + 1);
    dropClientToHost(pair, 0);
    rpc.send(defs.chanB, { id: 2 }); // another channel
    rpc.send(defs.chanA, { id: 3 }); // A's channel, after the lost one
    sim.runUntil(t + 2_000);
    const a1 = got.get(1) ?? NaN;
    const b = got.get(2) ?? NaN;
    expect(b).toBe(t + 1 + 50); // on the first packet after the loss
    expect(a1).toBeGreaterThan(b + 50); // only after a notify and a resend
    expect(got.get(3)).toBe(a1); // held back until the lost one arrived
    expect(order).toEqual([2, 1, 3]);
  });

  it('delivers a quickest event with the first packet after its send that gets through (sim log)', () => {
    for (const urgent of [false, true]) {
      const defs = registry();
      const { pair, got } = pairWithLog(defs, urgent ? 5 : 4, {
        conditions: { ...NO_IMPAIRMENT, delayMs: 50, loss: 0.3 },
      });
      const { sim } = pair;
      const conn = pair.clientSide.conn;
      if (conn === undefined) throw new Error('no connection');
      const built: { rec: PacketRecord; index: number }[] = [];
      pair.clientSide.s.scheduler.onPacketSent = (now, rec) =>
        built.push({ rec, index: conn.stats(now).packetsSent });
      const fate = new Map<PacketRecord, boolean>();
      conn.observer = (n: Notification<PacketRecord>) => {
        if (n.record !== undefined) fate.set(n.record, n.delivered);
      };
      const sentAt = new Map<number, number>();
      let id = 0;
      sim.every(97, (now) => {
        if (id >= 40) return;
        sentAt.set(++id, now);
        pair.clientSide.s.rpc.send(urgent ? defs.quickUrgent : defs.quick, { id });
      });
      sim.runUntil(sim.now + 8_000);
      const clientLog = pair.net.log.filter((e) => e.from === '127.0.0.2:4001');
      const handshake = clientLog.length - conn.stats(sim.now).packetsSent;
      expect(sentAt.size).toBe(40);
      for (const [qid, t] of sentAt) {
        const first = built.find((b) => b.rec.sentAt >= t && fate.get(b.rec) === true);
        const entry = clientLog[handshake + (first?.index ?? NaN) - 1];
        expect(entry?.sentAt, `quickest ${qid}: log entry matches the packet`).toBe(
          first?.rec.sentAt,
        );
        expect(got.get(qid), `quickest ${qid} (urgent ${urgent})`).toBe(
          Math.min(...(entry?.deliveredAt ?? [])),
        );
      }
    }
  });

  it('an event sent in two packets arrives with the second when the first is lost, without a resend', () => {
    const defs = registry();
    const { pair, got } = pairWithLog(defs, 11, { conditions: { ...NO_IMPAIRMENT, delayMs: 50 } });
    const { sim } = pair;
    const events = pair.clientSide.s.rpc.events;
    sim.runUntil(sim.now + 500);
    const t = sim.now;
    dropClientToHost(pair, 1);
    pair.clientSide.s.rpc.send(defs.twice, { id: 1 }); // urgent: its first packet leaves now, into the loss
    sim.runUntil(t + 1);
    dropClientToHost(pair, 0);
    sim.runUntil(t + 2_000);
    // The copy rode the next packet (a tick later): no loss detection (an RTT, 100 ms here) was waited for.
    expect(got.get(1)).toBeLessThan(t + 100);
    expect(events.counters).toMatchObject({ copies: 1, resent: 0 });
    // Both copies lost: one resend, which goes out in two packets again.
    const t2 = sim.now;
    dropClientToHost(pair, 1);
    pair.clientSide.s.rpc.send(defs.twice, { id: 2 });
    sim.runUntil(t2 + 200);
    dropClientToHost(pair, 0);
    sim.runUntil(t2 + 2_000);
    expect(got.get(2)).toBeGreaterThan(t2 + 200);
    expect(events.counters).toMatchObject({ copies: 3, resent: 1 });
    expect(events.queueLength).toBe(0);
    expect(events.demand(sim.now)).toBe('none');
  });

  it('two copies at 20% loss: every event once and in order, fewer resends and a lower p95 than one copy', () => {
    const seed = 12;
    const run = (twice: boolean) => {
      const defs = registry();
      const { pair, got, order } = pairWithLog(defs, seed, {
        conditions: { ...NO_IMPAIRMENT, delayMs: 50, loss: 0.2 },
      });
      const { sim } = pair;
      const sentAt = new Map<number, number>();
      let id = 0;
      sim.every(97, (now) => {
        if (id >= 200) return;
        sentAt.set(++id, now);
        pair.clientSide.s.rpc.send(twice ? defs.twice : defs.once, { id });
      });
      sim.runUntil(sim.now + 30_000);
      const latency = [...sentAt]
        .map(([k, at]) => (got.get(k) ?? Infinity) - at)
        .sort((a, b) => a - b);
      return {
        order,
        p95: latency[Math.floor(latency.length * 0.95)] ?? Infinity,
        counters: { ...pair.clientSide.s.rpc.events.counters },
      };
    };
    const one = run(false);
    const two = run(true);
    const all = Array.from({ length: 200 }, (_, i) => i + 1);
    expect(one.order, `seed ${seed}`).toEqual(all);
    expect(two.order, `seed ${seed}`).toEqual(all); // the extra copies were dropped as duplicates
    expect(two.counters.copies, `seed ${seed}`).toBeGreaterThanOrEqual(200);
    expect(two.counters.resent, `seed ${seed}`).toBeLessThan(one.counters.resent / 2);
    // One copy: a fifth of the events wait for a loss detection and a resend (an RTT and more).
    expect(one.p95, `seed ${seed}`).toBeGreaterThan(150);
    expect(two.p95, `seed ${seed}`).toBeLessThan(one.p95 / 1.5);
  });

  it('copies are refused outside reliable-ordered (the receiver could not drop the extras) and above the cap', () => {
    const r = new RpcRegistry();
    expect(() => r.register('u', { policy: 'reliableUnordered', copies: 2, params: p })).toThrow(
      /copies need policy reliableOrdered/,
    );
    expect(() => r.register('q', { policy: 'quickest', copies: 2, params: p })).toThrow(
      /copies need policy reliableOrdered/,
    );
    expect(() => r.register('o', { policy: 'reliableOrdered', copies: 4, params: p })).toThrow(
      /copies 4 outside 1..3/,
    );
    expect(r.register('ok', { policy: 'reliableOrdered', copies: 3, params: p }).copies).toBe(3);
  });

  it('urgent events leave at once on a clean path; others wait for the tick', () => {
    const defs = registry();
    const { pair, got } = pairWithLog(defs, 2, { conditions: { ...NO_IMPAIRMENT, delayMs: 20 } });
    const { sim } = pair;
    sim.runUntil(sim.now + 1_000);
    const t = sim.now;
    pair.clientSide.s.rpc.send(defs.pointer, { id: 1 });
    sim.runUntil(t + 500);
    expect(got.get(1)).toBe(t + 20);
    pair.clientSide.s.rpc.send(defs.chat, { id: 2, text: 'hi' });
    sim.runUntil(t + 1_000);
    // The last packet left 500 ms ago, so a tick is due: normal data leaves at once too...
    expect(got.get(2)).toBe(t + 500 + 20);
    const t3 = sim.now;
    pair.clientSide.s.rpc.send(defs.chat, { id: 3, text: 'again' });
    pair.clientSide.s.rpc.send(defs.pointer, { id: 4 });
    sim.runUntil(t3 + 1);
    pair.clientSide.s.rpc.send(defs.chat, { id: 5, text: 'later' });
    sim.runUntil(t3 + 500);
    expect(got.get(4)).toBe(t3 + 20);
    expect(got.get(3)).toBe(t3 + 20); // aggregated into the urgent packet
    // ...but right after a packet, normal data waits for the next tick (1/30 s later).
    expect(got.get(5)).toBeCloseTo(t3 + 1000 / 30 + 20, 6);
  });

  it('burst of 1,000 reliable-ordered events at modem rate with 10% loss: in order, bounded buffer, pointers flow', () => {
    const defs = registry();
    const window = 32;
    const { pair, got, order } = pairWithLog(defs, 9, {
      conditions: { ...NO_IMPAIRMENT, delayMs: 50, jitterMs: 10, loss: 0.1 },
      hostRate: RATE_PRESETS.modem,
      clientRate: RATE_PRESETS.modem,
      stack: { window },
    });
    const { sim } = pair;
    const rpc = pair.clientSide.s.rpc;
    const t0 = sim.now;
    for (let i = 1; i <= 1000; i++)
      expect(rpc.send(defs.chat, { id: i, text: `line ${i} of the paste` })).toBe(true);
    expect(rpc.events.queueLength).toBe(1000);
    let ptr = 100_000;
    let maxBuffered = 0;
    sim.every(33, () => {
      if (got.size < 1000 || order.filter((x) => x <= 1000).length < 1000)
        rpc.send(defs.pointer, { id: ++ptr });
      maxBuffered = Math.max(maxBuffered, pair.hostSide.s.rpc.events.inbox.buffered);
    });
    const done = (): boolean => order.filter((x) => x <= 1000).length === 1000;
    expect(sim.runUntilTrue(done, t0 + 120_000)).toBe(true);
    expect(order.filter((x) => x <= 1000)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(pair.hostSide.s.rpc.events.inbox.maxBuffered).toBeLessThanOrEqual(window);
    expect(maxBuffered).toBeLessThanOrEqual(window);
    // Pointer updates kept arriving all through the burst: no silent stretch longer than a second.
    const ptrTimes = [...got].filter(([k]) => k > 100_000).map(([, at]) => at);
    expect(ptrTimes.length).toBeGreaterThan(((sim.now - t0) / 33) * 0.5);
    const gaps = ptrTimes.slice(1).map((at, i) => at - (ptrTimes[i] ?? at));
    expect(Math.max(...gaps)).toBeLessThan(1000);
    // The modem byte rate held (10 x (200 + 28) B/s on the wire), with at most a second's worth of credit on top
    // and a little for headers longer than the 4 bytes budgeted.
    const seconds = (sim.now - t0) / 1000;
    const built = pair.clientSide.s.scheduler.stats(sim.now).packetsBuilt;
    const wire = pair.net.wireBytes.get('127.0.0.2:4001>127.0.0.1:4000')?.offered ?? Infinity;
    const before = 1000; // handshake and the first packets, before the burst
    expect(wire - before).toBeLessThanOrEqual(2280 * (seconds + 1) + 10 * built);
  });
});
