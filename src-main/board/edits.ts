// The board's edits as functions over its state: each checks its target and fields, changes the state in place
// and returns its effects and exact inverse, or a refusal and changes nothing. Knows nothing of who asks or why.
import type { BoardObject, NewObject, ObjectId, ObjectPatch, PeerId } from '../../shared/board';
import { MAX_OBJECT_ID, validateObjectFields } from '../../shared/board';
import { bottomZ, MAX_OBJECTS, shaped } from './state';
import type { Applied, ApplyResult, BoardOp, BoardRefusal, BoardState, Refused } from './types';

export const NOTHING: BoardOp = { type: 'batch', ops: [] };

export function refused(refusal: BoardRefusal): Refused {
  return { ok: false, refusal };
}

function applied(effects: Applied['effects'], inverse: BoardOp): Applied {
  return { ok: true, effects, inverse };
}

/** The object, or the refusal that names the missing id. */
export function target(state: BoardState, id: ObjectId): BoardObject | Refused {
  return state.objects.get(id) ?? refused({ type: 'no-object', id });
}

export function isObject(t: BoardObject | Refused): t is BoardObject {
  return !('ok' in t);
}

/** Another participant's lock on the object, which stops `by` from changing it; undefined when free or its own. */
export function heldByOther(
  state: BoardState,
  id: ObjectId,
  by: PeerId | undefined,
): BoardRefusal | undefined {
  if (by === undefined) return undefined;
  const holder = state.objects.get(id)?.lockedBy ?? null;
  return holder !== null && holder !== by ? { type: 'held', by: holder } : undefined;
}

/** The object is locked in place (pinned): a participant's command may not change it, only unpin it. */
export function pinnedFor(current: BoardObject, by: PeerId | undefined): BoardRefusal | undefined {
  return by !== undefined && current.pinned === 1 ? { type: 'pinned' } : undefined;
}

/** Adds an object on top with the next id, unlocked. */
export function create(state: BoardState, fields: NewObject): ApplyResult {
  const why = validateObjectFields(fields);
  if (why !== undefined) return refused({ type: 'invalid', why });
  if (state.objects.size >= MAX_OBJECTS) return refused({ type: 'full' });
  if (state.nextId > MAX_OBJECT_ID) return refused({ type: 'out-of-ids' });
  const before = { type: 'counters', nextId: state.nextId, topZ: state.topZ } as const;
  const object = shaped({
    ...fields,
    points: [...fields.points],
    id: state.nextId++,
    z: ++state.topZ,
    lockedBy: null,
    pinned: 0,
  });
  state.objects.set(object.id, object);
  return applied([{ type: 'upsert', object }], {
    type: 'batch',
    ops: [{ type: 'remove', id: object.id }, before],
  });
}

/** Puts a deleted object back under its id (see the op's rules); the inverse removes it and resets the counters. */
export function restore(
  state: BoardState,
  id: ObjectId,
  fields: NewObject,
  z: number,
): ApplyResult {
  if (!Number.isInteger(id) || id < 1 || id >= state.nextId || state.objects.has(id))
    return refused({ type: 'id-not-free', id });
  const why = validateObjectFields(fields);
  if (why !== undefined) return refused({ type: 'invalid', why });
  if (!Number.isSafeInteger(z)) return refused({ type: 'invalid', why: 'bad stacking order' });
  if (state.objects.size >= MAX_OBJECTS) return refused({ type: 'full' });
  const before = { type: 'counters', nextId: state.nextId, topZ: state.topZ } as const;
  let taken = false;
  for (const o of state.objects.values()) if (o.z === z) taken = true;
  const object = shaped({
    ...fields,
    points: [...fields.points],
    id,
    z: taken ? ++state.topZ : z,
    lockedBy: null,
    pinned: 0,
  });
  if (object.z > state.topZ) state.topZ = object.z;
  state.objects.set(id, object);
  return applied([{ type: 'upsert', object }], {
    type: 'batch',
    ops: [{ type: 'remove', id }, before],
  });
}

/** Changes fields of an object; the inverse sets the same fields back. */
export function patch(
  state: BoardState,
  id: ObjectId,
  changes: ObjectPatch,
  by?: PeerId,
): ApplyResult {
  const current = target(state, id);
  if (!isObject(current)) return current;
  const held = heldByOther(state, id, by) ?? pinnedFor(current, by);
  if (held !== undefined) return refused(held);
  const why = validateObjectFields(changes);
  if (why !== undefined) return refused({ type: 'invalid', why });
  const back: Record<string, unknown> = {};
  for (const k of Object.keys(changes)) back[k] = (current as Readonly<Record<string, unknown>>)[k];
  const next: BoardObject = { ...current, ...changes };
  state.objects.set(id, next);
  return applied([{ type: 'upsert', object: next }], {
    type: 'patch',
    id,
    patch: back,
  });
}

