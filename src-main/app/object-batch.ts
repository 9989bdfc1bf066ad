// Board changes on their way to the renderer gathered into one 'objects' event: a joiner's 5,000 objects arrive
// as a few hundred events (one per turn of the event loop that brought them), not 5,000, each of which the
// renderer would fold into its store and render. Later news of an object replaces earlier news of it. Pure;
// knows nothing of sessions or of when the batch is sent.
import type { ApiEvent } from '../../shared/api';
import type { BoardObject, ObjectId } from '../../shared/board';

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
