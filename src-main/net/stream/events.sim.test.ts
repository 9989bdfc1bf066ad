import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import type { Impairment } from '../impairment';
import { NO_IMPAIRMENT } from '../impairment';
import type { Policy } from './event-types';
import { isOrderedStream, isReliable } from './event-types';
import { ranged, string, tableString, uint } from './params';
import { RATE_PRESETS } from './rate';
import type { RpcDef } from './rpc';
import { RpcRegistry } from './rpc';
import type { StreamSide } from '../testing/stream-pair';
import { makeStreamPair } from '../testing/stream-pair';

const SEEDS = Number(process.env.GB_SIM_SEEDS ?? 1000);

/** A cheap assertion for per-event checks (expect() per event costs more than the simulation). */
function check(ok: boolean, msg: string): void {
  if (!ok) expect.fail(msg);
}

const msgParams = { id: uint(20), word: tableString(16), n: ranged(-1000, 1000), note: string(24) };
type MsgDef = RpcDef<typeof msgParams>;

/**
 * Every policy, channels shared between classes and policies, mixed priorities within a channel, and
 * reliable-ordered classes sent in one, two and three packets on the same channel.
 */
function makeRegistry(): { registry: RpcRegistry; defs: MsgDef[] } {
  const registry = new RpcRegistry();
  const spec: [string, Policy, number, number, boolean, number?][] = [
    ['unrel', 'unreliable', 0, 2, false],
    ['pointer', 'unreliableSequenced', 1, 6, true],
    ['pointerLow', 'unreliableSequenced', 1, 1, false],
    ['hit', 'reliableUnordered', 0, 3, false],
    ['hitLow', 'reliableUnordered', 0, 0, true],
    ['draw', 'reliableOrdered', 2, 3, false],
    ['drawHigh', 'reliableOrdered', 2, 6, false, 3],
    ['chat', 'reliableOrdered', 3, 1, false, 2],
    ['drag', 'reliableSequenced', 4, 4, false],
    ['dragLow', 'reliableSequenced', 4, 2, true],
    ['grab', 'quickest', 2, 7, true],
    ['lock', 'quickest', 5, 5, false],
  ];
  const defs = spec.map(([name, policy, channel, priority, urgent, copies]) =>
    registry.register(name, {
      policy,
      channel,
      priority,
      urgent,
      copies: copies ?? 1,
      params: msgParams,
    }),
  );
  return { registry, defs };
}

const VOCAB = Array.from({ length: 30 }, (_, i) => `w${i}-${'x'.repeat(i % 7)}`);

interface Sent {
  readonly def: MsgDef;
  readonly id: number;
  readonly word: string;
  readonly n: number;
}

interface Got {
  readonly id: number;
  readonly word: string;
  readonly n: number;
  readonly note: string;
}

function randomConditions(rng: Rng): Impairment {
  return {
    loss: rng.next() * 0.3,
    delayMs: rng.range(0, 120),
    jitterMs: rng.range(0, 40),
    reorder: rng.next() * 0.1,
    duplicate: rng.next() * 0.1,
    bandwidthBps: rng.bool(0.3) ? rng.range(40_000, 400_000) : 0,
    maxQueueMs: 150,
  };
}

interface Delivery extends Got {
  readonly role: 'host' | 'client';
  readonly def: MsgDef;
}

/** Records every call one side receives, in delivery order. */
function recorder(defs: MsgDef[], log: Delivery[]): (side: StreamSide) => void {
  return (side) => {
    for (const def of defs) {
      side.s.rpc.on(def, (p) =>
        log.push({ role: side.role, def, id: p.id, word: p.word, n: p.n, note: p.note }),
      );
    }
  };
}

/** Params and table strings intact; each event at most once; every reliable one in; newest of each reliable-sequenced lane in. */
function checkDelivery(seed: number, sent: Sent[], got: Delivery[]): void {
  const msg = `seed ${seed}`;
  const byId = new Map(sent.map((s) => [s.id, s]));
  const seen = new Set<number>();
  for (const g of got) {
    const s = byId.get(g.id);
    check(s?.def === g.def, `${msg} ${g.def.name} id ${g.id} was not sent as this class`);
    check(g.word === s?.word, `${msg} id ${g.id} table string ${g.word} !== ${s?.word}`);
    check(g.n === s?.n && g.note === `note ${g.id}`, `${msg} id ${g.id} params`);
    check(!seen.has(g.id), `${msg} id ${g.id} delivered twice`);
    seen.add(g.id);
  }
  const newestSequenced = new Map<number, Sent>();
  for (const s of sent) {
    const p = s.def.policy;
    if (p === 'reliableSequenced') newestSequenced.set(s.def.channel, s);
    else if (isReliable(p)) check(seen.has(s.id), `${msg} id ${s.id} ${s.def.name} lost`);
  }
  for (const s of newestSequenced.values()) {
    check(seen.has(s.id), `${msg} newest reliable-sequenced id ${s.id} lost`);
  }
}

