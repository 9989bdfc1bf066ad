// Test kit: a host and peers running whiteboard sessions over the simulated network, with
// every event they report recorded. Knows nothing of the CLI or the UI.
import type { PeerAddress } from '../../net/address';
import { Rng } from '../../net/rng';
import { SimHarness } from '../../net/testing/harness';
import type { Impairment } from '../../net/impairment';
import { NO_IMPAIRMENT } from '../../net/impairment';
import { SimNetwork } from '../../net/testing/network';
import type { Board } from '../board';
import type { HostSessionOptions } from '../host';
import { HostSession } from '../host';
import { PeerSession } from '../peer';
import { RawPeer } from '../raw-peer';
import type { SessionEvent } from '../session-events';
import type { SessionRate } from '../connection-stack';
import type { Role } from '../protocol';
import type { BoardLimits, PeerLimits } from '../peer-limits';
import type { ImageLimits } from '../host-images';

export const SIM_HOST_ADDRESS: PeerAddress = { address: '127.0.0.1', port: 7350 };
export const SIM_CODE = 'SIMUL-ATION1';

export interface SimSession {
  readonly net: SimNetwork;
  readonly sim: SimHarness;
  readonly rng: Rng;
  readonly host: HostSession;
  readonly hostEvents: SessionEvent[];
  readonly peers: PeerSession[];
  readonly peerEvents: SessionEvent[][];
  /** Bare connections the tests drive by hand (they say hello only if told to). */
  readonly raws: RawPeer[];
  /** Adds a peer that joins now (from 127.0.1.N unless told); returns its index. */
  addPeer(name: string, o?: { code?: string; viewer?: boolean; from?: PeerAddress }): number;
  /** Connects a bare client now (from its own address, 127.0.2.N). */
  addRaw(): RawPeer;
}

export function makeSimSession(o: {
  seed: number;
  /** The host's join code (SIM_CODE unless told); peers join with it unless told otherwise. */
  code?: string;
  conditions?: Impairment;
  board?: Board;
  lockTimeoutMs?: number;
  rate?: SessionRate;
  maxPeers?: number;
  maxConnectionsPerAddress?: number;
  joinRole?: Role;
  peerLimits?: Partial<PeerLimits>;
  boardLimits?: Partial<BoardLimits>;
  imageLimits?: Partial<ImageLimits>;
  executor?: HostSessionOptions['executor'];
  upstreamPackets?: number;
  downstreamPackets?: number;
}): SimSession {
  const rng = new Rng(o.seed);
  const net = new SimNetwork(rng, o.conditions ?? NO_IMPAIRMENT);
  net.logging = false;
  const sim = new SimHarness(net);
  const host = new HostSession(
    {
      name: 'Host',
      joinCode: o.code ?? SIM_CODE,
      ...(o.board ? { board: o.board } : {}),
      lockTimeoutMs: o.lockTimeoutMs ?? 15_000,
      ...(o.rate ? { rate: o.rate } : {}),
      ...(o.maxPeers === undefined ? {} : { maxPeers: o.maxPeers }),
      ...(o.maxConnectionsPerAddress === undefined
        ? {}
        : { maxConnectionsPerAddress: o.maxConnectionsPerAddress }),
      ...(o.joinRole === undefined ? {} : { joinRole: o.joinRole }),
      ...(o.peerLimits === undefined ? {} : { peerLimits: o.peerLimits }),
      ...(o.boardLimits === undefined ? {} : { boardLimits: o.boardLimits }),
      ...(o.imageLimits === undefined ? {} : { imageLimits: o.imageLimits }),
      ...(o.executor === undefined ? {} : { executor: o.executor }),
      ...(o.upstreamPackets === undefined ? {} : { upstreamPackets: o.upstreamPackets }),
      ...(o.downstreamPackets === undefined ? {} : { downstreamPackets: o.downstreamPackets }),
    },
    0,
  );
  const hostEvents: SessionEvent[] = [];
  host.on((e) => hostEvents.push(e));
  sim.add(SIM_HOST_ADDRESS, host.endpoint);
  const peers: PeerSession[] = [];
  const peerEvents: SessionEvent[][] = [];
  const raws: RawPeer[] = [];
  sim.every(5, (now) => {
    host.afterIo(now);
    for (const p of peers) p.afterIo(now);
  });
  sim.every(100, (now) => {
    host.tick(now);
    for (const p of peers) p.tick(now);
    for (const r of raws) r.tick(now);
  });
  const s: SimSession = {
    net,
    sim,
    rng,
    host,
    hostEvents,
    peers,
    peerEvents,
    raws,
    addPeer(name, po = {}) {
      const p = new PeerSession(
        {
          name,
          joinCode: po.code ?? o.code ?? SIM_CODE,
          viewer: po.viewer ?? false,
          ...(o.rate ? { rate: o.rate } : {}),
        },
        sim.now,
      );
      const events: SessionEvent[] = [];
      p.on((e) => events.push(e));
      const i = peers.length;
      peers.push(p);
      peerEvents.push(events);
      sim.add(po.from ?? { address: `127.0.1.${i + 1}`, port: 9000 + i }, p.endpoint);
      p.connect(sim.now, SIM_HOST_ADDRESS);
      return i;
    },
    addRaw() {
      const r = new RawPeer(sim.now, SIM_CODE);
      raws.push(r);
      sim.add({ address: `127.0.2.${raws.length}`, port: 9500 + raws.length }, r.endpoint);
      r.endpoint.connect(sim.now, SIM_HOST_ADDRESS);
      return r;
    },
  };
  return s;
}
