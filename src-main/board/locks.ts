// The lock rules: the first grab the host sees wins, only the holder may drop (with the final position, so the
// result is exact whatever happened to the drag updates), a departed or quiet holder's locks are released. Pure
// over the board's state; which holder is quiet is the session's to say.
import type { ObjectId, PeerId } from '../../shared/board';
import { isObject, lock, patch, pinnedFor, refused, target } from './edits';
import type { ApplyResult, BoardEffect, BoardOp, BoardState } from './types';

export function grab(state: BoardState, id: ObjectId, peer: PeerId): ApplyResult {
  const current = target(state, id);
  if (!isObject(current)) return current;
  if (current.lockedBy !== null && current.lockedBy !== peer)
    return refused({ type: 'held', by: current.lockedBy });
  // A pinned object is not to be moved: no grab.
  const stopped = pinnedFor(current, peer);
  if (stopped !== undefined) return refused(stopped);
  return lock(state, id, peer);
}

/** Moves the object to where the holder let go of it, then releases it (two effects, in that order). */
export function drop(
  state: BoardState,
  id: ObjectId,
  peer: PeerId,
  x: number,
  y: number,
): ApplyResult {
  const current = target(state, id);
  if (!isObject(current)) return current;
  if (current.lockedBy !== peer) return refused({ type: 'not-holder' });
  const moved = patch(state, id, { x, y });
  if (!moved.ok) return moved;
  const released = lock(state, id, null);
  if (!released.ok) throw new Error('unreachable: the object was just moved');
  return {
    ok: true,
    effects: [...moved.effects, ...released.effects],
    inverse: { type: 'batch', ops: [released.inverse, moved.inverse] },
  };
}

/** Every object the peer holds, bottom to top. */
export function heldBy(state: BoardState, peer: PeerId): ObjectId[] {
  const held = [];
  for (const o of state.objects.values()) if (o.lockedBy === peer) held.push(o);
  return held.sort((a, b) => a.z - b.z).map((o) => o.id);
}

/** Releases every lock the peer holds, bottom to top. */
export function release(state: BoardState, peer: PeerId): ApplyResult {
  const effects: BoardEffect[] = [];
  const inverses: BoardOp[] = [];
  for (const id of heldBy(state, peer)) {
    const r = lock(state, id, null);
    if (!r.ok) throw new Error('unreachable: the object is on the board');
    effects.push(...r.effects);
    inverses.push(r.inverse);
  }
  return { ok: true, effects, inverse: { type: 'batch', ops: inverses.reverse() } };
}
