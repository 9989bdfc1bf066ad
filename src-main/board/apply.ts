// The board's one entry point: apply(state, op) changes the state in place and returns the effects and the exact
// inverse, or a typed refusal and leaves the state as it was. Undo sends inverses; a synchronizer runs ops,
// compares their effects and rolls back with inverses (DESIGN.md §9). Knows nothing of peers or the wire.
import type { PeerId } from '../../shared/board';
import { counters, create, lock, patch, pin, place, put, remove, restack, restore } from './edits';
import { drop, grab, release } from './locks';
import type { ApplyResult, BoardEffect, BoardOp, BoardRefusal, BoardState } from './types';

export function apply(state: BoardState, op: BoardOp): ApplyResult {
  switch (op.type) {
    case 'create':
      return create(state, op.fields);
    case 'patch':
      return patch(state, op.id, op.patch, op.by);
    case 'delete':
      return remove(state, op.id, op.by);
    case 'restore':
      return restore(state, op.id, op.fields, op.z);
    case 'restack':
      return restack(state, op.id, op.to, op.by);
    case 'pin':
      return pin(state, op.id, op.pinned, op.by);
    case 'grab':
      return grab(state, op.id, op.peer);
    case 'drop':
      return drop(state, op.id, op.peer, op.x, op.y);
    case 'release':
      return release(state, op.peer);
    case 'put':
      return put(state, op.object);
    case 'remove':
      return remove(state, op.id);
    case 'place':
      return place(state, op.id, op.z);
    case 'lock':
      return lock(state, op.id, op.holder);
    case 'counters':
      return counters(state, op.nextId, op.topZ);
    case 'batch':
      return batch(state, op.ops);
  }
}

function batch(state: BoardState, ops: readonly BoardOp[]): ApplyResult {
  const effects: BoardEffect[] = [];
  const inverses: BoardOp[] = [];
  for (const op of ops) {
    const r = apply(state, op);
    if (!r.ok) {
      // All or none: what went before is rolled back, newest first.
      for (let i = inverses.length - 1; i >= 0; i--) {
        const inverse = inverses[i];
        if (inverse !== undefined && !apply(state, inverse).ok)
          throw new Error('an inverse was refused: the board state was changed outside apply');
      }
      return r;
    }
    effects.push(...r.effects);
    inverses.push(r.inverse);
  }
  return { ok: true, effects, inverse: { type: 'batch', ops: inverses.reverse() } };
}

/** A refusal as the person asking reads it; `nameOf` names the participant holding a lock. */
export function refusalText(r: BoardRefusal, nameOf: (peer: PeerId) => string): string {
  switch (r.type) {
    case 'no-object':
      return `no object ${r.id}`;
    case 'invalid':
      return r.why;
    case 'full':
      return 'the board is full';
    case 'out-of-ids':
      return 'out of object ids';
    case 'id-not-free':
      return `object ${r.id} was never deleted here, or is on the board`;
    case 'held':
      return `held by ${nameOf(r.by)}`;
    case 'not-holder':
      return 'you are not holding it';
    case 'pinned':
      return 'it is locked: unlock it first';
    case 'z-taken':
      return `object ${r.by} is at that place in the stack now`;
  }
}
