// One connection's outgoing ghosts: joins the scope pass, the fair queue, tail repeats, the section writer and
// packet fates, and tells the scheduler its demand. Knows nothing of sockets, other stream managers or the objects.
import type { BitWriter } from '../bitstream';
import type { SendDemand } from '../stream/manager';
import { notifyFates } from './ghost-fates';
import { FairQueue } from './ghost-fair-queue';
import { DEFAULT_MAX_GHOSTS, GhostIdPool } from './ghost-ids';
import type { GhostRecord, RecordOwner } from './ghost-record';
import type { GhostScopeFn } from './ghost-scope-pass';
import { ScopePass } from './ghost-scope-pass';
import type { GhostPacketRecord } from './ghost-section-writer';
import { SectionWriter } from './ghost-section-writer';
import type { GhostDomain, GhostSource } from './ghost-source';
import { GhostSendCounters } from './ghost-stats';
import { TailRepeats } from './ghost-tail-repeat';

// Callers import these from here, as before the sender was split.
export type { GhostScope, GhostScopeFn } from './ghost-scope-pass';
export { MIN_PRIORITY } from './ghost-scope-pass';
export type { GhostPacketRecord } from './ghost-section-writer';
export { TAIL_REPEAT_MIN_MS, TAIL_REPEAT_MS } from './ghost-tail-repeat';

export interface GhostSenderOptions {
  readonly domain: GhostDomain;
  readonly scope?: GhostScopeFn | undefined;
  /**
   * Scope at most this often, and never twice at one `now` (so at most once per packet); 0 = every packet.
   * Default 50 ms: viewports move at human speed, and a pointer moving at 60 Hz needs no rescoping.
   */
  readonly scopeIntervalMs?: number | undefined;
  /**
   * The interval grows to this many ms per object ghosted (default 0): a scope pass costs a visit to each, so with
   * hundreds of them the passes take a bounded share of the time. Joins and leaves still rescope at once
   * (invalidateScope); only the priorities age more.
   */
  readonly scopeMsPerObject?: number | undefined;
  readonly maxGhosts?: number | undefined;
}

export class GhostSender implements RecordOwner {
  readonly counters = new GhostSendCounters();
  readonly ids: GhostIdPool;
  private readonly line = new FairQueue();
  private readonly repeats = new TailRepeats(this.counters);
  private readonly scope: ScopePass;
  private readonly writer: SectionWriter;
  /** Records with urgent groups dirty, maybe stale (see firstUrgent): they make demand 'urgent'. */
  private urgentList: GhostRecord[] = [];
  /** What demand() last said: a rise past it wakes the scheduler. */
  private lastDemand: SendDemand = 'none';
  private readonly unwatch: () => void;
  /** Set by the manager: wakes the connection's scheduler when demand may have risen. */
  wake: (() => void) | undefined = undefined;

  constructor(o: GhostSenderOptions) {
    this.ids = new GhostIdPool(o.maxGhosts ?? DEFAULT_MAX_GHOSTS);
    this.scope = new ScopePass(o, this, this.ids, this.line);
    this.writer = new SectionWriter({
      line: this.line,
      repeats: this.repeats,
      counters: this.counters,
      ids: this.ids,
      registry: o.domain.registry,
      queue: (rec) => {
        this.queue(rec);
      },
    });
    this.unwatch = o.domain.watch(() => this.wake?.());
  }

  /** Scope again at the next chance (the viewer's viewport moved, interest changed). */
  invalidateScope(): void {
    this.scope.invalidate();
    this.wake?.();
  }

  /** `source` is in scope now with this priority (see ScopePass.admit). */
  admit(source: GhostSource, priority: number): void {
    this.scope.admit(source, priority);
  }

  /** The next periodic scope pass (with a scope function) or tail repeat due, whichever is first. */
  nextCheckAt(): number {
    return Math.min(this.scope.nextAt(), this.repeats.nextAt());
  }

  /** The record ghosting `source` here, if any (tests and diagnostics). */
  recordOf(source: GhostSource): GhostRecord | undefined {
    return this.scope.recordOf(source);
  }

  demand(now: number): SendDemand {
    this.scope.maybeRun(now);
    this.repeats.release(now);
    // Called several times per packet on every connection: stop at the first record that still has something
    // to send, dropping the stale ones met on the way.
    this.lastDemand = firstUrgent(this.urgentList)
      ? 'urgent'
      : this.line.first() !== undefined
        ? 'normal'
        : 'none';
    return this.lastDemand;
  }

  write(now: number, w: BitWriter, budgetBits: number): GhostPacketRecord | undefined {
    this.scope.maybeRun(now);
    this.repeats.release(now);
    return this.writer.write(now, w, budgetBits);
  }

  notify(record: GhostPacketRecord, delivered: boolean): void {
    notifyFates(record, delivered);
  }

  /** Forgets every source (the connection closed): sources stop telling this sender of changes. */
  dispose(): void {
    this.unwatch();
    this.scope.clear();
    this.line.clear();
    this.urgentList = [];
    this.repeats.clear();
  }

  /** The record has something to write: it waits in line (see FairQueue). */
  queue(rec: GhostRecord): void {
    // Before the line's early return: a queued record that was not sendable may just have become so.
    if (this.lastDemand === 'none') this.raise('normal');
    this.line.queue(rec);
  }

  queueUrgent(rec: GhostRecord): void {
    if (this.lastDemand !== 'urgent') this.raise('urgent');
    if (rec.urgentQueued) return;
    rec.urgentQueued = true;
    this.urgentList.push(rec);
  }

  release(rec: GhostRecord): void {
    this.scope.release(rec);
  }

  private raise(d: SendDemand): void {
    this.lastDemand = d;
    this.wake?.();
  }
}

/** Whether `list` holds a record still urgent; the ones met first that no longer are leave it. */
function firstUrgent(list: GhostRecord[]): boolean {
  while (list.length > 0) {
    const rec = list[list.length - 1];
    if (rec === undefined) break;
    if (rec.urgent) return true;
    rec.urgentQueued = false;
    list.pop();
  }
  return false;
}
