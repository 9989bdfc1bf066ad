// Test kit: the one simulated pair (as quinn-proto's test Pair): a host and a client endpoint over a SimNetwork in
// virtual time, each connection handled as the caller says. The stream and ghost pairs are this pair with their
// own handlers; `makePair` gives each side a simple application that sends numbered packets and records what it
// learns. Knows nothing of sessions.
import type { PeerAddress } from '../address';
import type { Connection, ConnectionHandler, ConnectionOptions } from '../connection';
import { DEFAULT_CONNECTION_OPTIONS } from '../connection';
import type { EndpointOptions } from '../endpoint';
import { Endpoint } from '../endpoint';
import { Rng } from '../rng';
import { SimHarness } from './harness';
import type { Impairment } from '../impairment';
import { NO_IMPAIRMENT } from '../impairment';
import { SimNetwork } from './network';

export const SIM_HOST: PeerAddress = { address: '127.0.0.1', port: 4000 };
export const SIM_CLIENT: PeerAddress = { address: '127.0.0.2', port: 4001 };
export const SIM_VERSION = 1;

/** One side's view: packets it sent (by record id) and what it was told and received. */
export class Side {
  conn: Connection<number> | undefined;
  readonly sent: number[] = [];
  readonly notified: { id: number; delivered: boolean; at: number }[] = [];
  /** Record ids of the peer's packets whose payload this side processed, with the time. */
  readonly received = new Map<number, number>();
  nextId: number;

  constructor(idBase: number) {
    this.nextId = idBase;
  }

  /** Sends one packet carrying `count` 32-bit words, the first being its id. Returns false if the window is full. */
  sendOne(now: number, extraWords = 0): boolean {
    const conn = this.conn;
    if (conn === undefined) return false;
    const id = this.nextId;
    const ok = conn.send(now, (w) => {
      w.writeUint(id, 32);
      for (let i = 0; i < extraWords; i++) w.writeUint(i, 32);
      return id;
    });
    if (ok) {
      this.nextId++;
      this.sent.push(id);
    }
    return ok;
  }
}

export interface SimPairOptions {
  readonly seed: number;
  readonly conditions?: Impairment;
  readonly connection?: Partial<ConnectionOptions>;
  /** The host's join code (default TEST1-CODE2); the client's is the same unless `clientJoinCode` says. */
  readonly joinCode?: string;
  readonly clientJoinCode?: string;
  readonly endpoint?: Partial<EndpointOptions>;
}

/** The pair: one seeded RNG for the network, the network, the harness that drives both endpoints. */
export interface SimPair<R> {
  readonly rng: Rng;
  readonly net: SimNetwork;
  readonly sim: SimHarness;
  readonly host: Endpoint<R>;
  readonly client: Endpoint<R>;
}

/**
 * Builds the pair: the host at SIM_HOST and the client at SIM_CLIENT, each side's connections handled by what
 * `handler(role)` makes, and starts the handshake; call `sim.runUntil` to move time.
 */
export function makeSimPair<R>(
  o: SimPairOptions,
  handler: (role: 'host' | 'client') => (conn: Connection<R>) => ConnectionHandler<R>,
): SimPair<R> {
  const rng = new Rng(o.seed);
  const net = new SimNetwork(rng, o.conditions ?? NO_IMPAIRMENT);
  const sim = new SimHarness(net);
  const code = o.joinCode ?? 'TEST1-CODE2';
  const endpoint = (role: 'host' | 'client', joinCode: string): Endpoint<R> => {
    const connection: ConnectionOptions = { ...DEFAULT_CONNECTION_OPTIONS, ...o.connection };
    return new Endpoint<R>(
      role,
      { joinCode, protocolVersion: SIM_VERSION, connection, ...o.endpoint },
      handler(role),
      0,
    );
  };
  const host = endpoint('host', code);
  const client = endpoint('client', o.clientJoinCode ?? code);
  sim.add(SIM_HOST, host);
  sim.add(SIM_CLIENT, client);
  client.connect(0, SIM_HOST);
  return { rng, net, sim, host, client };
}

export type PairOptions = SimPairOptions;

/** The pair with numbered packets: each side's record of what it sent, was told and received. */
export interface Pair extends SimPair<number> {
  readonly hostSide: Side;
  readonly clientSide: Side;
}

/** Builds the pair of numbered-packet sides and starts the handshake; call `sim.runUntil` to move time. */
export function makePair(o: PairOptions): Pair {
  const hostSide = new Side(1_000_000);
  const clientSide = new Side(2_000_000);
  const pair = makeSimPair<number>(o, (role) => {
    const side = role === 'host' ? hostSide : clientSide;
    return (conn) => {
      side.conn = conn;
      return {
        onPayload: (now, r) => {
          side.received.set(r.readUint(32), now);
        },
        onNotify: (now, id, delivered) => {
          side.notified.push({ id, delivered, at: now });
        },
      };
    };
  });
  return { ...pair, hostSide, clientSide };
}
