// One connection's outgoing ghosts: scoping, the queue of records with something to send (status changes first,
// then self-clocked fair queueing by priority), writing within the budget with rollback, and packet fates. Knows
// nothing of sockets, of other stream managers, or of what the objects are.
import type { BitWriter } from '../bitstream';
import type { SendDemand } from '../stream/manager';
import type { Due } from '../due-heap';
import { DueHeap } from '../due-heap';
import { smoothedGap } from '../stats';
import { DEFAULT_MAX_GHOSTS, GhostIdPool } from './ghost-ids';
import type { GhostTx, RecordOwner } from './ghost-record';
import { GhostRecord } from './ghost-record';
import { KeyHeap } from './ghost-select';
import type { GhostDomain, GhostSource } from './ghost-source';
import { GhostSendCounters } from './ghost-stats';
import type { EntryKind } from './ghost-wire';
import {
  SECTION_OVERHEAD_BITS,
  writeEntryHead,
  writeSectionEnd,
  writeSectionHeader,
  writeUpdateMask,
} from './ghost-wire';

/** Where a scope callback puts the objects in scope for one connection. */
export interface GhostScope {
  /** In scope with this priority (> 0; larger goes first). Always-in-scope objects need not be added. */
  add(source: GhostSource, priority: number): void;
}

/** Says which objects are in scope for one connection and how much each matters (viewport distance, recency...). */
export type GhostScopeFn = (now: number, scope: GhostScope) => void;

/** The ghost manager's packet record: every entry it wrote (TRIBES Figure 5's transmission structures). */
export interface GhostPacketRecord {
  readonly entries: readonly GhostTx[];
  /** Section size, bits. */
  readonly bits: number;
}

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

/** Priorities are clamped up to this, so a ghost's stride between turns (1 / priority) stays bounded. */
export const MIN_PRIORITY = 1e-3;
/**
 * An urgent group (a pointer) written and then left alone for one and a half of its usual gaps between writes
 * (within these bounds, ms) is written once more, unless its packet is known delivered by then: when a pointer
 * stops, its final position would otherwise wait for the loss to be noticed (a round trip and more) if that one
 * packet was lost. While it moves, newer positions come first. A pointer at 60 Hz is repeated 25 ms after it
 * stops, one at 30 Hz after 50 ms: soon after the write that didn't come, never before it was due.
 */
export const TAIL_REPEAT_MIN_MS = 20;
export const TAIL_REPEAT_MS = 50;
const TAIL_REPEAT_GAPS = 1.5;
/** Gaps between urgent writes longer than this are pauses, not the group's rhythm. */
const URGENT_WRITE_MAX_GAP_MS = 200;

/** When to repeat an urgent write made at `now`, after learning its gap from the record's previous one. */
function tailRepeatDue(rec: GhostRecord, now: number): number {
  const g = smoothedGap(rec.urgentWriteGap, now - rec.lastUrgentWriteAt, URGENT_WRITE_MAX_GAP_MS);
  rec.urgentWriteGap = g;
  rec.lastUrgentWriteAt = now;
  const wait = g === undefined ? TAIL_REPEAT_MS : TAIL_REPEAT_GAPS * g;
  return now + Math.min(TAIL_REPEAT_MS, Math.max(TAIL_REPEAT_MIN_MS, wait));
}

interface Repeat extends Due {
  readonly rec: GhostRecord;
}

/**
 * A record's numbers for the line, kept by its sender in one typed array indexed by ghost id (HOT slots each)
 * rather than on the record: each is a double, which a record would hold as a separate boxed number, and at 256
 * peers every turn of a far pointer found these cold, one cache miss apiece.
 * - KEY: its key in line;
 * - PASS: the key it was last written with (its next turn comes a stride after this, or after the queue's clock);
 * - PRIORITY: from the last scope pass, larger goes first;
 * - KEY_PRIORITY: the priority its key was set with.
 */
const HOT = 4;
const KEY = 0;
const PASS = 1;
const PRIORITY = 2;
const KEY_PRIORITY = 3;

