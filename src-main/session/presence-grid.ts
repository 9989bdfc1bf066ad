// The host's relayed pointers bucketed by where they are on the board, so that a peer's presence scope pass visits
// the pointers near its view rather than every pointer of the session (at 1,000 users over 4 mirrors, each of a
// mirror's 250 peers walked all 1,000 ten times a second). Exact: a bucket only narrows the candidates, and each
// is still tested against the view (presence-scope.ts). Knows nothing of connections or the wire.
import type { Viewport } from '../../shared/api';
import type { GhostScope } from '../net/ghost/ghost-scope-pass';
import type { GhostSource } from '../net/ghost/ghost-source';
import type { PresenceState } from './ghost-classes';
import { MIN_VIEW_MARGIN, scopePresence, VIEW_MARGIN_SHARE } from './presence-scope';

/**
 * A cell's side in board units: a laptop's view with its margin (2,400 x 1,800) spans about 20 cells, and a cluster
 * of pointers a few cells. Smaller cells cost more lookups per pass; larger ones more pointers tested and dropped.
 */
const CELL = 512;
/** Cell coordinates are clamped to this many cells either side of the origin (a key packs both in one number). */
const HALF_SPAN = 1 << 15;

type Source = GhostSource<PresenceState>;

/** A pointer's place in the grid, kept by whoever added it and handed back on each move (no lookup). */
export interface GridSlot {
  readonly source: Source;
  /** Its cell's key, and its index in that cell's list. */
  key: number;
  index: number;
}

function cellOf(v: number): number {
  const c = Math.floor(v / CELL);
  // NaN (never from the wire) lands in the lowest cell rather than nowhere: every source stays in some bucket.
  return c >= -HALF_SPAN ? (c < HALF_SPAN ? c : HALF_SPAN - 1) : -HALF_SPAN;
}

function keyOf(cx: number, cy: number): number {
  return (cx + HALF_SPAN) * 2 * HALF_SPAN + (cy + HALF_SPAN);
}

export class PresenceGrid {
  /** Occupied cells' pointers (a cell left empty is deleted, so the map's size is the occupied cells). */
  private readonly cells = new Map<number, GridSlot[]>();
  /** Every pointer in the order added (a pass without a view). */
  private readonly all = new Set<GridSlot>();

  get size(): number {
    return this.all.size;
  }

  /** Adds `s` where it is now; the slot returned stands for it in moved() and remove(). */
  add(s: Source): GridSlot {
    const slot: GridSlot = { source: s, key: keyOf(cellOf(s.obj.x), cellOf(s.obj.y)), index: 0 };
    this.all.add(slot);
    this.put(slot);
    return slot;
  }

  remove(slot: GridSlot): void {
    if (!this.all.delete(slot)) return;
    this.take(slot);
  }

  /** The slot's pointer may have moved: it changes cells if it left its own (two divisions when it stayed). */
  moved(slot: GridSlot): void {
    const o = slot.source.obj;
    const key = keyOf(cellOf(o.x), cellOf(o.y));
    if (key === slot.key || !this.all.has(slot)) return;
    this.take(slot);
    slot.key = key;
    this.put(slot);
  }

  /**
   * Adds to `sink` every pointer in the view (with its margin) of the peer whose presence is `mine`, as
   * scopePresence would over all of them; with no view, every pointer (in the order added).
   */
  scope(sink: GhostScope, view: Viewport | undefined, mine: Source): void {
    if (view === undefined) {
      for (const slot of this.all) scopePresence(sink, view, mine, slot.source);
      return;
    }
    const m = Math.max(MIN_VIEW_MARGIN, VIEW_MARGIN_SHARE * Math.max(view.w, view.h));
    const x0 = cellOf(view.x - m);
    const x1 = cellOf(view.x + view.w + m);
    const y0 = cellOf(view.y - m);
    const y1 = cellOf(view.y + view.h + m);
    // A view zoomed far out spans more cells than are occupied: walk the occupied ones instead.
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > this.cells.size) {
      for (const bucket of this.cells.values()) visit(sink, view, mine, bucket);
      return;
    }
    for (let cx = x0; cx <= x1; cx++)
      for (let cy = y0; cy <= y1; cy++) {
        const bucket = this.cells.get(keyOf(cx, cy));
        if (bucket !== undefined) visit(sink, view, mine, bucket);
      }
  }

  private put(slot: GridSlot): void {
    let bucket = this.cells.get(slot.key);
    if (bucket === undefined) {
      bucket = [];
      this.cells.set(slot.key, bucket);
    }
    slot.index = bucket.length;
    bucket.push(slot);
  }

  /** Takes the slot out of its cell (the cell's last slot fills its place). */
  private take(slot: GridSlot): void {
    const bucket = this.cells.get(slot.key);
    if (bucket === undefined) return;
    const last = bucket.pop() as GridSlot;
    if (last !== slot) {
      bucket[slot.index] = last;
      last.index = slot.index;
    }
    if (bucket.length === 0) this.cells.delete(slot.key);
  }
}

function visit(sink: GhostScope, view: Viewport, mine: Source, bucket: readonly GridSlot[]): void {
  for (let i = 0; i < bucket.length; i++)
    scopePresence(sink, view, mine, (bucket[i] as GridSlot).source);
}
