// Test kit: N mirrors (MirrorNode: links, clock offsets, CRIMP) over the stack's SimNetwork in virtual time, each
// listening on one address and dialling from another, every mirror dialling the ones with lower ids; each with
// its own skewed clock. Records deliveries. Knows nothing of payloads.
import type { PeerAddress } from '../../net/address';
import type { Impairment } from '../../net/impairment';
import { NO_IMPAIRMENT } from '../../net/impairment';
import { Rng } from '../../net/rng';
import type { SimEndpoint } from '../../net/testing/harness';
import { SimHarness } from '../../net/testing/harness';
import { SimNetwork } from '../../net/testing/network';
import type { CrimpConfig } from '../crimp';
import type { MirrorId } from '../mirror-id';
import { Mirror } from '../mirror';
import type { LinkStreams } from '../mirror-links';
import { MirrorNode } from '../mirror-node';
import type { TraceRecord } from '../trace';

export const listenAddress = (id: number): PeerAddress => ({
  address: `10.1.0.${id + 1}`,
  port: 8000,
});
export const dialAddress = (id: number): PeerAddress => ({
  address: `10.1.0.${id + 1}`,
  port: 8001,
});

/** A node's two sockets as the harness sees them. */
export function simSides(node: {
  handleDatagram(
    now: number,
    side: 'listener' | 'dialer',
    from: PeerAddress,
    bytes: Uint8Array,
  ): void;
  handleTimeout(now: number): void;
  nextTimeout(): number;
  pollTransmit(side: 'listener' | 'dialer'): ReturnType<SimEndpoint['pollTransmit']>;
}): Record<'listener' | 'dialer', SimEndpoint> {
  const side = (s: 'listener' | 'dialer'): SimEndpoint => ({
    handleDatagram: (now, from, bytes) => node.handleDatagram(now, s, from, bytes),
    handleTimeout: (now) => node.handleTimeout(now),
    nextTimeout: () => node.nextTimeout(),
    pollTransmit: () => node.pollTransmit(s),
  });
  return { listener: side('listener'), dialer: side('dialer') };
}

export interface MeshMirror {
  readonly id: MirrorId;
  readonly node: MirrorNode;
  /** This mirror's clock at the simulation's time. */
  readonly clock: (now: number) => number;
  /** Deliveries by `origin:seq`, with how many times each came. */
  readonly deliveries: Map<string, number>;
}

export interface MeshOptions {
  readonly seed: number;
  readonly mirrors: number;
  readonly secret?: string;
  /** Each direction between two mirrors' addresses (from, to). */
  readonly conditions?: (from: MirrorId, to: MirrorId) => Impairment;
  /** Clock offsets (ms) and drifts (ms per ms) drawn at random within these. */
  readonly maxOffsetMs?: number;
  readonly maxDrift?: number;
  readonly crimp?: Partial<CrimpConfig>;
}

export const MESH_SECRET = 'K7QX2M9TRDK7QX2M9TRDK7QX2M';

export class MirrorMesh {
  readonly rng: Rng;
  readonly net: SimNetwork;
  readonly sim: SimHarness;
  readonly mirrors: MeshMirror[] = [];
  readonly originated = new Set<string>();

  constructor(o: MeshOptions) {
    this.rng = new Rng(o.seed);
    this.net = new SimNetwork(new Rng(o.seed ^ 0x3e5b), NO_IMPAIRMENT);
    this.sim = new SimHarness(this.net);
    const ids = Array.from({ length: o.mirrors }, (_, i) => i);
    if (o.conditions !== undefined) {
      for (const a of ids) {
        for (const b of ids) {
          if (a === b) continue;
          for (const from of [listenAddress(a), dialAddress(a)])
            for (const to of [listenAddress(b), dialAddress(b)])
              this.net.setConditions(from, to, o.conditions(a, b));
        }
      }
    }
    for (const id of ids) {
      const offset = (this.rng.next() * 2 - 1) * (o.maxOffsetMs ?? 0);
      const drift = (this.rng.next() * 2 - 1) * (o.maxDrift ?? 0);
      const clock = (now: number): number => offset + now * (1 + drift);
      const deliveries = new Map<string, number>();
      const node = new MirrorNode({
        self: id,
        members: ids,
        secret: o.secret ?? MESH_SECRET,
        rng: new Rng(o.seed * 64 + id),
        now: 0,
        clock,
        ...(o.crimp === undefined ? {} : { crimp: o.crimp }),
        deliver: (origin, seq) => {
          const key = `${origin}:${seq}`;
          deliveries.set(key, (deliveries.get(key) ?? 0) + 1);
        },
      });
      const sides = simSides(node);
      this.sim.add(listenAddress(id), sides.listener);
      this.sim.add(dialAddress(id), sides.dialer);
      this.mirrors.push({ id, node, clock, deliveries });
    }
    for (const m of this.mirrors)
      for (let to = 0; to < m.id; to++) m.node.connect(0, listenAddress(to));
  }

  originate(m: MeshMirror, payload: Uint8Array): boolean {
    const r = m.node.originate(this.sim.now, payload);
    if (r.kind === 'sent') this.originated.add(`${m.id}:${r.seq}`);
    return r.kind === 'sent';
  }

  /** Every mirror linked to every other. */
  allLinked(): boolean {
    return this.mirrors.every((m) => m.node.links.linked().length === this.mirrors.length - 1);
  }
}

/** Every direction between every two mirrors' addresses (listening and dialling) takes `link`. */
export function linkMirrors(net: SimNetwork, ids: readonly number[], link: Impairment): void {
  for (const a of ids)
    for (const b of ids) {
      if (a === b) continue;
      for (const from of [listenAddress(a), dialAddress(a)])
        for (const to of [listenAddress(b), dialAddress(b)]) net.setConditions(from, to, link);
    }
}

/**
 * One mirror of a seeded test group: its clock skewed and drifting (up to maxOffsetMs and maxDrift, drawn from
 * `rng`), every command it receives recorded in `trace`.
 */
export function skewedMirror(
  config: {
    readonly seed: number;
    readonly maxOffsetMs: number;
    readonly maxDrift: number;
    readonly delays: readonly number[];
  },
  rng: Rng,
  id: MirrorId,
  ids: readonly MirrorId[],
  trace: TraceRecord[],
  linkStreams?: readonly LinkStreams[],
): Mirror {
  const offset = (rng.next() * 2 - 1) * config.maxOffsetMs;
  const drift = (rng.next() * 2 - 1) * config.maxDrift;
  return new Mirror({
    self: id,
    members: ids,
    secret: MESH_SECRET,
    rng: new Rng(config.seed * 64 + id),
    now: 0,
    clock: (now) => offset + now * (1 + drift),
    delays: config.delays,
    record: (r) => trace.push(r),
    ...(linkStreams === undefined ? {} : { linkStreams }),
  });
}
