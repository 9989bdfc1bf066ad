// Test kit: the simulated pair (pair.ts) with each connection running the event stack. Knows nothing of sessions
// or of the RPCs the caller registers.
import type { Connection, ConnectionOptions } from '../connection';
import type { Impairment } from '../impairment';
import type { SimPair } from './pair';
import { makeSimPair } from './pair';
import type { RatePolicy } from '../stream/rate';
import { RATE_PRESETS } from '../stream/rate';
import type { RpcRegistry } from '../stream/rpc';
import type { PacketRecord } from '../stream/scheduler';
import type { EventStack, EventStackOptions } from '../stream/stack';
import { createEventStack } from '../stream/stack';

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

export interface StreamPair extends SimPair<PacketRecord> {
  readonly hostSide: StreamSide;
  readonly clientSide: StreamSide;
}

/** Builds the pair and runs the handshake until both sides are open (throws if they never are). */
export function makeStreamPair(o: StreamPairOptions): StreamPair {
  const hostSide = new StreamSide('host');
  const clientSide = new StreamSide('client');
  const pair = makeSimPair<PacketRecord>(
    {
      seed: o.seed,
      ...(o.conditions ? { conditions: o.conditions } : {}),
      ...(o.connection ? { connection: o.connection } : {}),
    },
    (role) => {
      const side = role === 'host' ? hostSide : clientSide;
      const rate = (role === 'host' ? o.hostRate : o.clientRate) ?? RATE_PRESETS.broadband;
      return (conn) => {
        side.conn = conn;
        side.stack = createEventStack(conn, { ...o.stack, registry: o.registry, rate });
        o.setup?.(side);
        return side.stack.scheduler;
      };
    },
  );
  const open = pair.sim.runUntilTrue(
    () => hostSide.conn?.isOpen === true && clientSide.conn?.isOpen === true,
    9_000,
  );
  if (!open) throw new Error(`seed ${o.seed}: handshake did not complete`);
  return { ...pair, hostSide, clientSide };
}
