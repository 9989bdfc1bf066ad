// Board changes gathered into one 'objects' event: the core sends a joiner's 5,000 objects as a few hundred
// events (one per turn of its event loop), and the renderer folds what came in a frame into its store at once,
// not once per object. Later news of an object replaces earlier news of it. Pure; knows nothing of sessions, of
// the store, or of when a batch is taken.
import type { ApiEvent } from './api';
import type { BoardObject, ObjectId } from './board';

type ObjectsEvent = Extract<ApiEvent, { type: 'objects' }>;

export class ObjectBatch {
  /** The latest state of each object upserted, in the order each was first named. */
  private readonly upserts = new Map<ObjectId, BoardObject>();
  private readonly deletes = new Set<ObjectId>();

  get empty(): boolean {
    return this.upserts.size === 0 && this.deletes.size === 0;
  }

  /**
   * Adds an event's changes. The renderer applies an event's deletes before its upserts, which is the order of
   * a delete then an upsert (a restore): both are kept. An upsert then a delete is the delete alone.
   */
  add(e: ObjectsEvent): void {
    for (const id of e.deletes) {
      this.upserts.delete(id);
      this.deletes.add(id);
    }
    for (const o of e.upserts) this.upserts.set(o.id, o);
  }

  /** The gathered changes as one event (undefined when there are none); the batch is empty after. */
  take(): ObjectsEvent | undefined {
    if (this.empty) return undefined;
    const e: ObjectsEvent = {
      type: 'objects',
      upserts: [...this.upserts.values()],
      deletes: [...this.deletes],
    };
    this.upserts.clear();
    this.deletes.clear();
    return e;
  }
}
