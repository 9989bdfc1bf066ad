// One connection's ghost record of one object and its lifecycle (create, update, delete, each guaranteed as the
// TRIBES ghost manager does), including what a dropped packet means for it. Knows nothing of bits or scoping.
import type { EntryKind } from './ghost-wire';
import type { GhostObserver, GhostSource } from './ghost-source';
import type { GhostSendCounters } from './ghost-stats';
import { popcount } from './ghost-stats';

/**
 * - create: a create must be written (new in scope, or its create was dropped);
 * - creating: create in flight. Updates can't be sent (the peer may not have the ghost yet), so while the
 *   object changes the create is repeated as a refresh with current state, which the peer applies either way;
 * - live: the ghost exists remotely; dirty groups are sent;
 * - delete: a delete must be written (out of scope or destroyed, or its delete was dropped);
 * - deleting: delete in flight; the id is reused only once it is known delivered. An object back in scope
 *   meanwhile is created again after it, so the peer never holds two ghosts of one object;
 * - freed: the id is back in the pool.
 */
export type GhostState = 'create' | 'creating' | 'live' | 'delete' | 'deleting' | 'freed';

/** What a record needs from its connection's sender. */
export interface RecordOwner {
  readonly counters: GhostSendCounters;
  /** The record has something to write. */
  queue(rec: GhostRecord): void;
  /** The record has latency-sensitive groups dirty. */
  queueUrgent(rec: GhostRecord): void;
  /** Done (deleted remotely, or never created there): return the id and forget the record. */
  release(rec: GhostRecord): void;
}

/** One record's part in a packet's transmission record (TRIBES Figure 5). */
export interface GhostTx {
  readonly rec: GhostRecord;
  readonly kind: EntryKind;
  /** Groups written: every group for a create, none for a delete. */
  readonly mask: number;
  /** This record's entry in the next later packet, while unnotified (TNL's update chain). */
  next: GhostTx | undefined;
  /** The write set the record's tail repeat (see TailRepeats): its delivery cancels the repeat. */
  repeats: boolean;
}

export class GhostRecord implements GhostObserver {
  state: GhostState = 'create';
  /** See `mask`: the dirty groups as of the source's change numbered `seen`. */
  private dirty = 0;
  private seen = 0;
  /** In scope (and not destroyed) as of the last scope pass: the ghost should exist remotely. */
  wanted = true;
  /** Creates and refreshes written and not yet notified. */
  createsInFlight = 0;
  /** Scope pass that last saw it in scope. */
  scopeStamp = 0;
  urgentQueued = false;
  /** Urgent groups last written and not yet known delivered, to send once more if nothing newer follows. */
  repeatMask = 0;
  /** When that repeat is due (ms). */
  repeatDueAt = Infinity;
  /** Due time of this record's entry in its sender's repeat heap (Infinity: none). */
  repeatQueuedAt = Infinity;
  /** Groups dirty only because their repeat fell due: written, they are not repeated again (once is enough). */
  repeatOnly = 0;
  /** When urgent groups were last written, and the smoothed gap between such writes while they flow (ms). */
  lastUrgentWriteAt = -Infinity;
  urgentWriteGap: number | undefined;
  /**
   * The sender's line (see FairQueue): the tier it waits in (-1: none) and its order there. A line entry with
   * another tier or order is stale. Its priority and key are kept by the line (see HOT there).
   */
  queuedTier = -1;
  order = 0;
  /** How many sections the sender had written when this was queued. */
  queuedAt = 0;
  observerIndex = -1;
  /**
   * Its latest entry, to chain the next one to. The sender does not pass on a delivered update that set no repeat
   * (it changes nothing here), so this may be such an entry, already notified: chaining a later one to it is
   * harmless, as chains are only walked forward from an entry being notified, and it is let go of at the next write.
   */
  private lastTx: GhostTx | undefined;

  constructor(
    private readonly owner: RecordOwner,
    readonly source: GhostSource,
    readonly id: number,
  ) {}

  /**
   * Groups dirty and not yet carried by any packet (TRIBES State Mask). Changes the source made while it held this
   * record (GhostSource.hold) are folded in when it is read.
   */
  get mask(): number {
    if (this.seen !== this.source.changes) {
      const changed = this.source.changedSince(this.seen);
      this.seen = this.source.changes;
      this.dirty = (this.dirty | changed) >>> 0;
      this.repeatOnly = (this.repeatOnly & ~changed) >>> 0;
    }
    return this.dirty;
  }

  /** Every change the source made so far is in `m` (or written): set it only from a value read after `mask`. */
  set mask(m: number) {
    this.dirty = m;
    this.seen = this.source.changes;
  }

  get sendable(): boolean {
    return (
      this.state === 'create' || this.state === 'delete' || (this.canUpdate && this.mask !== 0)
    );
  }

  get urgent(): boolean {
    return this.canUpdate && (this.mask & this.source.cls.urgentMask) !== 0;
  }

  /** Whether dirty groups go out now (as updates, or as refreshes while the create is unacknowledged). */
  private get canUpdate(): boolean {
    return this.state === 'live' || (this.state === 'creating' && this.wanted);
  }

