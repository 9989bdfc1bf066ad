// Test and benchmark fixture: a host and a client endpoint, each connection running the event stack, over a
// SimNetwork in virtual time. Knows nothing of sessions or of the RPCs the caller registers.
import type { Connection, ConnectionOptions } from '../connection';
import { DEFAULT_CONNECTION_OPTIONS } from '../connection';
import { Endpoint } from '../endpoint';
import { Rng } from '../rng';
import { SimHarness } from '../sim/harness';
import type { Impairment } from '../impairment';
import { NO_IMPAIRMENT } from '../impairment';
import { SimNetwork } from '../sim/link';
import { SIM_CLIENT, SIM_HOST, SIM_VERSION } from '../sim/pair';
import type { RatePolicy } from './rate';
import { RATE_PRESETS } from './rate';
import type { RpcRegistry } from './rpc';
import type { PacketRecord } from './scheduler';
import type { EventStack, EventStackOptions } from './stack';
import { createEventStack } from './stack';

export type Role = 'host' | 'client';

export class StreamSide {
  conn: Connection<PacketRecord> | undefined;
  stack: EventStack | undefined;

  constructor(readonly role: Role) {}

  /** The stack, once the connection exists (throws before: a test bug). */
  get s(): EventStack {
    if (this.stack === undefined) throw new Error(`${this.role} has no connection yet`);
    return this.stack;
  }
}

export interface StreamPairOptions {
  readonly seed: number;
  readonly registry: RpcRegistry;
  readonly conditions?: Impairment;
  readonly connection?: Partial<ConnectionOptions>;
  readonly hostRate?: RatePolicy;
  readonly clientRate?: RatePolicy;
  readonly stack?: Partial<Omit<EventStackOptions, 'registry' | 'rate'>>;
  /** Called when a side's stack is built (register handlers here). */
  readonly setup?: (side: StreamSide) => void;
}

export interface StreamPair {
  readonly rng: Rng;
  readonly net: SimNetwork;
  readonly sim: SimHarness;
  readonly host: Endpoint<PacketRecord>;
  readonly client: Endpoint<PacketRecord>;
  readonly hostSide: StreamSide;
  readonly clientSide: StreamSide;
}

function makeEndpoint(
  side: StreamSide,
  o: StreamPairOptions,
  rate: RatePolicy,
): Endpoint<PacketRecord> {
  const connection: ConnectionOptions = { ...DEFAULT_CONNECTION_OPTIONS, ...o.connection };
  return new Endpoint<PacketRecord>(
    side.role,
    { joinCode: 'TEST1-CODE2', protocolVersion: SIM_VERSION, connection },
    (conn) => {
      side.conn = conn;
      side.stack = createEventStack(conn, { ...o.stack, registry: o.registry, rate });
      o.setup?.(side);
      return side.stack.scheduler;
    },
    0,
  );
}

/** Builds the pair and runs the handshake until both sides are open (throws if they never are). */
export function makeStreamPair(o: StreamPairOptions): StreamPair {
  const rng = new Rng(o.seed);
  const net = new SimNetwork(rng, o.conditions ?? NO_IMPAIRMENT);
  const sim = new SimHarness(net);
  const hostSide = new StreamSide('host');
  const clientSide = new StreamSide('client');
  const host = makeEndpoint(hostSide, o, o.hostRate ?? RATE_PRESETS.broadband);
  const client = makeEndpoint(clientSide, o, o.clientRate ?? RATE_PRESETS.broadband);
  sim.add(SIM_HOST, host);
  sim.add(SIM_CLIENT, client);
  client.connect(0, SIM_HOST);
  const open = sim.runUntilTrue(
    () => hostSide.conn?.isOpen === true && clientSide.conn?.isOpen === true,
    9_000,
  );
  if (!open) throw new Error(`seed ${o.seed}: handshake did not complete`);
  return { rng, net, sim, host, client, hostSide, clientSide };
}
