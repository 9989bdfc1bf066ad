// RPCs over the event manager (TNL's registered RPCs): classes registered with numeric ids in a registry both
// ends build the same way, each with its policy, channel, priority, urgency and bit-packed params; per connection,
// typed send and dispatch. Knows nothing of packets, sockets or what the app does with a call.
import type { BitReader } from '../bitstream';
import { BitWriter, bitsForRange } from '../bitstream';
import type { EventDecoder, EventKind, Policy } from './event-types';
import { MAX_CHANNELS, MAX_COPIES, MAX_PRIORITY, POLICIES } from './event-types';
import type { EventManagerOptions } from './events';
import { EventManager } from './events';
import type { ParamsOf, Schema, TableStringWriter } from './params';
import { readParams, writeParams } from './params';
import type { StringTable } from './strings';

export interface RpcOptions<S extends Schema> {
  readonly policy: Policy;
  /** Default 0. */
  readonly channel?: number;
  /** 0..7, default 3; higher goes first when a packet is short of room. */
  readonly priority?: number;
  /** Send at once when credit allows instead of at the next tick. Default false. */
  readonly urgent?: boolean;
  /** Reliable-ordered only: packets each send goes out in, 1..MAX_COPIES. Default 1. */
  readonly copies?: number;
  readonly params: S;
}

/** A registered RPC class: its event kind (id, policy, channel, ...) and its params schema. */
export interface RpcDef<S extends Schema> extends EventKind {
  readonly params: S;
}

/** Every RPC class, by id in registration order. Build it the same way on both ends; it locks on first use. */
export class RpcRegistry {
  private readonly defs: RpcDef<Schema>[] = [];
  private readonly names = new Set<string>();
  private locked = false;

  register<S extends Schema>(name: string, o: RpcOptions<S>): RpcDef<S> {
    if (this.locked) throw new Error(`RPC ${name} registered after the registry was first used`);
    if (this.names.has(name)) throw new Error(`RPC ${name} registered twice`);
    const channel = o.channel ?? 0;
    const priority = o.priority ?? 3;
    if (!POLICIES.includes(o.policy))
      throw new RangeError(`RPC ${name}: unknown policy ${o.policy}`);
    if (!Number.isInteger(channel) || channel < 0 || channel >= MAX_CHANNELS) {
      throw new RangeError(`RPC ${name}: channel ${channel} outside 0..${MAX_CHANNELS - 1}`);
    }
    if (!Number.isInteger(priority) || priority < 0 || priority > MAX_PRIORITY) {
      throw new RangeError(`RPC ${name}: priority ${priority} outside 0..${MAX_PRIORITY}`);
    }
    const copies = o.copies ?? 1;
    if (!Number.isInteger(copies) || copies < 1 || copies > MAX_COPIES) {
      throw new RangeError(`RPC ${name}: copies ${copies} outside 1..${MAX_COPIES}`);
    }
    if (copies > 1 && o.policy !== 'reliableOrdered') {
      // Only the ordered stream's sequence numbers let the receiver drop the extra copies.
      throw new RangeError(`RPC ${name}: copies need policy reliableOrdered, not ${o.policy}`);
    }
    const def: RpcDef<S> = {
      id: this.defs.length,
      name,
      policy: o.policy,
      channel,
      priority,
      urgent: o.urgent ?? false,
      copies,
      params: o.params,
    };
    this.defs.push(def);
    this.names.add(name);
    return def;
  }

  /** Bits of an id on the wire: the fewest that hold every registered id. Locks the registry. */
  get idBits(): number {
    this.locked = true;
    return this.defs.length <= 1 ? 0 : bitsForRange(0, this.defs.length - 1);
  }

  byId(id: number): RpcDef<Schema> | undefined {
    return this.defs[id];
  }

  get size(): number {
    return this.defs.length;
  }
}

export type RpcHandler<S extends Schema> = (params: ParamsOf<S>, now: number) => void;

export interface RpcEndpointOptions extends Omit<EventManagerOptions, 'decoder' | 'checkpoints'> {
  readonly registry: RpcRegistry;
  readonly strings: StringTable;
}

/** One connection's RPCs: typed send, and dispatch of received calls to handlers (synchronously, in delivery order). */
export class RpcEndpoint implements EventDecoder {
  readonly events: EventManager;
  readonly registry: RpcRegistry;
  readonly strings: StringTable;
  readonly idBits: number;
  /** Calls received for a class with no handler. */
  unhandled = 0;
  private readonly handlers = new Map<number, (params: unknown, now: number) => void>();
  private readonly measure: TableStringWriter;

  constructor(o: RpcEndpointOptions) {
    this.registry = o.registry;
    this.strings = o.strings;
    this.idBits = o.registry.idBits;
    this.events = new EventManager({ ...o, decoder: this, checkpoints: [o.strings] });
    const strings = o.strings;
    this.measure = {
      writeTableString: (w, s) => {
        strings.writeWorstCase(w, s);
      },
    };
  }

  /**
   * Queues a call. Returns false when the event queue is at the app's chosen bound. Params outside their
   * declared widths or ranges, or a call too big for a packet, are programmer errors (RangeError) thrown here.
   */
  send<S extends Schema>(def: RpcDef<S>, params: ParamsOf<S>): boolean {
    if (this.registry.byId(def.id) !== def)
      throw new Error(`RPC ${def.name} is not from this registry`);
    const copy = { ...params };
    const scratch = new BitWriter(32);
    writeParams(scratch, def.params, copy, this.measure);
    return this.events.send({
      kind: def,
      maxBodyBits: scratch.bitLength,
      writeBody: (w) => {
        writeParams(w, def.params, copy, this.strings);
      },
    });
  }

  /** Sets the handler for one class (replacing any earlier one). */
  on<S extends Schema>(def: RpcDef<S>, handler: RpcHandler<S>): void {
    this.handlers.set(def.id, handler as (params: unknown, now: number) => void);
  }

  kindById(id: number): EventKind | undefined {
    return this.registry.byId(id);
  }

  readBody(kind: EventKind, r: BitReader): (now: number) => void {
    const def = this.registry.byId(kind.id);
    if (def === undefined) throw new Error(`no RPC ${kind.id}`);
    const params = readParams(r, def.params, this.strings);
    return (now) => {
      const h = this.handlers.get(def.id);
      if (h === undefined) this.unhandled++;
      else h(params, now);
    };
  }
}