/** After this many entries that don't fit, the packet is full: smaller ones may still slip in before that. */
const MAX_MISFITS = 4;
const UPDATE_TIER = 0;
const STATUS_TIER = 1;

export class GhostSender implements RecordOwner {
  readonly counters = new GhostSendCounters();
  readonly ids: GhostIdPool;
  /** Each source's record on this connection, until the peer has no ghost of it and none is on its way. */
  private readonly records = new Map<GhostSource, GhostRecord>();
  /**
   * Records with something to send, kept across packets (see queue()); a record that has nothing left by the time
   * it is met is dropped then.
   */
  private readonly lines = [new KeyHeap<GhostRecord>(), new KeyHeap<GhostRecord>()];
  /** Each record's key, pass, priority and key priority, at HOT * id (see HOT). */
  private hot = new Float64Array(HOT * 64);
  /** The queue's clock: the largest key written so far (self-clocked fair queueing). */
  private clock = 0;
  private queueOrder = 0;
  /** The line firstQueued() last found its record in. */
  private firstTier = UPDATE_TIER;
  /** Records that didn't fit the packet being written, queued again after it. */
  private readonly misfits: GhostRecord[] = [];
  /** Starved records written into the packet being written, kept in line after it (see keepInLine). */
  private readonly kept: GhostRecord[] = [];
  private urgentList: GhostRecord[] = [];
  private stamp = 0;
  /** Sections written so far. */
  private packets = 0;
  private nextScopeAt = -Infinity;
  private lastScopeAt = -Infinity;
  private scopeInvalid = true;
  private seenDomainVersion = -1;
  private readonly scopeIntervalMs: number;
  private readonly scopeMsPerObject: number;
  /** What demand() last said: a rise past it wakes the scheduler. */
  private lastDemand: SendDemand = 'none';
  /**
   * Pending tail repeats by due time, at most one live entry per record: a record written again while its entry
   * waits only moves its due time, and the entry is pushed back when it surfaces (a pointer moving at 60 Hz
   * costs a heap entry per repeat delay, not per write). An entry whose record was delivered is dropped when it
   * surfaces.
   */
  private readonly repeats = new DueHeap<Repeat>();
  private repeatOrder = 0;
  /**
   * No repeat falls due before this (the heap's top when last looked at; stale entries may make it early,
   * never late): demand() runs many times per packet and skips the heap until then.
   */
  private repeatCheckAt = Infinity;
  private readonly unwatch: () => void;
  /** Set by the manager: wakes the connection's scheduler when demand may have risen. */
  wake: (() => void) | undefined = undefined;
  private readonly sink: GhostScope = {
    add: (s, p) => {
      this.inScope(s, p);
    },
  };

  constructor(private readonly o: GhostSenderOptions) {
    this.ids = new GhostIdPool(o.maxGhosts ?? DEFAULT_MAX_GHOSTS);
    this.scopeIntervalMs = o.scopeIntervalMs ?? 50;
    this.scopeMsPerObject = o.scopeMsPerObject ?? 0;
    this.unwatch = o.domain.watch(() => this.wake?.());
  }

  /** Scope again at the next chance (the viewer's viewport moved, interest changed). */
  invalidateScope(): void {
    this.scopeInvalid = true;
    this.wake?.();
  }

  /** With a scope function, the next periodic scope pass (it may bring new objects into scope). */
  nextCheckAt(): number {
    const scope = this.o.scope === undefined ? Infinity : this.nextScopeAt;
    // Exact here (stale entries dropped), so the connection's timer never wakes for a repeat no longer wanted.
    this.repeatCheckAt = this.firstRepeat()?.at ?? Infinity;
    return Math.min(scope, this.repeatCheckAt);
  }