/** One seed: a random impairment, rates and traffic both ways for 1 s, then a healed path until reliable data is in. */
function runSeed(seed: number, totals: Record<string, number>): void {
  const rng = new Rng(seed ^ 0x5eed);
  const { registry, defs } = makeRegistry();
  const log: Delivery[] = [];
  const rates = [RATE_PRESETS.modem, RATE_PRESETS.broadband, RATE_PRESETS.lan];
  const pair = makeStreamPair({
    seed,
    registry,
    conditions: randomConditions(rng),
    hostRate: rng.pick(rates),
    clientRate: rng.pick(rates),
    stack: { strings: { size: 8, maxEntryBytes: 16 }, window: rng.pick([8, 32, 128]) },
    setup: recorder(defs, log),
  });
  const { sim } = pair;
  const sent = { host: [] as Sent[], client: [] as Sent[] };
  let nextId = 1;
  const trafficEnd = sim.now + 1_000;
  let barriers = 0;
  sim.every(rng.range(10, 40), (now) => {
    if (now > trafficEnd) return;
    for (const side of [pair.hostSide, pair.clientSide]) {
      const unsettled = side.s.rpc.events.unsettled;
      check(unsettled >= 0, `seed ${seed} ${side.role}: unsettled ${unsettled}`);
      // The barrier: nothing unsettled means everything sent that must arrive has been delivered.
      if (unsettled === 0 && sent[side.role].length > 0) {
        barriers++;
        const to = side.role === 'host' ? 'client' : 'host';
        checkDelivery(
          seed,
          sent[side.role],
          log.filter((l) => l.role === to),
        );
      }
      const n = rng.bool(0.05) ? rng.range(5, 40) : rng.bool(0.6) ? rng.range(1, 3) : 0;
      for (let i = 0; i < n; i++) {
        const def = rng.pick(defs);
        const s: Sent = { def, id: nextId++, word: rng.pick(VOCAB), n: rng.range(-1000, 1000) };
        side.s.rpc.send(def, { id: s.id, word: s.word, n: s.n, note: `note ${s.id}` });
        sent[side.role].push(s);
      }
    }
  });
  sim.runUntil(trafficEnd + 50);
  pair.net.setDefaults(NO_IMPAIRMENT);
  const idle = (): boolean =>
    [pair.hostSide, pair.clientSide].every(
      (s) => s.s.rpc.events.queueLength === 0 && s.s.scheduler.packetsInFlight === 0,
    );
  expect(sim.runUntilTrue(idle, trafficEnd + 60_000), `seed ${seed}: queues never drained`).toBe(
    true,
  );
  for (const side of [pair.hostSide, pair.clientSide])
    expect(side.s.rpc.events.unsettled, `seed ${seed} ${side.role} unsettled when idle`).toBe(0);
  totals.barriers = (totals.barriers ?? 0) + barriers;
  expect(pair.hostSide.conn?.isOpen, `seed ${seed} host open`).toBe(true);
  expect(pair.clientSide.conn?.isOpen, `seed ${seed} client open`).toBe(true);
  for (const side of [pair.hostSide, pair.clientSide]) {
    const { events, strings } = side.s.rpc;
    totals.resent = (totals.resent ?? 0) + events.counters.resent;
    totals.superseded = (totals.superseded ?? 0) + events.counters.superseded;
    totals.unreliableDropped = (totals.unreliableDropped ?? 0) + events.counters.unreliableDropped;
    totals.duplicates = (totals.duplicates ?? 0) + events.inbox.duplicates;
    totals.buffered = (totals.buffered ?? 0) + events.inbox.maxBuffered;
    totals.evictions = (totals.evictions ?? 0) + strings.counters.evictions;
    totals.byId = (totals.byId ?? 0) + strings.counters.byId;
    totals.delivered = (totals.delivered ?? 0) + log.length;
    totals.datagrams = (totals.datagrams ?? 0) + pair.net.log.length / 2;
    totals.simMs = (totals.simMs ?? 0) + sim.now / 2;
  }
  for (const [from, to] of [
    ['client', 'host'],
    ['host', 'client'],
  ] as const) {
    const got = log.filter((l) => l.role === to);
    checkDelivery(seed, sent[from], got);
    checkOrder(
      seed,
      sent[from],
      got.map((l) => l.id),
    );
  }
}

/** Ordered streams deliver in send order; sequenced lanes never deliver an older event after a newer one. */
function checkOrder(seed: number, sent: Sent[], deliveredIds: number[]): void {
  const sentById = new Map(sent.map((s) => [s.id, s]));
  const lastPos = new Map<string, number>();
  const orderedNext = new Map<number, Sent[]>();
  for (const s of sent) {
    if (isOrderedStream(s.def.policy))
      orderedNext.set(s.def.channel, [...(orderedNext.get(s.def.channel) ?? []), s]);
  }
  const sentIndex = new Map(sent.map((s, i) => [s.id, i]));
  for (const id of deliveredIds) {
    const s = sentById.get(id);
    if (s === undefined) continue;
    if (isOrderedStream(s.def.policy)) {
      const queue = orderedNext.get(s.def.channel) ?? [];
      check(
        queue.shift()?.id === id,
        `seed ${seed}: channel ${s.def.channel} out of order at id ${id}`,
      );
    } else if (s.def.policy === 'unreliableSequenced' || s.def.policy === 'reliableSequenced') {
      const key = `${s.def.policy}${s.def.channel}`;
      const pos = sentIndex.get(id) ?? -1;
      check(
        pos > (lastPos.get(key) ?? -1),
        `seed ${seed}: ${key} delivered id ${id} after a newer one`,
      );
      lastPos.set(key, pos);
    }
  }
}

describe('event manager over a simulated path', () => {
  it(`delivers by policy: reliable exactly once, ordered in order, sequenced never backwards (${SEEDS} seeds)`, () => {
    const totals: Record<string, number> = {};
    for (let seed = 1; seed <= SEEDS; seed++) runSeed(seed, totals);
    if (process.env.GB_SIM_VERBOSE) console.log(totals);
    // The seeds must exercise resends, supersession, priority drops, quickest repeats, early buffering, eviction
    // and moments mid-traffic when a side had nothing unsettled.
    for (const k of [
      'resent',
      'superseded',
      'unreliableDropped',
      'duplicates',
      'buffered',
      'evictions',
      'byId',
      'barriers',
    ]) {
      expect(totals[k] ?? 0, `${k} never happened`).toBeGreaterThan(SEEDS);
    }
  }, 180_000);
});
