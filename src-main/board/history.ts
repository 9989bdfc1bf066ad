// One user's undo history: the steps this user took, each as the objects' states before and after, and the
// operations an undo or redo sends, computed against the board as it is at that moment. Pure data and functions
// over a board lookup; knows nothing of who the user is on the wire, of the session or of time.
import type { BoardObject, NewObject, ObjectId, ObjectPatch, PeerId } from '../../shared/board';
import { NEW_OBJECT_FIELDS } from '../../shared/board';

/** An object's side of a change: absent, or the fields the change is about (all of them for a create or delete). */
export type Side =
  | { readonly type: 'absent' }
  | { readonly type: 'fields'; readonly fields: ObjectPatch & Partial<BoardObject> };

/**
 * One object's change within a step: from `before` to `after`. A create is absent → whole object, a delete the
 * reverse, an edit (a move, a resize, a restyle, a stroke's points, a text) the fields it set. `id` is undefined
 * while a create waits for the host's answer. Mutable: an undo or redo keeps only what it applied.
 */
export interface Part {
  id: ObjectId | undefined;
  before: Side;
  after: Side;
  /**
   * A restack's part: where it sent the object. Its sides are the z before and after; the z after is unknown
   * (absent) until the board shows it, and again after each redo (a redo restacks afresh).
   */
  restack?: 'front' | 'back';
}

/** A step: what one undo takes back (a drag of a selection is one step of several parts). */
export interface Step {
  parts: Part[];
}

/** What an undo or redo sends, as ordinary operations of this user. */
export type HistoryOp =
  | { readonly type: 'patch'; readonly id: ObjectId; readonly patch: ObjectPatch }
  | { readonly type: 'delete'; readonly id: ObjectId }
  | { readonly type: 'restore'; readonly id: ObjectId; readonly fields: NewObject }
  /** A lock in place set or cleared (the pinned field has a call of its own). */
  | { readonly type: 'pin'; readonly id: ObjectId; readonly pinned: boolean }
  /** An undone restack: the object back at exactly the z it had (the host refuses while another has it). */
  | { readonly type: 'place'; readonly id: ObjectId; readonly z: number }
  /** A redone restack, to the front or the back afresh; `part` learns its new z once the board shows it. */
  | {
      readonly type: 'restack';
      readonly id: ObjectId;
      readonly front: boolean;
      readonly part: Part;
    };

/** Steps kept; the oldest go first. */
export const MAX_STEPS = 500;

export const ABSENT: Side = { type: 'absent' };

export function fieldsSide(fields: ObjectPatch & Partial<BoardObject>): Side {
  return { type: 'fields', fields };
}

/** The whole of an object as a side (what a delete removes and an undo restores). */
export function objectSide(o: BoardObject): Side {
  const fields: Record<string, unknown> = {};
  for (const k of NEW_OBJECT_FIELDS) fields[k] = o[k];
  return fieldsSide(fields);
}

/** A part that locks or unlocks an object in place and changes nothing else. */
function isPinPart(part: Part): boolean {
  const f = part.after.type === 'fields' ? Object.keys(part.after.fields) : [];
  return f.length === 1 && f[0] === 'pinned';
}

/** The z a restack's side holds, or undefined while it is not known yet. */
export function zOf(side: Side): number | undefined {
  return side.type === 'fields' ? side.fields.z : undefined;
}

/**
 * A restack's part moved: an undo puts the object back at the z it had, a redo restacks it again. Only while the
 * object is there, not held by someone else nor locked in place, and still at either of this part's z (this
 * user's restack, or the z before while it is still on its way): one someone else has restacked since is theirs.
 */
function moveRestack(
  part: Part,
  to: Side,
  current: BoardObject | undefined,
  heldByOther: boolean,
): { op: HistoryOp; part: Part } | undefined {
  const id = part.id;
  const was = zOf(part.before);
  if (id === undefined || was === undefined || part.restack === undefined) return undefined;
  if (current === undefined || heldByOther || current.pinned === 1) return undefined;
  if (current.z !== was && current.z !== zOf(part.after)) return undefined;
  if (to === part.before) return { op: { type: 'place', id, z: was }, part };
  const again: Part = { id, before: part.before, after: ABSENT, restack: part.restack };
  return { op: { type: 'restack', id, front: part.restack === 'front', part: again }, part: again };
}

/** The one changed stretch between two strings: `a.slice(at, at + removed)` became `b.slice(at, at + inserted)`. */
function changeBetween(a: string, b: string): { at: number; removed: number; inserted: number } {
  const most = Math.min(a.length, b.length);
  let at = 0;
  while (at < most && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  let tail = 0;
  while (
    tail < most - at &&
    a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail)
  )
    tail++;
  return { at, removed: a.length - at - tail, inserted: b.length - at - tail };
}