  /** The earliest pending repeat still wanted (drops stale entries on top, pushes moved ones back). */
  private firstRepeat(): Repeat | undefined {
    for (let r = this.repeats.peek(); r !== undefined; r = this.repeats.peek()) {
      const rec = r.rec;
      if (rec.repeatQueuedAt !== r.at) {
        this.repeats.pop(); // superseded by an earlier entry of the same record
        continue;
      }
      if (rec.repeatMask !== 0 && rec.repeatDueAt === r.at) return r;
      this.repeats.pop();
      rec.repeatQueuedAt = Infinity;
      if (rec.repeatMask !== 0 && rec.repeatDueAt < Infinity) this.queueRepeat(rec);
    }
    return undefined;
  }

  private queueRepeat(rec: GhostRecord): void {
    rec.repeatQueuedAt = rec.repeatDueAt;
    this.repeats.push({ at: rec.repeatDueAt, order: this.repeatOrder++, rec });
    this.repeatCheckAt = Math.min(this.repeatCheckAt, rec.repeatDueAt);
  }

  /** Turns the repeats due by `now` into dirty groups (so they go out as ordinary urgent updates). */
  private releaseRepeats(now: number): void {
    if (now < this.repeatCheckAt) return;
    this.releaseDue(now);
    this.repeatCheckAt = this.firstRepeat()?.at ?? Infinity;
  }

  private releaseDue(now: number): void {
    for (let r = this.firstRepeat(); r !== undefined && r.at <= now; r = this.firstRepeat()) {
      this.repeats.pop();
      const rec = r.rec;
      rec.repeatQueuedAt = Infinity;
      const mask = rec.repeatMask;
      rec.repeatMask = 0;
      rec.repeatDueAt = Infinity;
      // Something newer is already waiting for those groups: it goes instead.
      if ((rec.mask & mask) === 0 && rec.state === 'live') {
        this.counters.tailRepeats++;
        rec.onDirty(mask);
        rec.repeatOnly = mask;
      }
    }
  }

  /** The record ghosting `source` here, if any (tests and diagnostics). */
  recordOf(source: GhostSource): GhostRecord | undefined {
    return this.records.get(source);
  }

  demand(now: number): SendDemand {
    this.maybeScope(now);
    this.releaseRepeats(now);
    // Called several times per packet on every connection: stop at the first record that still has something
    // to send, dropping the stale ones met on the way (swap-remove; order doesn't matter in these lists).
    this.lastDemand = firstUrgent(this.urgentList)
      ? 'urgent'
      : this.firstQueued() !== undefined
        ? 'normal'
        : 'none';
    return this.lastDemand;
  }

  private raise(d: SendDemand): void {
    this.lastDemand = d;
    this.wake?.();
  }

  write(now: number, w: BitWriter, budgetBits: number): GhostPacketRecord | undefined {
    this.maybeScope(now);
    this.releaseRepeats(now);
    if (budgetBits < SECTION_OVERHEAD_BITS || this.firstQueued() === undefined) return undefined;
    const start = w.bitLength;
    const limit = start + budgetBits - 1; // the end bit always fits
    const idBits = this.ids.idBits;
    writeSectionHeader(w, idBits);
    const packet = ++this.packets;
    const entries: GhostTx[] = [];
    const misfits = this.misfits;
    const kept = this.kept;
    for (let rec = this.popQueued(); rec !== undefined; rec = this.popQueued()) {
      const mark = w.bitLength;
      const kind = kindOf(rec);
      const mask = this.writeEntry(w, idBits, rec, kind);
      if (w.bitLength > limit) {
        w.truncate(mark);
        this.counters.misfits++;
        misfits.push(rec);
        if (misfits.length >= MAX_MISFITS) break;
        continue;
      }
      this.counted(rec, kind, w.bitLength - mark);
      // Queued before the packet ahead of this one was written, and left out of it.
      const starved = packet > rec.queuedAt + 1;
      const at = HOT * rec.id;
      const key = this.hot[at + KEY] as number;
      if (key > this.clock) this.clock = key;
      this.hot[at + PASS] = key;
      const tx = rec.wrote(kind, mask);
      entries.push(tx);
      // A repeat is written once: repeating it until an ack outran the next one would never stop while the
      // round trip is longer than the repeat delay.
      const urgent = kind === 'update' ? mask & rec.source.cls.urgentMask & ~rec.repeatOnly : 0;
      rec.repeatOnly = 0;
      if (starved && kind === 'update') kept.push(rec);
      if (urgent !== 0) {
        if (starved) {
          // Left out of a packet while it had something to send: the packets can't keep up with it (a far
          // pointer on a busy host), so its next turn carries newer state anyway and a lost last write comes
          // back by the lost-bit rule. A repeat would be heap work per write for nothing (12 % of a 256-peer
          // host's time, nearly all discarded). Nor does it learn a rhythm from these writes: their gaps are
          // the packets' turns, not the pointer's.
          rec.repeatMask = 0;
        } else {
          const due = tailRepeatDue(rec, now);
          tx.repeats = true;
          rec.repeatMask = urgent;
          rec.repeatDueAt = due;
          // An entry already waiting for an earlier time is pushed back when it surfaces.
          if (due < rec.repeatQueuedAt) this.queueRepeat(rec);
        }
      }
    }
    // A record that didn't fit keeps its key and place in line; one written with more to send queues anew.
    for (const rec of misfits) this.enqueue(rec, tierOf(rec));
    misfits.length = 0;
    for (const rec of kept) this.keepInLine(rec);
    kept.length = 0;
    for (const tx of entries) if (tx.rec.queuedTier < 0 && tx.rec.sendable) this.queue(tx.rec);
    if (entries.length === 0) {
      w.truncate(start);
      return undefined;
    }
    writeSectionEnd(w);
    this.counters.sections++;
    this.counters.overheadBits += SECTION_OVERHEAD_BITS;
    this.counters.idBits = idBits;
    return { entries, bits: w.bitLength - start };
  }

