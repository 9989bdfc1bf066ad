// Assembles one connection's stream layer: string table, RPC endpoint with its event manager, and the packet
// scheduler that a Connection's handler factory returns. Knows nothing of sockets or of what the RPCs mean.
import type { StreamManager } from './manager';
import type { RatePolicy } from './rate';
import type { RpcRegistry } from './rpc';
import { RpcEndpoint } from './rpc';
import type { SchedulerConnection, StreamConnectionOptions } from './scheduler';
import { StreamConnection } from './scheduler';
import type { StringTableOptions } from './strings';
import { StringTable } from './strings';

export interface EventStackOptions {
  readonly registry: RpcRegistry;
  /** What this side accepts and, unless `sendRate`, caps itself to (RATE_PRESETS). */
  readonly rate: RatePolicy;
  readonly sendRate?: RatePolicy;
  readonly initialPeerRate?: RatePolicy;
  /** Both ends must agree on the table size. */
  readonly strings?: StringTableOptions;
  /** Ordered-stream window per channel; both ends must agree. */
  readonly window?: number;
  /** Most events, and bytes of them, waiting to be sent; past either the connection closes ('overflow'). */
  readonly maxQueued?: number;
  readonly maxQueuedBytes?: number;
  readonly maxEventBits?: number;
  /** Managers written before the events (small, latency-critical state such as pointers). */
  readonly before?: readonly StreamManager<unknown>[];
  /** Managers written after the events (TRIBES order: events, then ghosts). */
  readonly after?: readonly StreamManager<unknown>[];
  readonly onClosed?: StreamConnectionOptions['onClosed'];
  readonly minPacketBytes?: number;
}

export interface EventStack {
  /** The Connection's handler. */
  readonly scheduler: StreamConnection;
  readonly rpc: RpcEndpoint;
  readonly strings: StringTable;
}

/** `new Endpoint(role, opts, (conn) => createEventStack(conn, o).scheduler, now)`, keeping the stack somewhere. */
export function createEventStack(conn: SchedulerConnection, o: EventStackOptions): EventStack {
  const strings = new StringTable(o.strings);
  // The scheduler is built after the RPC endpoint it schedules; the overflow callback runs only later.
  const late: { scheduler?: StreamConnection } = {};
  const rpc = new RpcEndpoint({
    registry: o.registry,
    strings,
    // A peer that stops reading must not make us keep everything sent its way: its connection ends instead.
    onOverflow: (detail) => late.scheduler?.fail('overflow', detail),
    ...(o.window === undefined ? {} : { window: o.window }),
    ...(o.maxQueued === undefined ? {} : { maxQueued: o.maxQueued }),
    ...(o.maxQueuedBytes === undefined ? {} : { maxQueuedBytes: o.maxQueuedBytes }),
    ...(o.maxEventBits === undefined ? {} : { maxEventBits: o.maxEventBits }),
  });
  const scheduler = new StreamConnection(conn, {
    managers: [...(o.before ?? []), rpc.events, ...(o.after ?? [])],
    trackers: [strings],
    rate: o.rate,
    ...(o.sendRate === undefined ? {} : { sendRate: o.sendRate }),
    ...(o.initialPeerRate === undefined ? {} : { initialPeerRate: o.initialPeerRate }),
    ...(o.onClosed === undefined ? {} : { onClosed: o.onClosed }),
    ...(o.minPacketBytes === undefined ? {} : { minPacketBytes: o.minPacketBytes }),
  });
  late.scheduler = scheduler;
  return { scheduler, rpc, strings };
}
