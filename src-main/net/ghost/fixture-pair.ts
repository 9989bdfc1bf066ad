// Test fixture: a host and a client endpoint over a SimNetwork, each connection driven by a test-only "one
// manager per packet" handler that carries only the ghost section. Knows nothing of sessions or the scheduler.
import type { CloseInfo } from '../close-reason';
import type { Connection } from '../connection';
import { DEFAULT_CONNECTION_OPTIONS } from '../connection';
import { Endpoint } from '../endpoint';
import { Rng } from '../rng';
import { SimHarness } from '../sim/harness';
import type { LinkConditions } from '../sim/link';
import { PERFECT_LINK, SimNetwork } from '../sim/link';
import { SIM_CLIENT, SIM_HOST, SIM_VERSION } from '../sim/pair';
import type { Pointer, Shape } from './fixture-classes';
import { testRegistry } from './fixture-classes';
import type { GhostRegistry } from './ghost-class';
import { GhostManager } from './ghost-manager';
import type { GhostPacketRecord, GhostScopeFn } from './ghost-sender';
import { GhostDomain } from './ghost-source';

/** One side: its objects, its ghost manager, and the peer's ghosts it has received. */
export class GhostPeer {
  conn: Connection<GhostPacketRecord> | undefined;
  closed: CloseInfo | undefined;
  readonly domain: GhostDomain;
  readonly ghosts: GhostManager;
  /** Received shapes by key; received pointers. */
  readonly shapes = new Map<number, Shape>();
  readonly pointers = new Set<Pointer>();
  /** Ghost sections this side read. */
  sectionsRead = 0;

  constructor(registry: GhostRegistry, scope: GhostScopeFn | undefined, o: GhostPairOptions) {
    this.domain = new GhostDomain(registry);
    this.ghosts = new GhostManager({
      registry,
      domain: this.domain,
      ...(scope === undefined ? {} : { scope }),
      ...(o.scopeIntervalMs === undefined ? {} : { scopeIntervalMs: o.scopeIntervalMs }),
      ...(o.maxGhosts === undefined ? {} : { maxGhosts: o.maxGhosts }),
      events: {
        created: (_now, g, classId) => {
          if (classId === 0) this.shapes.set((g as Shape).key, g as Shape);
          else if (classId === 1) this.pointers.add(g as Pointer);
        },
        deleted: (_now, g, classId) => {
          if (classId === 0) this.shapes.delete((g as Shape).key);
          else if (classId === 1) this.pointers.delete(g as Pointer);
        },
      },
    });
  }

  /** Sends one ghost packet if there is demand and the window has room. */
  tick(now: number, budgetBits: number): void {
    const c = this.conn;
    if (c?.isOpen !== true || this.ghosts.demand(now) === 'none') return;
    c.send(now, (w, budget) => this.ghosts.write(now, w, Math.min(budget, budgetBits)));
  }
}

export interface GhostPairOptions {
  readonly seed: number;
  readonly conditions?: LinkConditions;
  /** Application tick: each side sends at most one ghost packet per tick. Default 20 ms. */
  readonly tickMs?: number;
  /** Cap on the ghost section, bits (default: the whole packet). */
  readonly budgetBits?: number;
  readonly hostScope?: GhostScopeFn;
  readonly scopeIntervalMs?: number;
  readonly maxGhosts?: number;
  /** Runs every tick before the sides send (the app's simulation step). */
  readonly onTick?: (now: number) => void;
}

export interface GhostPair {
  readonly rng: Rng;
  readonly net: SimNetwork;
  readonly sim: SimHarness;
  readonly host: GhostPeer;
  readonly client: GhostPeer;
}

function endpoint(role: 'host' | 'client', peer: GhostPeer): Endpoint<GhostPacketRecord> {
  const options = { joinCode: 'GHOST-TEST1', protocolVersion: SIM_VERSION };
  return new Endpoint<GhostPacketRecord>(
    role,
    { ...options, connection: DEFAULT_CONNECTION_OPTIONS },
    (conn) => {
      peer.conn = conn;
      return {
        onPayload: (now, r) => {
          peer.sectionsRead++;
          peer.ghosts.read(now, r);
        },
        onNotify: (now, record, delivered) => {
          peer.ghosts.notify(now, record, delivered);
        },
        onClosed: (_now, info) => {
          peer.closed = info;
        },
      };
    },
    0,
  );
}

/** Builds the pair, starts the handshake and the send ticker; call `sim.runUntil` to move time. */
export function makeGhostPair(o: GhostPairOptions): GhostPair {
  const rng = new Rng(o.seed);
  const net = new SimNetwork(rng, o.conditions ?? PERFECT_LINK);
  net.logging = false;
  const sim = new SimHarness(net);
  const registry = testRegistry();
  const host = new GhostPeer(registry, o.hostScope, o);
  const client = new GhostPeer(registry, undefined, o);
  const hostEp = endpoint('host', host);
  const clientEp = endpoint('client', client);
  sim.add(SIM_HOST, hostEp);
  sim.add(SIM_CLIENT, clientEp);
  clientEp.connect(0, SIM_HOST);
  const budget = o.budgetBits ?? Infinity;
  sim.every(o.tickMs ?? 20, (now) => {
    o.onTick?.(now);
    host.tick(now, budget);
    client.tick(now, budget);
  });
  return { rng, net, sim, host, client };
}
