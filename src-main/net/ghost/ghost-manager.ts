// The ghost stream manager of one connection (TRIBES Ghost Manager): writes this side's ghost section and reads
// the peer's, so one instance serves both directions. Knows nothing of sockets, packets or other managers.
import type { BitReader, BitWriter } from '../bitstream';
import type { SendDemand, StreamManager } from '../stream/manager';
import type { GhostRegistry } from './ghost-class';
import { DEFAULT_MAX_GHOSTS } from './ghost-ids';
import type { GhostEvents } from './ghost-receiver';
import { GhostReceiver } from './ghost-receiver';
import type { GhostPacketRecord, GhostScopeFn } from './ghost-sender';
import { GhostSender } from './ghost-sender';
import type { GhostDomain, GhostSource } from './ghost-source';
import type { GhostReceiveStats, GhostSendStats } from './ghost-stats';

export interface GhostManagerOptions {
  /** The stream manager's name (per-kind traffic figures); unique per connection. Default 'ghosts'. */
  readonly name?: string;
  /** The class table; both ends build it identically. */
  readonly registry: GhostRegistry;
  /** Sending role: this side's objects. Without it the manager only receives. */
  readonly domain?: GhostDomain;
  /** Which of the domain's objects are in scope for this connection, with priorities (plus always-in-scope ones). */
  readonly scope?: GhostScopeFn;
  /** Scope at most this often and at most once per packet; 0 = every packet. Default 50 ms. */
  readonly scopeIntervalMs?: number;
  /** The interval grows by this per object ghosted (see GhostSenderOptions). Default 0. */
  readonly scopeMsPerObject?: number;
  /** Live ghosts per direction (ids 0..maxGhosts-1); both ends must agree. Default 16,384; at most 65,536. */
  readonly maxGhosts?: number;
  /** Receiving role: what the app hears about the peer's objects. */
  readonly events?: GhostEvents;
  /** Most of a packet these ghosts may take while later managers have data waiting (see StreamManager). */
  readonly maxShare?: number;
}

export interface GhostStats {
  readonly sent: GhostSendStats | undefined;
  readonly received: GhostReceiveStats;
}

export class GhostManager implements StreamManager<GhostPacketRecord> {
  readonly name: string;
  readonly sender: GhostSender | undefined;
  readonly receiver: GhostReceiver;
  readonly maxShare: number | undefined;
  /** A ghost's urgent groups are current state (a pointer): see StreamManager.urgentState. */
  readonly urgentState = true;

  constructor(o: GhostManagerOptions) {
    this.name = o.name ?? 'ghosts';
    this.maxShare = o.maxShare;
    const maxGhosts = o.maxGhosts ?? DEFAULT_MAX_GHOSTS;
    if (o.domain !== undefined && o.domain.registry !== o.registry) {
      throw new Error('a ghost manager and its domain must share one registry');
    }
    this.sender =
      o.domain === undefined
        ? undefined
        : new GhostSender({
            domain: o.domain,
            scope: o.scope,
            scopeIntervalMs: o.scopeIntervalMs,
            scopeMsPerObject: o.scopeMsPerObject,
            maxGhosts,
          });
    this.receiver = new GhostReceiver(o.registry, maxGhosts, o.events);
  }

  demand(now: number): SendDemand {
    return this.sender?.demand(now) ?? 'none';
  }

  get wake(): (() => void) | undefined {
    return this.sender?.wake;
  }

  set wake(fn: (() => void) | undefined) {
    if (this.sender) this.sender.wake = fn;
  }

  nextCheckAt(): number {
    return this.sender?.nextCheckAt() ?? Infinity;
  }

  write(now: number, w: BitWriter, budgetBits: number): GhostPacketRecord | undefined {
    return this.sender?.write(now, w, budgetBits);
  }

  read(now: number, r: BitReader): void {
    this.receiver.read(now, r);
  }

  notify(_now: number, record: GhostPacketRecord, delivered: boolean): void {
    this.sender?.notify(record, delivered);
  }

  /** One new object in scope now with this priority, without a scope pass (see ScopePass.admit). */
  admit(source: GhostSource, priority: number): void {
    this.sender?.admit(source, priority);
  }

  /** Scope again at the next packet (the viewer's viewport moved). */
  invalidateScope(): void {
    this.sender?.invalidateScope();
  }

  /** The connection is gone: stop tracking this side's objects for it. */
  dispose(): void {
    this.sender?.dispose();
  }

  stats(): GhostStats {
    return {
      sent: this.sender?.counters.snapshot(this.sender.ids.live),
      received: this.receiver.stats(),
    };
  }
}