  notify(record: GhostPacketRecord, delivered: boolean): void {
    for (const tx of record.entries) {
      if (delivered && tx.kind === 'update' && !tx.repeats) {
        // Nothing to do, so the record is left alone: on a busy host most entries are far pointers whose
        // records would each be a cache miss here (see GhostRecord.lastTx).
        continue;
      }
      // The latest write of those groups arrived: no repeat needed.
      if (delivered && tx.next === undefined) tx.rec.repeatMask &= ~tx.mask >>> 0;
      tx.rec.fate(tx, delivered);
    }
  }

  /** Forgets every source (the connection closed): sources stop telling this sender of changes. */
  dispose(): void {
    this.unwatch();
    for (const rec of this.records.values()) rec.source.detach(rec);
    this.records.clear();
    for (const line of this.lines) line.clear();
    this.urgentList = [];
    this.repeats.clear();
    this.repeatCheckAt = Infinity;
  }

  /**
   * Self-clocked fair queueing over the records: each waits in line with key = (its last turn's key, or the
   * queue's clock if that is later) + 1 / priority, and packets take the smallest keys. A ghost's share of the
   * packets is proportional to its priority, a record that had nothing to send for a while gets no credit for it,
   * and a packet touches only the records it takes. Status changes (creates, deletes) go before any update.
   */
  queue(rec: GhostRecord): void {
    // Before the early return: a queued record that was not sendable may just have become so.
    if (this.lastDemand === 'none') this.raise('normal');
    const tier = tierOf(rec);
    if (rec.queuedTier >= tier) return;
    // One waiting as an update that now has a status change (out of scope, destroyed) moves up with its key.
    if (rec.queuedTier < 0) {
      rec.queuedAt = this.packets;
      this.takeTurn(rec, tier, this.nextKey(rec));
    } else {
      this.enqueue(rec, tier);
    }
  }

  /** A record's next key: a stride (1 / priority) after its last turn, or after the queue's clock if later. */
  private nextKey(rec: GhostRecord): number {
    const at = HOT * rec.id;
    return (
      Math.max(this.hot[at + PASS] as number, this.clock) + 1 / (this.hot[at + PRIORITY] as number)
    );
  }

  /** Queues `rec` in `tier` with a new key (and a new order, which makes any entry it had stale). */
  private takeTurn(rec: GhostRecord, tier: number, key: number): void {
    const at = HOT * rec.id;
    this.hot[at + KEY] = key;
    this.hot[at + KEY_PRIORITY] = this.hot[at + PRIORITY] as number;
    rec.order = this.queueOrder++;
    this.enqueue(rec, tier);
  }

