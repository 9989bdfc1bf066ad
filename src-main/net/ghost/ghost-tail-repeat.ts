// Tail repeats: an urgent group's last write, sent once more if nothing newer follows and no ack came first. Knows
// nothing of bits, budgets, scoping or the line's order.
import type { Due } from '../due-heap';
import { DueHeap } from '../due-heap';
import { smoothedGap } from '../stats';
import type { GhostRecord, GhostTx } from './ghost-record';

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
export function tailRepeatDue(rec: GhostRecord, now: number): number {
  const g = smoothedGap(rec.urgentWriteGap, now - rec.lastUrgentWriteAt, URGENT_WRITE_MAX_GAP_MS);
  rec.urgentWriteGap = g;
  rec.lastUrgentWriteAt = now;
  const wait = g === undefined ? TAIL_REPEAT_MS : TAIL_REPEAT_GAPS * g;
  return now + Math.min(TAIL_REPEAT_MS, Math.max(TAIL_REPEAT_MIN_MS, wait));
}

/** The latest write of those groups arrived (`tx` has no later entry): they need no repeat. */
export function cancelRepeat(tx: GhostTx): void {
  tx.rec.repeatMask &= ~tx.mask >>> 0;
}

interface Repeat extends Due {
  readonly rec: GhostRecord;
}

/** One connection's pending tail repeats. */
export class TailRepeats {
  /**
   * Pending repeats by due time, at most one live entry per record: a record written again while its entry waits
   * only moves its due time, and the entry is pushed back when it surfaces (a pointer moving at 60 Hz costs a heap
   * entry per repeat delay, not per write). An entry whose record was delivered is dropped when it surfaces.
   */
  private readonly heap = new DueHeap<Repeat>();
  private order = 0;
  /**
   * No repeat falls due before this (the heap's top when last looked at; stale entries may make it early, never
   * late): release() runs many times per packet and skips the heap until then.
   */
  private checkAt = Infinity;

  constructor(private readonly counters: { tailRepeats: number }) {}

  /** When the next repeat still wanted falls due (Infinity: none). */
  nextAt(): number {
    // Exact here (stale entries dropped), so the connection's timer never wakes for a repeat no longer wanted.
    this.checkAt = this.first()?.at ?? Infinity;
    return this.checkAt;
  }

  /** Turns the repeats due by `now` into dirty groups (so they go out as ordinary urgent updates). */
  release(now: number): void {
    if (now < this.checkAt) return;
    for (let r = this.first(); r !== undefined && r.at <= now; r = this.first()) {
      this.heap.pop();
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
    this.checkAt = this.first()?.at ?? Infinity;
  }

  /**
   * `tx` was written at `now`; `starved` says its record was left out of a packet while it had something to send.
   * Sets the repeat of the urgent groups it carried, unless they were themselves a repeat.
   */
  wrote(now: number, tx: GhostTx, starved: boolean): void {
    const rec = tx.rec;
    // A repeat is written once: repeating it until an ack outran the next one would never stop while the round
    // trip is longer than the repeat delay.
    const urgent = tx.kind === 'update' ? tx.mask & rec.source.cls.urgentMask & ~rec.repeatOnly : 0;
    rec.repeatOnly = 0;
    if (urgent === 0) return;
    if (starved) {
      // The packets can't keep up with it (a far pointer on a busy host), so its next turn carries newer state
      // anyway and a lost last write comes back by the lost-bit rule. A repeat would be heap work per write for
      // nothing (12 % of a 256-peer host's time, nearly all discarded). Nor does it learn a rhythm from these
      // writes: their gaps are the packets' turns, not the pointer's.
      rec.repeatMask = 0;
      return;
    }
    const due = tailRepeatDue(rec, now);
    tx.repeats = true;
    rec.repeatMask = urgent;
    rec.repeatDueAt = due;
    // An entry already waiting for an earlier time is pushed back when it surfaces.
    if (due < rec.repeatQueuedAt) this.push(rec);
  }

  /** Forgets every pending repeat (the connection closed). */
  clear(): void {
    this.heap.clear();
    this.checkAt = Infinity;
  }

  /** The earliest pending repeat still wanted (drops stale entries on top, pushes moved ones back). */
  private first(): Repeat | undefined {
    for (let r = this.heap.peek(); r !== undefined; r = this.heap.peek()) {
      const rec = r.rec;
      if (rec.repeatQueuedAt !== r.at) {
        this.heap.pop(); // superseded by an earlier entry of the same record
        continue;
      }
      if (rec.repeatMask !== 0 && rec.repeatDueAt === r.at) return r;
      this.heap.pop();
      rec.repeatQueuedAt = Infinity;
      if (rec.repeatMask !== 0 && rec.repeatDueAt < Infinity) this.push(rec);
    }
    return undefined;
  }

  private push(rec: GhostRecord): void {
    rec.repeatQueuedAt = rec.repeatDueAt;
    this.heap.push({ at: rec.repeatDueAt, order: this.order++, rec });
    this.checkAt = Math.min(this.checkAt, rec.repeatDueAt);
  }
}
