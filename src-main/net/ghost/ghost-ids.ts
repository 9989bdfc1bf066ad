// Ghost id allocation for one connection's sender: always the lowest free id, so the ids in use stay dense and
// the per-packet id width tracks the live count. Knows nothing of objects, the wire or packets.
import { bitsForRange } from '../bitstream';

/** Ghost ids are at most this wide on the wire (65,536 ghosts per connection and direction). */
export const GHOST_ID_BITS_MAX = 16;
export const GHOST_LIMIT_MAX = 2 ** GHOST_ID_BITS_MAX;
/** Default bound on live ghosts per connection and direction; both ends must agree (or the receiver's be larger). */
export const DEFAULT_MAX_GHOSTS = 16_384;

/** Bits of an id field able to hold every id below `limit` (at least 1). */
export function idBitsFor(limit: number): number {
  return Math.max(1, bitsForRange(0, Math.max(0, limit - 1)));
}

export class GhostIdPool {
  /** One past the highest id in use: ids written in a packet fit in idBitsFor(top) bits. */
  private topId = 0;
  private liveCount = 0;
  private readonly used: Uint8Array;
  /** Min-heap of freed ids; may hold ids at or above topId, which are discarded lazily. */
  private readonly free: number[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1 || limit > GHOST_LIMIT_MAX) {
      throw new RangeError(`ghost id limit must be 1..${GHOST_LIMIT_MAX}, got ${limit}`);
    }
    this.used = new Uint8Array(limit);
  }

  get live(): number {
    return this.liveCount;
  }

  get top(): number {
    return this.topId;
  }

  /** Width of the id field for the ids in use now. */
  get idBits(): number {
    return idBitsFor(this.topId);
  }

  /** The lowest free id, or undefined when all `limit` ids are in use. */
  alloc(): number | undefined {
    let id: number | undefined;
    const head = this.free[0];
    if (head !== undefined && head < this.topId) {
      id = this.popMin();
    } else {
      if (this.topId >= this.limit) return undefined;
      id = this.topId++;
      // Every id below topId is in use, so a freed copy of this one can only be the heap's head.
      if (head === id) this.popMin();
    }
    this.used[id] = 1;
    this.liveCount++;
    return id;
  }

  release(id: number): void {
    if (this.used[id] !== 1) throw new Error(`ghost id ${id} released but not in use`);
    this.used[id] = 0;
    this.liveCount--;
    this.pushFree(id);
    if (id === this.topId - 1) {
      while (this.topId > 0 && this.used[this.topId - 1] === 0) this.topId--;
    }
  }

  private pushFree(id: number): void {
    const h = this.free;
    let i = h.length;
    h.push(id);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = h[parent] as number;
      if (p <= id) break;
      h[i] = p;
      i = parent;
    }
    h[i] = id;
  }

  private popMin(): number {
    const h = this.free;
    const min = h[0] as number;
    const last = h.pop() as number;
    if (h.length === 0) return min;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const c = r < h.length && (h[r] as number) < (h[l] as number) ? r : l;
      if ((h[c] as number) >= last) break;
      h[i] = h[c] as number;
      i = c;
    }
    h[i] = last;
    return min;
  }
}