  /**
   * A record left out of a packet while it had something to send, and then written, goes straight back in line
   * for its next turn (a stride after this one), and its source stops telling it of changes: it reads them when
   * that turn comes (GhostRecord.mask), and leaves the line then if there are none. A far pointer on a busy host
   * changes many times between its turns; each change used to queue it again on every connection it had been
   * written to, a likely cache miss each (a record, its sender, its line), where now only the source's own
   * counters are touched. Such a record gives up the urgent wake-up (the connection is busy anyway) and its tail
   * repeat (already dropped for starved writes). Its next turn is a stride after this one, as for a record that
   * was never idle: self-clocked fair queueing of a backlogged flow.
   */
  private keepInLine(rec: GhostRecord): void {
    if (rec.state !== 'live' || rec.queuedTier >= 0) return;
    rec.queuedAt = this.packets;
    const at = HOT * rec.id;
    const stride = 1 / (this.hot[at + PRIORITY] as number);
    this.takeTurn(rec, UPDATE_TIER, (this.hot[at + PASS] as number) + stride);
    rec.source.hold(rec, rec.source.cls.allMask);
  }

  /**
   * A waiting record whose priority has more than doubled since its key was set (the viewer came close to it)
   * takes the earlier place the new priority gives it, rather than waiting out the stride of the old one.
   * Doubling at least each time bounds how often one wait is re-keyed (log2 of the priority range).
   */
  private rekey(rec: GhostRecord): void {
    const key = this.nextKey(rec);
    const at = HOT * rec.id;
    if (key < (this.hot[at + KEY] as number)) this.takeTurn(rec, rec.queuedTier, key);
    else this.hot[at + KEY_PRIORITY] = this.hot[at + PRIORITY] as number;
  }

  /**
   * Puts `rec` in the line for `tier` with its key and order. An entry it had in the other line, or with an older
   * order, goes stale.
   */
  private enqueue(rec: GhostRecord, tier: number): void {
    rec.queuedTier = tier;
    this.lines[tier]?.push(rec, this.hot[HOT * rec.id + KEY] as number, rec.order);
  }

  /** The first queued record with something to send, status changes first; stale and idle entries met are dropped. */
  private firstQueued(): GhostRecord | undefined {
    for (let tier = STATUS_TIER; tier >= UPDATE_TIER; tier--) {
      const line = this.lines[tier] as KeyHeap<GhostRecord>;
      for (let rec = line.peek(); rec !== undefined; rec = line.peek()) {
        // Current unless the record has moved up a tier or been queued again (a new order) since.
        if (rec.queuedTier === tier && rec.order === line.peekOrder()) {
          if (rec.sendable) {
            this.firstTier = tier;
            return rec;
          }
          rec.queuedTier = -1;
          rec.source.unhold(rec); // kept in line with nothing new: changes must reach it again
        }
        line.pop();
      }
    }
    return undefined;
  }

  private popQueued(): GhostRecord | undefined {
    const rec = this.firstQueued();
    if (rec !== undefined) {
      this.lines[this.firstTier]?.pop();
      rec.queuedTier = -1;
    }
    return rec;
  }

  queueUrgent(rec: GhostRecord): void {
    if (this.lastDemand !== 'urgent') this.raise('urgent');
    if (rec.urgentQueued) return;
    rec.urgentQueued = true;
    this.urgentList.push(rec);
  }

  release(rec: GhostRecord): void {
    if (this.records.get(rec.source) === rec) this.records.delete(rec.source);
    rec.source.detach(rec);
    rec.state = 'freed';
    this.ids.release(rec.id);
  }

