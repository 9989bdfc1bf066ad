// What one participant may ask of the host, and how big the board may grow: token buckets for calls, call
// bytes and chat, and the board's budget with its size estimate. Pure (time passed in); knows nothing of
// connections or of which call is which.
import type { BoardObject, ObjectId } from '../../shared/board';
import { utf8Length } from '../net/stream/params';
import type { Board } from './board';

/**
 * Per-participant rates (per second) and bursts. Far above what a person does: a paste of a thousand objects
 * goes through at once, an edit storm of the tests (about 25 calls/s) never comes near; what they stop is a
 * client flooding the host. Chat is held to what people type (and paste).
 */
export interface PeerLimits {
  readonly callsPerSecond: number;
  readonly callBurst: number;
  /** Estimated bytes of calls' parameters (callBytes). */
  readonly bytesPerSecond: number;
  readonly byteBurst: number;
  readonly chatPerSecond: number;
  readonly chatBurst: number;
  /** UTF-8 bytes of chat text. */
  readonly chatBytesPerSecond: number;
  readonly chatByteBurst: number;
}

export const DEFAULT_PEER_LIMITS: PeerLimits = {
  callsPerSecond: 200,
  callBurst: 2000,
  bytesPerSecond: 256 * 1024,
  byteBurst: 4 * 1024 * 1024,
  chatPerSecond: 10,
  chatBurst: 30,
  chatBytesPerSecond: 2000,
  chatByteBurst: 8000,
};

/** How big the board may grow through participants' calls (the host's own edits and loaded files are not held to it). */
export interface BoardLimits {
  readonly objects: number;
  /** Estimated bytes (objectBytes) of every object together. */
  readonly bytes: number;
}

export const DEFAULT_BOARD_LIMITS: BoardLimits = { objects: 20_000, bytes: 16 * 1024 * 1024 };

/** Refills continuously at `perSecond` up to `capacity`; starts full. */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.at = now;
  }

  /** Takes `n` tokens if there are that many (a request larger than the capacity never passes). */
  take(now: number, n = 1): boolean {
    if (now > this.at) {
      this.tokens = Math.min(
        this.capacity,
        this.tokens + ((now - this.at) * this.perSecond) / 1000,
      );
      this.at = now;
    }
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }
}

/** One participant's buckets. Each method returns why a call is refused, or undefined to let it through. */
export class PeerBudget {
  private readonly calls: TokenBucket;
  private readonly bytes: TokenBucket;
  private readonly chats: TokenBucket;
  private readonly chatBytes: TokenBucket;

  constructor(limits: PeerLimits, now: number) {
    this.calls = new TokenBucket(limits.callBurst, limits.callsPerSecond, now);
    this.bytes = new TokenBucket(limits.byteBurst, limits.bytesPerSecond, now);
    this.chats = new TokenBucket(limits.chatBurst, limits.chatPerSecond, now);
    this.chatBytes = new TokenBucket(limits.chatByteBurst, limits.chatBytesPerSecond, now);
  }

  call(now: number, bytes: number): string | undefined {
    if (!this.calls.take(now)) return 'too many requests: slow down';
    if (!this.bytes.take(now, bytes)) return 'too much data too fast: slow down';
    return undefined;
  }

  chat(now: number, text: string): string | undefined {
    if (text.trim() === '') return 'empty message';
    if (!this.chats.take(now)) return 'too many messages: slow down';
    if (!this.chatBytes.take(now, utf8Length(text))) return 'too much text too fast: slow down';
    return undefined;
  }
}

/** A call's parameters' size, roughly as they sit on the wire: strings by UTF-8 bytes, point lists by 2 bytes a value. */
export function callBytes(params: Readonly<Record<string, unknown>>): number {
  let n = 0;
  for (const v of Object.values(params)) {
    if (typeof v === 'string') n += utf8Length(v);
    else if (Array.isArray(v)) n += 2 * v.length;
    else n += 4;
  }
  return n;
}

/** An object's share of the board budget: a fixed part for its fields, its text and its points. */
export function objectBytes(o: {
  readonly text: string;
  readonly points: readonly number[];
}): number {
  return 128 + utf8Length(o.text) + 4 * o.points.length;
}

/** The board's size as the budget counts it, kept up to date from the board's changes. */
export class BoardBudget {
  private readonly sizes = new Map<ObjectId, number>();
  private total = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly board: Board,
    readonly limits: BoardLimits,
  ) {
    for (const o of board.all()) this.set(o);
    this.unsubscribe = board.subscribe((c) => {
      if (c.type === 'upsert') this.set(c.object);
      else {
        this.total -= this.sizes.get(c.id) ?? 0;
        this.sizes.delete(c.id);
      }
    });
  }

  get bytes(): number {
    return this.total;
  }

  private set(o: BoardObject): void {
    const size = objectBytes(o);
    this.total += size - (this.sizes.get(o.id) ?? 0);
    this.sizes.set(o.id, size);
  }

  /** Why a new object of this size does not fit, or undefined. */
  refuseNew(size: number): string | undefined {
    if (this.board.size >= this.limits.objects)
      return `the board is full (${this.limits.objects} objects)`;
    return this.refuseGrowth(size);
  }

  /** Why growing the board by `delta` estimated bytes does not fit, or undefined (shrinking always fits). */
  refuseGrowth(delta: number): string | undefined {
    if (delta <= 0 || this.total + delta <= this.limits.bytes) return undefined;
    const b = this.limits.bytes;
    const size =
      b >= 1024 * 1024 ? `${Math.round(b / (1024 * 1024))} MB` : `${Math.round(b / 1024)} KB`;
    return `the board is full (${size})`;
  }

  dispose(): void {
    this.unsubscribe();
  }
}