export function remove(state: BoardState, id: ObjectId, by?: PeerId): ApplyResult {
  const current = target(state, id);
  if (!isObject(current)) return current;
  const held = heldByOther(state, id, by) ?? pinnedFor(current, by);
  if (held !== undefined) return refused(held);
  state.objects.delete(id);
  return applied([{ type: 'delete', id }], { type: 'put', object: current });
}

export function put(state: BoardState, given: BoardObject): ApplyResult {
  const object = shaped(given);
  const current = state.objects.get(object.id);
  state.objects.set(object.id, object);
  return applied(
    [{ type: 'upsert', object }],
    current === undefined ? { type: 'remove', id: object.id } : { type: 'put', object: current },
  );
}

/**
 * Moves an object above every other (a fresh top z), below every other (one under the lowest, or -1), or to an
 * exact z no other object has (past the top it raises the top, so a later create still takes a fresh one).
 */
export function restack(
  state: BoardState,
  id: ObjectId,
  to: 'front' | 'back' | { readonly z: number },
  by?: PeerId,
): ApplyResult {
  const current = target(state, id);
  if (!isObject(current)) return current;
  const stopped = pinnedFor(current, by);
  if (stopped !== undefined) return refused(stopped);
  if (typeof to === 'object') {
    if (!Number.isSafeInteger(to.z)) return refused({ type: 'invalid', why: 'bad stacking order' });
    const taken = objectAtZ(state, to.z, id);
    if (taken !== undefined) return refused({ type: 'z-taken', z: to.z, by: taken });
  }
  const topZ = state.topZ;
  const z = to === 'front' ? ++state.topZ : to === 'back' ? bottomZ(state) - 1 : to.z;
  if (z > state.topZ) state.topZ = z;
  const next = { ...current, z };
  state.objects.set(id, next);
  const back: BoardOp = { type: 'place', id, z: current.z };
  return applied(
    [{ type: 'upsert', object: next }],
    state.topZ !== topZ
      ? { type: 'batch', ops: [back, { type: 'counters', nextId: state.nextId, topZ }] }
      : back,
  );
}

/** The object other than `except` that has this z, if any (a full scan: exact restacks are rare). */
function objectAtZ(state: BoardState, z: number, except: ObjectId): ObjectId | undefined {
  for (const o of state.objects.values()) if (o.z === z && o.id !== except) return o.id;
  return undefined;
}

export function place(state: BoardState, id: ObjectId, z: number): ApplyResult {
  const current = target(state, id);
  if (!isObject(current)) return current;
  const next = { ...current, z };
  state.objects.set(id, next);
  return applied([{ type: 'upsert', object: next }], { type: 'place', id, z: current.z });
}

/** Sets the lock's holder; setting the holder it already has changes nothing (and says nothing). */
export function lock(state: BoardState, id: ObjectId, holder: PeerId | null): ApplyResult {
  const current = target(state, id);
  if (!isObject(current)) return current;
  if (current.lockedBy === holder) return applied([], NOTHING);
  const next = { ...current, lockedBy: holder };
  state.objects.set(id, next);
  return applied([{ type: 'upsert', object: next }], {
    type: 'lock',
    id,
    holder: current.lockedBy,
  });
}

/**
 * Locks the object in place or unlocks it (pinned); only `by`'s own or no grab may be on it. Setting what it
 * already is changes nothing.
 */
export function pin(state: BoardState, id: ObjectId, pinned: boolean, by?: PeerId): ApplyResult {
  const current = target(state, id);
  if (!isObject(current)) return current;
  const held = heldByOther(state, id, by);
  if (held !== undefined) return refused(held);
  const flag = pinned ? 1 : 0;
  if (current.pinned === flag) return applied([], NOTHING);
  const next = { ...current, pinned: flag };
  state.objects.set(id, next);
  return applied([{ type: 'upsert', object: next }], {
    type: 'pin',
    id,
    pinned: current.pinned === 1,
  });
}

export function counters(state: BoardState, nextId: number, topZ: number): ApplyResult {
  const inverse: BoardOp = { type: 'counters', nextId: state.nextId, topZ: state.topZ };
  state.nextId = nextId;
  state.topZ = topZ;
  return applied([], inverse);
}
