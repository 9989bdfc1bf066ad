// The host's memory of deleted objects: who deleted each id and the object as it was, so that only that
// participant may bring it back (an undone delete, a redone create), as it was and where it stood. Bounded;
// knows nothing of the wire.
import type { BoardObject, ObjectId, PeerId } from '../../shared/board';

export interface Tombstone {
  readonly by: PeerId;
  /** As it was deleted (objects are never mutated, so this holds the board's own, no copy). */
  readonly object: BoardObject;
}

/**
 * Deleted objects remembered; past it the oldest are forgotten (and can no longer be restored). At the largest
 * objects (a full text and 256 points, about 2 KB) that is about 10 MB.
 */
export const MAX_TOMBSTONES = 5_000;

export class Tombstones {
  /** In deletion order (a Map keeps insertion order): the first is the oldest. */
  private readonly byId = new Map<ObjectId, Tombstone>();

  constructor(private readonly max = MAX_TOMBSTONES) {}

  get size(): number {
    return this.byId.size;
  }

  deleted(id: ObjectId, t: Tombstone): void {
    this.byId.delete(id);
    this.byId.set(id, t);
    if (this.byId.size > this.max) {
      const oldest = this.byId.keys().next();
      if (oldest.done !== true) this.byId.delete(oldest.value);
    }
  }

  get(id: ObjectId): Tombstone | undefined {
    return this.byId.get(id);
  }

  restored(id: ObjectId): void {
    this.byId.delete(id);
  }

  /** The board was replaced whole (files): nothing deleted from the old one comes back onto the new one. */
  clear(): void {
    this.byId.clear();
  }

  /** A participant left: nobody can restore what it deleted (ids are never given to anyone else). */
  forget(peer: PeerId): void {
    for (const [id, t] of this.byId) if (t.by === peer) this.byId.delete(id);
  }
}
