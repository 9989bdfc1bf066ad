// The line of one connection's ghost records with something to send: status changes first, then self-clocked fair
// queueing by priority, kept across packets. Knows nothing of bits, budgets, scoping or repeats.
import type { GhostRecord } from './ghost-record';
import { KeyHeap } from './ghost-select';

/**
 * A record's numbers for the line, kept in one typed array indexed by ghost id (HOT slots each) rather than on the
 * record: each is a double, which a record would hold as a separate boxed number, and at 256 peers every turn of a
 * far pointer found these cold, one cache miss apiece.
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

/** Tiers, in a record's `queuedTier`: -1 is none, and a higher tier is served first. */
const UPDATE_TIER = 0;
const STATUS_TIER = 1;

/**
 * Self-clocked fair queueing over the records: each waits in line with key = (its last turn's key, or the queue's
 * clock if that is later) + 1 / priority, and packets take the smallest keys. A ghost's share of the packets is
 * proportional to its priority, a record that had nothing to send for a while gets no credit for it, and a packet
 * touches only the records it takes. Status changes (creates, deletes) go before any update.
 */
export class FairQueue {
  /**
   * Records with something to send, by tier (see queue()); a record that has nothing left by the time it is met is
   * dropped then. An entry whose record has since moved tier or taken a new order is stale.
   */
  private readonly lines = [new KeyHeap<GhostRecord>(), new KeyHeap<GhostRecord>()];
  /** Each record's key, pass, priority and key priority, at HOT * id (see HOT). */
  private hot = new Float64Array(HOT * 64);
  /** The queue's clock: the largest key written so far. */
  private clock = 0;
  private order = 0;
  /** The line first() last found its record in. */
  private firstTier = UPDATE_TIER;
  /** Packets started so far: a record's `queuedAt` tells whether a packet went out without it. */
  private packets = 0;

  /** A new record's numbers: never written, priority `p` (its id may have served a record before). */
  add(id: number, p: number): void {
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

  /** Sets the priority the record's next key will be set with; a key it has already keeps. */
  setPriority(id: number, p: number): void {
    this.hot[HOT * id + PRIORITY] = p;
  }

  /**
   * Sets the priority, and a waiting record whose priority has more than doubled since its key was set (the viewer
   * came close to it) takes the earlier place the new priority gives it, rather than waiting out the stride of the
   * old one. Doubling at least each time bounds how often one wait is re-keyed (log2 of the priority range).
   */
  prioritize(rec: GhostRecord, p: number): void {
    const at = HOT * rec.id;
    this.hot[at + PRIORITY] = p;
    if (rec.queuedTier >= 0 && p > 2 * (this.hot[at + KEY_PRIORITY] as number)) this.rekey(rec);
  }

  /** Puts the record in line for its next turn (or moves it up to the status tier, keeping its key). */
  queue(rec: GhostRecord): void {
    const tier = tierOf(rec);
    if (rec.queuedTier >= tier) return;
    if (rec.queuedTier < 0) {
      rec.queuedAt = this.packets;
      this.takeTurn(rec, tier, this.nextKey(rec));
    } else {
      this.enqueue(rec, tier);
    }
  }

  /** Whether the record waits in line. */
  waiting(rec: GhostRecord): boolean {
    return rec.queuedTier >= 0;
  }

  /** A packet is being written: records queued from now on were not left out of it. */
  startPacket(): void {
    this.packets++;
  }

  /** The first queued record with something to send, status changes first; stale and idle entries met are dropped. */
  first(): GhostRecord | undefined {
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

  /** Takes the first record out of line (see first()). */
  pop(): GhostRecord | undefined {
    const rec = this.first();
    if (rec !== undefined) {
      this.lines[this.firstTier]?.pop();
      rec.queuedTier = -1;
    }
    return rec;
  }

  /** A popped record that did not fit the packet keeps its key and place in line. */
  putBack(rec: GhostRecord): void {
    this.enqueue(rec, tierOf(rec));
  }

  /**
   * A popped record was written: its next turn counts from this one, and the clock moves up to it. Returns whether
   * it was starved: queued before the packet ahead of this one was written, and left out of it.
   */
  wrote(rec: GhostRecord): boolean {
    const starved = this.packets > rec.queuedAt + 1;
    const at = HOT * rec.id;
    const key = this.hot[at + KEY] as number;
    if (key > this.clock) this.clock = key;
    this.hot[at + PASS] = key;
    return starved;
  }

  /**
   * A record left out of a packet while it had something to send, and then written, goes straight back in line for
   * its next turn (a stride after this one), and its source stops telling it of changes: it reads them when that
   * turn comes (GhostRecord.mask), and leaves the line then if there are none. A far pointer on a busy host changes
   * many times between its turns; each change used to queue it again on every connection it had been written to, a
   * likely cache miss each (a record, its sender, its line), where now only the source's own counters are touched.
   * Such a record gives up the urgent wake-up (the connection is busy anyway) and its tail repeat (already dropped
   * for starved writes). Its next turn is a stride after this one, as for a record that was never idle:
   * self-clocked fair queueing of a backlogged flow.
   */
  keepInLine(rec: GhostRecord): void {
    if (rec.state !== 'live' || rec.queuedTier >= 0) return;
    rec.queuedAt = this.packets;
    const at = HOT * rec.id;
    const stride = 1 / (this.hot[at + PRIORITY] as number);
    this.takeTurn(rec, UPDATE_TIER, (this.hot[at + PASS] as number) + stride);
    rec.source.hold(rec, rec.source.cls.allMask);
  }

  /** Empties the line (the connection closed). */
  clear(): void {
    for (const line of this.lines) line.clear();
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
    rec.order = this.order++;
    this.enqueue(rec, tier);
  }

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
}

function tierOf(rec: GhostRecord): number {
  return rec.state === 'create' || rec.state === 'delete' ? STATUS_TIER : UPDATE_TIER;
}
