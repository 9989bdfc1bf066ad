// Test and benchmark fixture: a host and a client endpoint connected over a SimNetwork, with a simple
// application on each side that sends numbered packets and records what it learns. Knows nothing of sessions.
import type { PeerAddress } from '../address';
import type { Connection, ConnectionOptions } from '../connection';
import { DEFAULT_CONNECTION_OPTIONS } from '../connection';
import type { EndpointOptions } from '../endpoint';
import { Endpoint } from '../endpoint';
import { Rng } from '../rng';
import { SimHarness } from './harness';
import type { Impairment } from '../impairment';
import { NO_IMPAIRMENT } from '../impairment';
import { SimNetwork } from './link';

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

export interface PairOptions {
  readonly seed: number;
  readonly conditions?: Impairment;
  readonly connection?: Partial<ConnectionOptions>;
  readonly joinCode?: string;
  readonly clientJoinCode?: string;
  readonly endpoint?: Partial<EndpointOptions>;
}

export interface Pair {
  readonly rng: Rng;
  readonly net: SimNetwork;
  readonly sim: SimHarness;
  readonly host: Endpoint<number>;
  readonly client: Endpoint<number>;
  readonly hostSide: Side;
  readonly clientSide: Side;
}

function makeEndpoint(
  role: 'host' | 'client',
  side: Side,
  o: PairOptions,
  code: string,
): Endpoint<number> {
  const connection: ConnectionOptions = { ...DEFAULT_CONNECTION_OPTIONS, ...o.connection };
  return new Endpoint<number>(
    role,
    { joinCode: code, protocolVersion: SIM_VERSION, connection, ...o.endpoint },
    (conn) => {
      side.conn = conn;
      return {
        onPayload: (now, r) => {
          side.received.set(r.readUint(32), now);
        },
        onNotify: (now, id, delivered) => {
          side.notified.push({ id, delivered, at: now });
        },
      };
    },
    0,
  );
}

/** Builds the pair and starts the handshake; call `sim.runUntil` to move time. */
export function makePair(o: PairOptions): Pair {
  const rng = new Rng(o.seed);
  const net = new SimNetwork(rng, o.conditions ?? NO_IMPAIRMENT);
  const sim = new SimHarness(net);
  const hostSide = new Side(1_000_000);
  const clientSide = new Side(2_000_000);
  const code = o.joinCode ?? 'TEST1-CODE2';
  const host = makeEndpoint('host', hostSide, o, code);
  const client = makeEndpoint('client', clientSide, o, o.clientJoinCode ?? code);
  sim.add(SIM_HOST, host);
  sim.add(SIM_CLIENT, client);
  client.connect(0, SIM_HOST);
  return { rng, net, sim, host, client, hostSide, clientSide };
}
