// The host's memory of deleted objects: who deleted each id, its kind and its z, so that only that participant
// may bring it back (an undone delete, a redone create) and where it stood. Bounded; knows nothing of the wire.
import type { ObjectId, ObjectKind, PeerId } from '../../shared/board';

export interface Tombstone {
  readonly by: PeerId;
  readonly kind: ObjectKind;
  readonly z: number;
}

/** Deleted objects remembered; past it the oldest are forgotten (and can no longer be restored). */
export const MAX_TOMBSTONES = 10_000;

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

  /** A participant left: nobody can restore what it deleted (ids are never given to anyone else). */
  forget(peer: PeerId): void {
    for (const [id, t] of this.byId) if (t.by === peer) this.byId.delete(id);
  }
}