/**
 * A text this user moved from `from` to `to` (an undo: back from what they typed) when someone else has typed
 * into it since, so the board shows `now`: this user's change made on `now` instead, as long as the two changes
 * touch different stretches of the text (the others' keys are kept, wherever they are; where the two meet, this
 * user's go first). Undefined when they overlap: the field is then left as it is.
 */
export function rebaseText(from: string, to: string, now: string): string | undefined {
  const mine = changeBetween(from, to);
  const theirs = changeBetween(from, now);
  const mineEnd = mine.at + mine.removed;
  const theirsEnd = theirs.at + theirs.removed;
  const splice = (at: number): string =>
    now.slice(0, at) + to.slice(mine.at, mine.at + mine.inserted) + now.slice(at + mine.removed);
  // This user's stretch lies in what `from` and `now` share (their common start, or their common end).
  if (mineEnd <= theirs.at) return splice(mine.at);
  if (theirsEnd <= mine.at) return splice(mine.at + theirs.inserted - theirs.removed);
  return undefined;
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => v === b[i]);
  return a === b;
}

/**
 * Moves one part from `from` to `to` on the board as it is now; returns the operation to send and the part
 * as applied, or undefined when it no longer applies. The rules:
 * - absent → object (an undone delete, a redone create): only while the id is off the board; the object comes
 *   back under its own id with the fields it had when this user removed it;
 * - object → absent (an undone create, a redone delete): only while the object is there and no one else holds
 *   it; it is deleted whatever others changed in it (it is this user's), and the part remembers it as it was,
 *   so a redo brings back exactly that;
 * - fields → fields (an edit): field by field, a field goes back only if it still holds either side's value
 *   (this user's value, or the old one while this user's edit is still on its way); a field someone else has
 *   since set keeps their value. A text someone else has typed into since is the exception: this user's own
 *   keys are taken back around theirs when the two touch different stretches of it (rebaseText). An object that is gone is never brought back, one held by someone else is
 *   left alone;
 * - a restack (z → z): see moveRestack.
 */
export function movePart(
  part: Part,
  from: Side,
  to: Side,
  current: BoardObject | undefined,
  me: PeerId | undefined,
): { op: HistoryOp; part: Part } | undefined {
  const id = part.id;
  if (id === undefined) return undefined;
  const heldByOther = current !== undefined && current.lockedBy !== null && current.lockedBy !== me;
  // Only an unlock changes a pinned object: the other parts wait (the host would refuse them).
  const pinned = current?.pinned === 1 && !isPinPart(part);
  if (part.restack !== undefined) return moveRestack(part, to, current, heldByOther);
  if (to.type === 'fields' && from.type === 'absent') {
    if (current !== undefined) return undefined;
    return { op: { type: 'restore', id, fields: to.fields as NewObject }, part };
  }
  if (to.type === 'absent') {
    if (current === undefined || heldByOther || pinned) return undefined;
    const was = objectSide(current);
    const moved = from === part.after ? { ...part, after: was } : { ...part, before: was };
    return { op: { type: 'delete', id }, part: moved };
  }
  if (from.type !== 'fields' || current === undefined || heldByOther || pinned) return undefined;
  const keptFrom: Record<string, unknown> = {};
  const keptTo: Record<string, unknown> = {};
  const now = current as Readonly<Record<string, unknown>>;
  for (const [k, v] of Object.entries(to.fields)) {
    const was = (from.fields as Readonly<Record<string, unknown>>)[k];
    const cur = now[k];
    if (same(cur, was) || same(cur, v)) {
      keptFrom[k] = was;
      keptTo[k] = v;
    } else if (
      k === 'text' &&
      typeof was === 'string' &&
      typeof v === 'string' &&
      typeof cur === 'string'
    ) {
      const rebased = rebaseText(was, v, cur);
      if (rebased === undefined) continue;
      keptFrom[k] = cur;
      keptTo[k] = rebased;
    }
  }
  if (Object.keys(keptTo).length === 0) return undefined;
  const sides = { from: fieldsSide(keptFrom), to: fieldsSide(keptTo) };
  const moved =
    from === part.after
      ? { id, after: sides.from, before: sides.to }
      : { id, before: sides.from, after: sides.to };
  // Sent even when the board shows it already: this user's own edit may still be on its way, and lands first.
  if (isPinPart(moved))
    return { op: { type: 'pin', id, pinned: keptTo.pinned === 1 }, part: moved };
  return { op: { type: 'patch', id, patch: keptTo }, part: moved };
}

/**
 * A user's undo and redo stacks. Recording a step clears the redo stack; an undo takes the newest step that
 * still applies to the board (a step none of whose parts applies is dropped, and the undo goes on to the one
 * before it), sends what applies of it and moves that to the redo stack; redo is its mirror.
 */
export class History {
  private readonly undos: Step[] = [];
  private readonly redos: Step[] = [];
  /** Depth of open groups, and the step they fill (made at the first part). */
  private groupDepth = 0;
  private groupStep: Step | undefined;

