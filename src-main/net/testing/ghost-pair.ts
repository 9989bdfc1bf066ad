// Test kit: the simulated pair (pair.ts) with each connection driven by a test-only "one manager per packet"
// handler that carries only the ghost section. Knows nothing of sessions or the scheduler.
import type { CloseInfo } from '../close-reason';
import type { Connection } from '../connection';
import type { Impairment } from '../impairment';
import type { Rng } from '../rng';
import type { SimHarness } from './harness';
import type { SimNetwork } from './network';
import { makeSimPair } from './pair';
import type { Pointer, Shape } from './ghost-classes';
import { testRegistry } from './ghost-classes';
import type { GhostRegistry } from '../ghost/ghost-class';
import { GhostManager } from '../ghost/ghost-manager';
import type { GhostPacketRecord, GhostScopeFn } from '../ghost/ghost-sender';
import { GhostDomain } from '../ghost/ghost-source';

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
  readonly conditions?: Impairment;
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

/** Builds the pair, starts the handshake and the send ticker; call `sim.runUntil` to move time. */
export function makeGhostPair(o: GhostPairOptions): GhostPair {
  const registry = testRegistry();
  const host = new GhostPeer(registry, o.hostScope, o);
  const client = new GhostPeer(registry, undefined, o);
  const { rng, net, sim } = makeSimPair<GhostPacketRecord>(
    {
      seed: o.seed,
      joinCode: 'GHOST-TEST1',
      ...(o.conditions ? { conditions: o.conditions } : {}),
    },
    (role) => {
      const peer = role === 'host' ? host : client;
      return (conn) => {
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
      };
    },
  );
  net.logging = false;
  const budget = o.budgetBits ?? Infinity;
  sim.every(o.tickMs ?? 20, (now) => {
    o.onTick?.(now);
    host.tick(now, budget);
    client.tick(now, budget);
  });
  return { rng, net, sim, host, client };
}
