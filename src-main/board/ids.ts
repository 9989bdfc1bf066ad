// Object ids by origin: every host of a session (a single host is origin 0, each mirror of a group its mirror id)
// allocates ids whose low bits name it, so no two origins ever create the same id whatever order their creates run
// in; and a create under an id fixed beforehand, as a board operation. Pure over the board state; knows nothing of
// mirrors, sessions or the wire.
import type { NewObject, ObjectId } from '../../shared/board';
import { MAX_OBJECT_ID } from '../../shared/board';
import type { BoardOp, BoardState } from './types';

/** Origins an id can name: 4 low bits (a mirror group's id space, mirror/mirror-id.ts, is the same). */
export const ID_ORIGIN_BITS = 4;
export const ID_ORIGINS = 2 ** ID_ORIGIN_BITS;

/**
 * The id a create of origin `origin` takes: the smallest id above both `floor` (the board's next id as the origin
 * sees it) and `last` (the origin's last allocated) whose low ID_ORIGIN_BITS are the origin. Two origins creating at
 * once can never pick the same id, and the id does not depend on the order the group executes creates in: a
 * rollback that reorders two creates changes their z at most, never their ids, so a client's selection, undo
 * history and pending edits of a new object stay valid (ids fixed by executing order would change under a
 * rollback, and every reference to them with it). Undefined when the id space is used up.
 */
export function allocateObjectId(
  origin: number,
  floor: number,
  last: number,
): ObjectId | undefined {
  const above = Math.max(floor, last + 1);
  const base = above - (above % ID_ORIGINS);
  const id = base + origin >= above ? base + origin : base + ID_ORIGINS + origin;
  return id >= 1 && id <= MAX_OBJECT_ID ? id : undefined;
}

/** Whether `id` is one origin `origin` allocates. */
export function isIdOf(origin: number, id: number): boolean {
  return Number.isInteger(id) && id >= 1 && id <= MAX_OBJECT_ID && id % ID_ORIGINS === origin;
}

/**
 * A create under an id its origin allocated: the board's create takes its id from the counter, so the counter is
 * set to it for the create and then left past both it and where it was.
 */
export function createWithId(state: BoardState, id: ObjectId, fields: NewObject): BoardOp {
  return {
    type: 'batch',
    ops: [
      { type: 'counters', nextId: id, topZ: state.topZ },
      { type: 'create', fields },
      { type: 'counters', nextId: Math.max(state.nextId, id + 1), topZ: state.topZ + 1 },
    ],
  };
}
