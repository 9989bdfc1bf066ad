// The contract between the packet scheduler and the stream managers (events, ghosts, ...) that fill packets.
// Knows nothing of sockets, crypto or what any manager carries.
import type { BitReader, BitWriter } from '../bitstream';

/**
 * How much a manager wants to send now:
 * - 'none': nothing waiting;
 * - 'normal': data waiting that can ride the next scheduled packet;
 * - 'urgent': latency-sensitive data (a pointer, a grab) that should leave as soon as send credit allows,
 *   not at the next tick (TRIBES' future-work item 1).
 */
export type SendDemand = 'none' | 'normal' | 'urgent';

/**
 * A stream manager writes its section of each packet and records what it wrote (its part of the packet's
 * transmission record, TRIBES Figure 4). The scheduler gives managers the packet in a fixed order, which is
 * their priority; each section is preceded by one presence bit that the scheduler writes, so a manager with
 * nothing to say costs one bit.
 */
export interface StreamManager<Rec> {
  /** Short name for per-kind traffic figures ("events", "ghosts", ...). */
  readonly name: string;
  demand(now: number): SendDemand;
  /**
   * Set by the scheduler. The manager calls it when its demand may have risen outside the scheduler's own
   * calls (the application queued data, the scope changed), so a cached send time is worked out again. Once
   * per rise is enough; calling it more costs little, never calling it delays sending to the next timer.
   */
  wake?: (() => void) | undefined;
  /**
   * Most of a packet's budget (0..1] this manager may take while a manager after it has data waiting; default
   * all. A manager placed early for latency (pointers before events) must not starve the ones after it.
   */
  readonly maxShare?: number | undefined;
  /**
   * Its urgent data is current state that the next update replaces (a moving pointer: ghosts). Urgent events (a
   * drop, a grab), which nothing replaces, have a packet allowance of their own (SendCredit): a pointer stream that
   * takes every packet the rate allows would otherwise hold a discrete action back for a packet interval.
   */
  readonly urgentState?: boolean | undefined;
  /** The earliest time its demand may rise by itself with nothing new queued (a periodic scope pass). */
  nextCheckAt?(): number;
  /**
   * Writes this manager's section into `w`, using at most `budgetBits` bits, and returns the record of what
   * it wrote, or undefined if it wrote nothing (the scheduler then removes the presence bit).
   */
  write(now: number, w: BitWriter, budgetBits: number): Rec | undefined;
  /** Reads this manager's section of a received packet. Hostile input throws DecodeError or ProtocolError. */
  read(now: number, r: BitReader): void;
  /** The fate of a packet this manager wrote into, exactly once per record, in send order. */
  notify(now: number, record: Rec, delivered: boolean): void;
}

/** An authenticated peer sent something no correct peer sends: the connection closes with this detail. */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
}