  onDirty(mask: number): number {
    this.mask = (this.mask | mask) >>> 0; // folds the change that called this (and any held before it)
    this.repeatOnly = (this.repeatOnly & ~mask) >>> 0;
    if (!this.canUpdate) return 0;
    this.owner.queue(this);
    if ((mask & this.source.cls.urgentMask) !== 0) this.owner.queueUrgent(this);
    // Until it is written or changes state (each calls unhold), marking these again would change nothing: they
    // are dirty, queued (urgent ones in the urgent list too) and not a repeat.
    return (this.mask & ~this.repeatOnly) >>> 0;
  }

  onDestroyed(): void {
    this.leave();
  }

  /** Out of scope (or destroyed). A status change in flight finishes first: see fate(). */
  leave(): void {
    this.source.unhold(this);
    this.wanted = false;
    if (this.state === 'create') {
      this.owner.release(this); // never sent: nothing to undo remotely
    } else if (this.state === 'live') {
      this.state = 'delete';
      this.owner.queue(this);
    }
  }

  /** Back in scope: a delete not yet written is cancelled; one in flight is followed by a create. */
  reenter(): void {
    this.source.unhold(this);
    this.wanted = true;
    if (this.state === 'delete') this.toLive(this.mask);
    else if (this.state === 'creating' && this.mask !== 0) this.onDirty(0);
  }

  /** The record was written into a packet as `kind` carrying `mask`; returns its transmission entry. */
  wrote(kind: EntryKind, mask: number): GhostTx {
    this.source.unhold(this);
    const tx: GhostTx = { rec: this, kind, mask, next: undefined, repeats: false };
    if (this.lastTx !== undefined) this.lastTx.next = tx;
    this.lastTx = tx;
    switch (kind) {
      case 'create':
      case 'refresh':
        this.state = 'creating';
        this.mask = 0;
        this.createsInFlight++;
        break;
      case 'update':
        this.mask = (this.mask & ~mask) >>> 0;
        break;
      case 'delete':
        this.state = 'deleting';
        break;
    }
    return tx;
  }

  /** A packet's fate; entries arrive in send order, so `tx` is this record's oldest unnotified one. */
  fate(tx: GhostTx, delivered: boolean): void {
    // An update's fate changes no state and only adds dirty groups (which the source may keep skipping). A delivered
    // one that set no repeat doesn't come here at all (notifyFates).
    if (tx.kind !== 'update') this.source.unhold(this);
    if (this.lastTx === tx) this.lastTx = undefined;
    switch (tx.kind) {
      case 'create':
      case 'refresh':
        this.createsInFlight--;
        if (this.state === 'creating') this.createFate(delivered);
        else if (!delivered) this.updateDropped(tx); // an earlier create settled it: this was a full update
        return;
      case 'update':
        if (!delivered) this.updateDropped(tx);
        return;
      case 'delete':
        this.deleteFate(delivered);
        return;
    }
  }

  private createFate(delivered: boolean): void {
    if (!delivered && this.createsInFlight > 0) return; // a later refresh may still create it
    if (delivered && this.wanted) {
      this.toLive(this.mask);
    } else if (delivered) {
      this.state = 'delete';
      this.owner.queue(this);
    } else if (this.wanted) {
      this.toCreate(); // a lost create is redone with the state current then
      this.owner.counters.recreates++;
    } else {
      this.owner.release(this); // lost, and no longer wanted: the peer never had it
    }
  }

  private deleteFate(delivered: boolean): void {
    if (delivered && this.wanted) {
      this.toCreate(); // the id is free remotely now, so it can carry the object again
    } else if (delivered) {
      this.owner.release(this);
    } else if (this.wanted) {
      this.toLive(this.mask); // the ghost survived remotely; mask kept every group it may lack
    } else {
      this.owner.counters.redeletes++;
      this.state = 'delete';
      this.owner.queue(this);
    }
  }

  private toCreate(): void {
    this.state = 'create';
    this.mask = 0;
    this.owner.queue(this);
  }

  private toLive(mask: number): void {
    this.state = 'live';
    this.mask = 0;
    if (mask !== 0) this.onDirty(mask);
  }

  /**
   * TRIBES: a lost group bit comes back only if no later packet carried that group for this object (a later
   * refresh carried every group).
   */
  private updateDropped(tx: GhostTx): void {
    let lost = tx.mask;
    for (let t = tx.next; t !== undefined && lost !== 0; t = t.next) lost &= ~t.mask;
    lost >>>= 0;
    const counters = this.owner.counters;
    counters.staleBitsSkipped += popcount(tx.mask) - popcount(lost);
    // Kept while a delete is pending or in flight too: if that delete is lost and the object is back in scope,
    // the surviving ghost still needs these groups.
    if (
      lost === 0 ||
      this.state === 'create' ||
      this.state === 'creating' ||
      this.state === 'freed'
    )
      return;
    counters.restoredBits += popcount(lost);
    if (this.state === 'live') this.onDirty(lost);
    else this.mask = (this.mask | lost) >>> 0;
  }
}
