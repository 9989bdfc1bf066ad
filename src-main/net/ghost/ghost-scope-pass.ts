// Which of the domain's objects one connection ghosts: the periodic scope pass, and the record table it fills (one
// record and ghost id per source, until released). Knows nothing of bits, packets, the line's keys or repeats.
import type { GhostIdPool } from './ghost-ids';
import type { RecordOwner } from './ghost-record';
import { GhostRecord } from './ghost-record';
import type { GhostDomain, GhostSource } from './ghost-source';

/** Where a scope callback puts the objects in scope for one connection. */
export interface GhostScope {
  /** In scope with this priority (> 0; larger goes first). Always-in-scope objects need not be added. */
  add(source: GhostSource, priority: number): void;
}

/** Says which objects are in scope for one connection and how much each matters (viewport distance, recency...). */
export type GhostScopeFn = (now: number, scope: GhostScope) => void;

/** Priorities are clamped up to this, so a ghost's stride between turns (1 / priority) stays bounded. */
export const MIN_PRIORITY = 1e-3;

export interface ScopePassOptions {
  readonly domain: GhostDomain;
  readonly scope?: GhostScopeFn | undefined;
  /** See GhostSenderOptions. */
  readonly scopeIntervalMs?: number | undefined;
  readonly scopeMsPerObject?: number | undefined;
}

/** What a scope pass tells the line: each record's priority, never its key. */
export interface ScopeLine {
  /** A new record with ghost id `id`, before it is first queued. */
  add(id: number, priority: number): void;
  /** A record back in scope, before it is queued again. */
  setPriority(id: number, priority: number): void;
  /** A record seen in scope (it may move up the line). */
  prioritize(rec: GhostRecord, priority: number): void;
}

export class ScopePass {
  /** Each source's record on this connection, until the peer has no ghost of it and none is on its way. */
  private readonly records = new Map<GhostSource, GhostRecord>();
  /** Bumped every pass; a record whose scopeStamp lags was not seen in scope by the last one. */
  private stamp = 0;
  private nextScopeAt = -Infinity;
  private lastScopeAt = -Infinity;
  private invalid = true;
  private seenDomainVersion = -1;
  private readonly intervalMs: number;
  private readonly msPerObject: number;
  private readonly sink: GhostScope = {
    add: (s, p) => {
      this.inScope(s, p);
    },
  };

  constructor(
    private readonly o: ScopePassOptions,
    /** The records' owner: the sender they queue with and are released through. */
    private readonly owner: RecordOwner,
    private readonly ids: GhostIdPool,
    private readonly line: ScopeLine,
  ) {
    this.intervalMs = o.scopeIntervalMs ?? 50;
    this.msPerObject = o.scopeMsPerObject ?? 0;
  }

  /** Scope again at the next chance (the viewer's viewport moved, interest changed). */
  invalidate(): void {
    this.invalid = true;
  }

  /** With a scope function, the next periodic scope pass (it may bring new objects into scope). */
  nextAt(): number {
    return this.o.scope === undefined ? Infinity : this.nextScopeAt;
  }

  /**
   * One object in scope now, with this priority, without a pass (an object just created): a pass over every object
   * for each one added costs the whole domain per add. Later passes scope it as any other.
   */
  admit(source: GhostSource, priority: number): void {
    this.inScope(source, priority);
  }

  /** The record ghosting `source` here, if any. */
  recordOf(source: GhostSource): GhostRecord | undefined {
    return this.records.get(source);
  }

  /**
   * Runs a pass if one is due: the interval has passed, the scope was invalidated or the always-in-scope set
   * changed. Never twice at one `now`: demand() and write() for one packet share it, so that is once per packet.
   */
  maybeRun(now: number): void {
    if (now <= this.lastScopeAt) return;
    const version = this.o.domain.version;
    if (now < this.nextScopeAt && !this.invalid && version === this.seenDomainVersion) return;
    this.lastScopeAt = now;
    this.invalid = false;
    this.seenDomainVersion = version;
    this.owner.counters.scopePasses++;
    this.stamp++;
    for (const s of this.o.domain.alwaysInScope) this.inScope(s, s.alwaysPriority);
    this.o.scope?.(now, this.sink);
    for (const rec of this.records.values()) {
      if (rec.wanted && rec.scopeStamp !== this.stamp) rec.leave(); // may delete from the map: safe here
    }
    // A pass visits every record, so with hundreds of them the passes are spaced out to take a bounded share.
    this.nextScopeAt = now + Math.max(this.intervalMs, this.records.size * this.msPerObject);
  }

  /** The record is done (deleted remotely, or never created there): its id goes back and the source forgets it. */
  release(rec: GhostRecord): void {
    if (this.records.get(rec.source) === rec) this.records.delete(rec.source);
    rec.source.detach(rec);
    rec.state = 'freed';
    this.ids.release(rec.id);
  }

  /** Forgets every record (the connection closed): sources stop telling them of changes. */
  clear(): void {
    for (const rec of this.records.values()) rec.source.detach(rec);
    this.records.clear();
  }

  private inScope(source: GhostSource, priority: number): void {
    if (source.destroyed) return;
    let rec = this.records.get(source);
    // Before queueing: the priority sets the record's place in line.
    const p = priority >= MIN_PRIORITY ? priority : MIN_PRIORITY;
    if (rec === undefined) {
      const id = this.ids.alloc();
      if (id === undefined) {
        this.owner.counters.idExhausted++;
        return;
      }
      rec = new GhostRecord(this.owner, source, id);
      this.line.add(id, p);
      this.records.set(source, rec);
      source.attach(rec);
      this.owner.queue(rec);
    } else if (!rec.wanted) {
      this.line.setPriority(rec.id, p);
      rec.reenter();
    }
    rec.scopeStamp = this.stamp;
    this.line.prioritize(rec, p);
  }
}