  get canUndo(): boolean {
    return this.undos.length > 0;
  }

  get canRedo(): boolean {
    return this.redos.length > 0;
  }

  /** The newest step (to add to it while a gesture goes on). */
  get top(): Step | undefined {
    return this.undos.at(-1);
  }

  /** Records a part as a new step, or into `into` when that is still the newest step (a gesture's parts). */
  record(part: Part, into?: Step): Step {
    this.redos.length = 0;
    const target = this.groupDepth > 0 ? this.groupStep : into;
    if (target !== undefined && target === this.top) {
      target.parts.push(part);
      return target;
    }
    const step = { parts: [part] };
    this.undos.push(step);
    if (this.undos.length > MAX_STEPS) this.undos.shift();
    if (this.groupDepth > 0) this.groupStep = step;
    return step;
  }

  /**
   * Merges an edit into the newest step when that step has an edit of the same object's same fields (typing
   * into one text, the box growing as it goes): that part keeps its first `before` and takes the new `after`.
   * False when it has none.
   */
  merge(part: Part): boolean {
    const after = part.after;
    if (this.groupDepth > 0 || after.type !== 'fields') return false;
    const keys = (f: object): string => Object.keys(f).sort().join(',');
    const same = this.top?.parts.find(
      (p) =>
        p.id === part.id &&
        p.restack === undefined &&
        p.before.type === 'fields' &&
        p.after.type === 'fields' &&
        keys(p.after.fields) === keys(after.fields),
    );
    if (same === undefined) return false;
    this.redos.length = 0;
    same.after = after;
    return true;
  }

  /** Forgets a part (a create the host refused); a step left empty goes too. */
  forget(part: Part): void {
    for (const stack of [this.undos, this.redos])
      for (let i = stack.length - 1; i >= 0; i--) {
        const step = stack[i];
        if (step === undefined) continue;
        step.parts = step.parts.filter((p) => p !== part);
        if (step.parts.length === 0) stack.splice(i, 1);
      }
  }

  /** Every part recorded between begin and end is one step (a multi-object delete). Nests. */
  begin(): void {
    if (this.groupDepth++ === 0) this.groupStep = undefined;
  }

  end(): void {
    if (this.groupDepth > 0 && --this.groupDepth === 0) this.groupStep = undefined;
  }

  /** The operations that undo the newest step still applicable, or undefined when there is none. */
  undo(
    lookup: (id: ObjectId) => BoardObject | undefined,
    me: PeerId | undefined,
  ): HistoryOp[] | undefined {
    return this.move(this.undos, this.redos, 'undo', lookup, me);
  }

  /** The operations that redo the newest undone step still applicable, or undefined when there is none. */
  redo(
    lookup: (id: ObjectId) => BoardObject | undefined,
    me: PeerId | undefined,
  ): HistoryOp[] | undefined {
    return this.move(this.redos, this.undos, 'redo', lookup, me);
  }

  private move(
    from: Step[],
    to: Step[],
    way: 'undo' | 'redo',
    lookup: (id: ObjectId) => BoardObject | undefined,
    me: PeerId | undefined,
  ): HistoryOp[] | undefined {
    this.groupDepth = 0;
    this.groupStep = undefined;
    for (let step = from.pop(); step !== undefined; step = from.pop()) {
      const ops: HistoryOp[] = [];
      const kept: Part[] = [];
      // The board as this step's earlier ops will leave it (a gesture may move one object twice).
      const view = new Map<ObjectId, BoardObject | undefined>();
      const see = (id: ObjectId): BoardObject | undefined =>
        view.has(id) ? view.get(id) : lookup(id);
      // An undo takes the parts back newest first; a redo replays them in order.
      const parts = way === 'undo' ? [...step.parts].reverse() : step.parts;
      for (const part of parts) {
        const [a, b] = way === 'undo' ? [part.after, part.before] : [part.before, part.after];
        const r = movePart(part, a, b, part.id === undefined ? undefined : see(part.id), me);
        if (r === undefined) continue;
        kept.push(r.part);
        const op = r.op;
        ops.push(op);
        const cur = see(op.id);
        if (op.type === 'delete') view.set(op.id, undefined);
        else if (op.type === 'restore')
          view.set(op.id, { ...op.fields, id: op.id, z: 0, lockedBy: null, pinned: 0 });
        else if (op.type === 'pin') {
          if (cur !== undefined) view.set(op.id, { ...cur, pinned: op.pinned ? 1 : 0 });
        } else if (op.type === 'place') {
          if (cur !== undefined) view.set(op.id, { ...cur, z: op.z });
        } else if (op.type === 'patch' && cur !== undefined)
          view.set(op.id, { ...cur, ...op.patch });
      }
      if (kept.length === 0) continue;
      to.push({ parts: way === 'undo' ? kept.reverse() : kept });
      return ops;
    }
    return undefined;
  }
}