  private maybeScope(now: number): void {
    // demand() and write() for one packet share `now`: scoping at most once per instant is once per packet.
    if (now <= this.lastScopeAt) return;
    const version = this.o.domain.version;
    if (now < this.nextScopeAt && !this.scopeInvalid && version === this.seenDomainVersion) return;
    this.lastScopeAt = now;
    this.scopeInvalid = false;
    this.seenDomainVersion = version;
    this.counters.scopePasses++;
    this.stamp++;
    for (const s of this.o.domain.alwaysInScope) this.inScope(s, s.alwaysPriority);
    this.o.scope?.(now, this.sink);
    for (const rec of this.records.values()) {
      if (rec.wanted && rec.scopeStamp !== this.stamp) rec.leave(); // may delete from the map: safe here
    }
    this.nextScopeAt =
      now + Math.max(this.scopeIntervalMs, this.records.size * this.scopeMsPerObject);
  }

  private inScope(source: GhostSource, priority: number): void {
    if (source.destroyed) return;
    let rec = this.records.get(source);
    // Before queueing: the priority sets the record's place in line.
    const p = priority >= MIN_PRIORITY ? priority : MIN_PRIORITY;
    if (rec === undefined) {
      const id = this.ids.alloc();
      if (id === undefined) {
        this.counters.idExhausted++;
        return;
      }
      rec = new GhostRecord(this, source, id);
      this.newHot(id, p);
      this.records.set(source, rec);
      source.attach(rec);
      this.queue(rec);
    } else if (!rec.wanted) {
      this.hot[HOT * rec.id + PRIORITY] = p;
      rec.reenter();
    }
    rec.scopeStamp = this.stamp;
    const at = HOT * rec.id;
    this.hot[at + PRIORITY] = p;
    if (rec.queuedTier >= 0 && p > 2 * (this.hot[at + KEY_PRIORITY] as number)) this.rekey(rec);
  }

  /** A new record's numbers: never written, priority `p` (its id may have served a record before). */
  private newHot(id: number, p: number): void {
    const at = HOT * id;
    if (at + HOT > this.hot.length) {
      const grown = new Float64Array(Math.max(2 * this.hot.length, at + HOT));
      grown.set(this.hot);
      this.hot = grown;
    }
    this.hot[at + KEY] = 0;
    this.hot[at + PASS] = 0;
    this.hot[at + PRIORITY] = p;
    this.hot[at + KEY_PRIORITY] = 1;
  }

  private writeEntry(w: BitWriter, idBits: number, rec: GhostRecord, kind: EntryKind): number {
    writeEntryHead(w, idBits, { id: rec.id, kind });
    const source = rec.source;
    const cls = source.cls;
    switch (kind) {
      case 'delete':
        return 0;
      case 'create':
      case 'refresh':
        w.writeUint(source.classId, this.o.domain.registry.classIdBits);
        packGroups(w, source, cls.allMask);
        return cls.allMask;
      case 'update':
        writeUpdateMask(w, cls.maskBits, rec.mask);
        packGroups(w, source, rec.mask);
        return rec.mask;
    }
  }

  private counted(rec: GhostRecord, kind: EntryKind, bits: number): void {
    this.counters.addClassBits(rec.source.classId, rec.source.cls.name, bits);
    switch (kind) {
      case 'create':
        this.counters.creates++;
        return;
      case 'refresh':
        this.counters.refreshes++;
        return;
      case 'update':
        this.counters.updates++;
        return;
      case 'delete':
        this.counters.deletes++;
        return;
    }
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

function tierOf(rec: GhostRecord): number {
  return rec.state === 'create' || rec.state === 'delete' ? STATUS_TIER : UPDATE_TIER;
}

function kindOf(rec: GhostRecord): EntryKind {
  switch (rec.state) {
    case 'create':
      return 'create';
    case 'creating':
      return 'refresh';
    case 'delete':
      return 'delete';
    case 'live':
    case 'deleting':
    case 'freed':
      return 'update'; // only live records are selected among these
  }
}

function packGroups(w: BitWriter, source: GhostSource, mask: number): void {
  const groups = source.cls.groups;
  for (let i = 0; i < groups.length; i++) {
    if ((mask & (1 << i)) !== 0) groups[i]?.pack(w, source.obj);
  }
}
