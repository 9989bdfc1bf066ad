// Ghost benchmark: bits of one pointer-sized update, how long a board takes to converge after a 2 s outage,
// and how the adaptive rate tracks a bandwidth cap that changes during the run. All over the simulated link,
// through the real scheduler, event manager and ghost manager.
import { DEFAULT_CONNECTION_OPTIONS } from '../src-main/net/connection';
import type { Connection } from '../src-main/net/connection';
import { Endpoint } from '../src-main/net/endpoint';
import { defineGhostClass, GhostRegistry } from '../src-main/net/ghost/ghost-class';
import { pointerUpdateBits } from '../src-main/net/testing/ghost-figures';
import { GhostManager } from '../src-main/net/ghost/ghost-manager';
import type { GhostSource } from '../src-main/net/ghost/ghost-source';
import { GhostDomain } from '../src-main/net/ghost/ghost-source';
import { Rng } from '../src-main/net/rng';
import { SimHarness } from '../src-main/net/testing/harness';
import { NO_IMPAIRMENT } from '../src-main/net/impairment';
import { SimNetwork } from '../src-main/net/testing/network';
import { SIM_CLIENT, SIM_HOST, SIM_VERSION } from '../src-main/net/testing/pair';
import { runCapTracking } from '../src-main/net/testing/cap-tracking';
import { RATE_PRESETS } from '../src-main/net/stream/rate';
import { RpcRegistry } from '../src-main/net/stream/rpc';
import type { PacketRecord } from '../src-main/net/stream/scheduler';
import { createEventStack } from '../src-main/net/stream/stack';

interface Obj {
  x: number;
  y: number;
}

const Box = defineGhostClass<Obj, Obj>({
  name: 'box',
  createGhost: () => ({ x: 0, y: 0 }),
  groups: [
    {
      name: 'pos',
      pack: (w, o) => {
        w.writeRanged(o.x, -1_000_000, 1_000_000);
        w.writeRanged(o.y, -1_000_000, 1_000_000);
      },
      unpack: (r, g) => {
        g.x = r.readRanged(-1_000_000, 1_000_000);
        g.y = r.readRanged(-1_000_000, 1_000_000);
      },
    },
  ],
});

/** 200 objects change during a 2 s outage; ms from the heal until every ghost equals its source. */
function convergenceMs(seed: number): number {
  const rng = new Rng(seed);
  const net = new SimNetwork(rng, { ...NO_IMPAIRMENT, delayMs: 40, jitterMs: 5 });
  net.logging = false;
  const sim = new SimHarness(net);
  const registry = new GhostRegistry([Box]);
  const domain = new GhostDomain(registry);
  const objects: { o: Obj; src: GhostSource<Obj> }[] = [];
  for (let i = 0; i < 200; i++) {
    const o = { x: rng.range(-5000, 5000), y: rng.range(-5000, 5000) };
    objects.push({ o, src: domain.add(Box, o, { always: true }) });
  }
  const ghosts: Obj[] = [];
  const rpcs = new RpcRegistry();
  const make = (role: 'host' | 'client'): Endpoint<PacketRecord> =>
    new Endpoint<PacketRecord>(
      role,
      {
        joinCode: 'BENCH-CODE1',
        protocolVersion: SIM_VERSION,
        connection: DEFAULT_CONNECTION_OPTIONS,
      },
      (conn: Connection<PacketRecord>) => {
        const manager =
          role === 'host'
            ? new GhostManager({ registry, domain })
            : new GhostManager({
                registry,
                events: { created: (_now, g) => void ghosts.push(g as Obj) },
              });
        return createEventStack(conn, {
          registry: rpcs,
          rate: RATE_PRESETS.broadband,
          after: [manager],
        }).scheduler;
      },
      0,
    );
  const host = make('host');
  const client = make('client');
  sim.add(SIM_HOST, host);
  sim.add(SIM_CLIENT, client);
  client.connect(0, SIM_HOST);
  const move = (): void => {
    for (let k = 0; k < 20; k++) {
      const e = rng.pick(objects);
      e.o.x += rng.range(-50, 50);
      e.o.y += rng.range(-50, 50);
      e.src.markDirty(Box.allMask);
    }
  };
  sim.every(50, () => {
    if (sim.now < 7000) move();
  });
  sim.runUntil(5000);
  net.setDefaults({ ...NO_IMPAIRMENT, loss: 1 });
  sim.runUntil(7000);
  net.setDefaults({ ...NO_IMPAIRMENT, delayMs: 40, jitterMs: 5 });
  const healedAt = sim.now;
  const matches = (): boolean =>
    ghosts.length === objects.length &&
    objects.every((e) => ghosts.some((g) => g.x === e.o.x && g.y === e.o.y));
  if (!sim.runUntilTrue(matches, healedAt + 30_000))
    throw new Error(`seed ${seed}: did not converge`);
  return sim.now - healedAt;
}

/** A greedy sender through a bottleneck whose cap changes every 20 s: achieved rate and loss per phase. */
function capTracking(seed: number) {
  const phases = runCapTracking(seed, [400, 200, 100, 200, 64]);
  return {
    capKbps: phases.map((p) => p.capKbps),
    achievedKbps: phases.map((p) => round(p.achievedKbps)),
    lossPct: phases.map((p) => round(p.lossPct)),
    note: 'second half of each 20 s phase; bulk reliable events',
  };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

export function run(): Promise<Record<string, unknown>> {
  const bits = pointerUpdateBits(40);
  const conv = [1, 2, 3, 4, 5].map(convergenceMs);
  return Promise.resolve({
    pointerUpdateBits: bits.packetBits,
    pointerUpdate: { ...bits, liveGhosts: 40, coordinateRange: '±1,000,000' },
    convergenceMs: Math.max(...conv),
    convergenceMsBySeed: conv.map(round),
    capTracking: capTracking(77),
  });
}
