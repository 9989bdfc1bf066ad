// Reconciling provisional ids: an object this user creates is drawn, edited and typed into at once under a
// provisional id (store/drafts.ts); what must reach the host under its real id waits here, and runs when the
// host's reply confirms the create (in the order it was asked) or is dropped when the host refuses it.
// Pure: no store, no bridge, no timers.
import type { ObjectId } from '../../shared/board';
import { isProvisional } from '../store/drafts';

type Entry =
  | { readonly state: 'pending'; readonly waiting: ((real: ObjectId) => void)[] }
  | { readonly state: 'confirmed'; readonly real: ObjectId }
  | { readonly state: 'refused' };

export class ProvisionalIds {
  /**
   * Per provisional id of this session. Entries stay after the reply: a view rendered just before it may still
   * name the provisional id, and must reach the same object (a few numbers per object created).
   */
  private readonly entries = new Map<ObjectId, Entry>();

  /** A create went out under this provisional id. */
  open(id: ObjectId): void {
    if (!isProvisional(id) || this.entries.has(id))
      throw new RangeError(`not a new provisional id: ${id}`);
    this.entries.set(id, { state: 'pending', waiting: [] });
  }

  /** The real id now: `id` itself when it is one, null while the host has not answered or after a refusal. */
  real(id: ObjectId): ObjectId | null {
    if (!isProvisional(id)) return id;
    const e = this.entries.get(id);
    return e?.state === 'confirmed' ? e.real : null;
  }

  /**
   * Runs `use` with the object's real id: now when it is known, once the host confirms it while pending, never
   * if the host refused it (the draft is gone, and so is what was asked of it).
   */
  whenReal(id: ObjectId, use: (real: ObjectId) => void): void {
    if (!isProvisional(id)) {
      use(id);
      return;
    }
    const e = this.entries.get(id);
    if (e?.state === 'confirmed') use(e.real);
    else if (e?.state === 'pending') e.waiting.push(use);
  }

  /** The host gave the object its id: what waited runs, in order. */
  confirm(id: ObjectId, real: ObjectId): void {
    const e = this.entries.get(id);
    if (e?.state !== 'pending') throw new RangeError(`provisional id ${id} is not pending`);
    this.entries.set(id, { state: 'confirmed', real });
    for (const use of e.waiting) use(real);
  }

  /** The host refused the create: what waited is dropped. */
  refuse(id: ObjectId): void {
    const e = this.entries.get(id);
    if (e?.state !== 'pending') throw new RangeError(`provisional id ${id} is not pending`);
    this.entries.set(id, { state: 'refused' });
  }
}
