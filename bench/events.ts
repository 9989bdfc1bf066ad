// Event benchmark: what each delivery policy adds to a message beyond its RPC id and params in steady traffic,
// and send-to-delivery latency at 10% loss, 50 ms one way, 30 packets/s, over the simulated link.
import { Rng } from '../src-main/net/rng';
import { NO_IMPAIRMENT } from '../src-main/net/impairment';
import type { Policy } from '../src-main/net/stream/event-types';
import { POLICIES } from '../src-main/net/stream/event-types';
import { uint } from '../src-main/net/stream/params';
import { RATE_PRESETS } from '../src-main/net/stream/rate';
import type { RpcDef } from '../src-main/net/stream/rpc';
import { RpcRegistry } from '../src-main/net/stream/rpc';
import { makeStreamPair } from '../src-main/net/testing/stream-pair';

const params = { id: uint(20), x: uint(12), y: uint(12) };
type Def = RpcDef<typeof params>;
const TICK_MS = 1000 / 30;

function registry(urgent: boolean): { registry: RpcRegistry; defs: Record<Policy, Def> } {
  const registry = new RpcRegistry();
  const defs = {} as Record<Policy, Def>;
  POLICIES.forEach((policy, i) => {
    defs[policy] = registry.register(policy, { policy, channel: i, priority: 3, urgent, params });
  });
  return { registry, defs };
}

interface Run {
  readonly overheadBits: Record<Policy, number>;
  readonly latencies: Record<Policy, number[]>;
}

/** Both policies' streams from client to host: `perTick` messages of each policy every 1/30 s for `seconds`. */
function simulate(o: {
  loss: number;
  perTick: number;
  seconds: number;
  urgent: boolean;
  seed: number;
}): Run {
  const { registry: reg, defs } = registry(o.urgent);
  const sentAt = new Map<number, number>();
  const latencies = Object.fromEntries(POLICIES.map((p) => [p, [] as number[]])) as Record<
    Policy,
    number[]
  >;
  const pair = makeStreamPair({
    seed: o.seed,
    registry: reg,
    conditions: { ...NO_IMPAIRMENT, delayMs: 50, loss: o.loss },
    hostRate: RATE_PRESETS.broadband,
    clientRate: RATE_PRESETS.broadband,
    setup: (side) => {
      for (const policy of POLICIES) {
        side.s.rpc.on(defs[policy], (m, now) =>
          latencies[policy].push(now - (sentAt.get(m.id) ?? now)),
        );
      }
    },
  });
  pair.net.logging = false;
  const { sim } = pair;
  const start = sim.now + 1_000;
  sim.runUntil(start);
  const rpc = pair.clientSide.s.rpc;
  const bitsBefore = structuredClone(rpc.events.bits);
  let id = 0;
  // Sends land at random times (on average perTick per policy per 1/30 s), unrelated to the packet ticks, as
  // user input does.
  const rng = new Rng(o.seed);
  sim.every(1, (now) => {
    if (now > start + o.seconds * 1000) return;
    for (const policy of POLICIES) {
      if (!rng.bool(o.perTick / TICK_MS)) continue;
      sentAt.set(++id, now);
      rpc.send(defs[policy], { id: id % 2 ** 20, x: id % 4096, y: (id * 7) % 4096 });
    }
  });
  sim.runUntil(start + o.seconds * 1000 + 5_000);
  const b = rpc.events.bits;
  const overheadBits = {} as Record<Policy, number>;
  for (const p of POLICIES) {
    const events = b.events[p] - bitsBefore.events[p];
    const extra = b.total[p] - bitsBefore.total[p] - (b.payload[p] - bitsBefore.payload[p]);
    overheadBits[p] = round(extra / Math.max(1, events));
  }
  return { overheadBits, latencies };
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}

function percentiles(xs: number[]): { p50: number; p95: number; p99: number; n: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number): number =>
    round(s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN);
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), n: s.length };
}

export async function run(): Promise<Record<string, unknown>> {
  await Promise.resolve();
  const steady = simulate({ loss: 0, perTick: 4, seconds: 30, urgent: false, seed: 1 });
  const single = simulate({ loss: 0, perTick: 1, seconds: 30, urgent: false, seed: 2 });
  const lossy = simulate({ loss: 0.1, perTick: 1, seconds: 60, urgent: false, seed: 3 });
  const lossyUrgent = simulate({ loss: 0.1, perTick: 1, seconds: 60, urgent: true, seed: 4 });
  return {
    overheadBits: steady.overheadBits,
    latencyMs: {
      reliableOrdered: percentiles(lossy.latencies.reliableOrdered),
      quickest: percentiles(lossy.latencies.quickest),
    },
    notes: {
      overheadBits:
        'steady: on average 4 events of each policy per 1/30 s at random times, clean link, 50 ms one way, 30 x 1000 B',
      latencyMs:
        'on average 1 event of each policy per 1/30 s at random times, 10% loss each way, 50 ms one way, 30 packets/s, not urgent',
    },
    overheadBitsOnePerPacket: single.overheadBits,
    overheadBitsAt10PctLoss: lossy.overheadBits,
    latencyMsUrgent: {
      reliableOrdered: percentiles(lossyUrgent.latencies.reliableOrdered),
      quickest: percentiles(lossyUrgent.latencies.quickest),
    },
  };
}
