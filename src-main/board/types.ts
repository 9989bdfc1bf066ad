// The board's state, its operations, their effects and refusals, as data. Knows nothing of peers' connections,
// the wire or time: board/ imports only shared/.
import type { BoardObject, NewObject, ObjectId, ObjectPatch, PeerId } from '../../shared/board';

/**
 * A whole board. Mutable: an operation changes it in place and returns its exact inverse, so a step costs what it
 * touches, not the board's size (a copy of a 20,000-object map per operation would not do). Objects themselves are
 * never mutated, only replaced, so an inverse may hold the object it restores by reference.
 */
export interface BoardState {
  readonly objects: Map<ObjectId, BoardObject>;
  /** The id the next create takes. Only grows, except when an inverse rolls a create back. */
  nextId: number;
  /** The highest z handed out; a create or a restack to the front takes the next one. */
  topZ: number;
}

/**
 * What can be done to a board. The first group are commands (what the host executes for a participant, with the
 * rules); the second are exact restorations, what inverses are made of (they check only that their target exists).
 * `by`: the participant asking, held to the lock rule (an object held by someone else is theirs alone to change);
 * absent for a restoration no lock stops.
 */
export type BoardOp =
  | { readonly type: 'create'; readonly fields: NewObject }
  | {
      readonly type: 'patch';
      readonly id: ObjectId;
      readonly patch: ObjectPatch;
      readonly by?: PeerId;
    }
  | { readonly type: 'delete'; readonly id: ObjectId; readonly by?: PeerId }
  /**
   * Brings a deleted object back under its own id (an undone delete, a redone create): the id must be one this
   * board issued and not in use now, the fields valid. It takes the z given when no other object has it, else a
   * fresh top z (others may have restacked onto it since). Who may restore which id is the session's rule.
   */
  | {
      readonly type: 'restore';
      readonly id: ObjectId;
      readonly fields: NewObject;
      readonly z: number;
    }
  /**
   * Moves the object above every other, below every other, or to an exact z (an undone restack puts it back where
   * it was): an exact z only while no other object has it (z is unique per board).
   */
  | {
      readonly type: 'restack';
      readonly id: ObjectId;
      readonly to: 'front' | 'back' | { readonly z: number };
      readonly by?: PeerId;
    }
  /** Locks the object in place or unlocks it (its `pinned` field); `by` held to the grab lock rule. */
  | { readonly type: 'pin'; readonly id: ObjectId; readonly pinned: boolean; readonly by?: PeerId }
  | { readonly type: 'grab'; readonly id: ObjectId; readonly peer: PeerId }
  | {
      readonly type: 'drop';
      readonly id: ObjectId;
      readonly peer: PeerId;
      readonly x: number;
      readonly y: number;
    }
  /** Releases every lock the peer holds (it left, or went quiet), bottom to top. */
  | { readonly type: 'release'; readonly peer: PeerId }
  /** Inserts the object, or replaces the one with its id, exactly as given. */
  | { readonly type: 'put'; readonly object: BoardObject }
  /** Removes the object (a delete with no rule). */
  | { readonly type: 'remove'; readonly id: ObjectId }
  /** Sets an object's z exactly. */
  | { readonly type: 'place'; readonly id: ObjectId; readonly z: number }
  /** Sets (or clears) an object's lock with no rule. */
  | { readonly type: 'lock'; readonly id: ObjectId; readonly holder: PeerId | null }
  /** Sets the allocation counters. */
  | { readonly type: 'counters'; readonly nextId: number; readonly topZ: number }
  /** Every op in order, all or none: a refusal midway undoes the ones before it. */
  | { readonly type: 'batch'; readonly ops: readonly BoardOp[] };

export type BoardOpType = BoardOp['type'];

/** What an operation did to the objects, in the order it did it (what replicas and budgets follow). */
export type BoardEffect =
  | { readonly type: 'upsert'; readonly object: BoardObject }
  | { readonly type: 'delete'; readonly id: ObjectId };

/** Why an operation was refused; the board is then unchanged. */
export type BoardRefusal =
  | { readonly type: 'no-object'; readonly id: ObjectId }
  | { readonly type: 'invalid'; readonly why: string }
  | { readonly type: 'full' }
  | { readonly type: 'out-of-ids' }
  /** A restore of an id this board never issued, or one that is on the board. */
  | { readonly type: 'id-not-free'; readonly id: ObjectId }
  | { readonly type: 'held'; readonly by: PeerId }
  /** The object is locked in place: only an unlock changes it. */
  | { readonly type: 'pinned' }
  | { readonly type: 'not-holder' }
  /** An exact z another object has (restack). */
  | { readonly type: 'z-taken'; readonly z: number; readonly by: ObjectId };

export interface Applied {
  readonly ok: true;
  readonly effects: readonly BoardEffect[];
  /** Applied right after, restores the state exactly (objects and counters). */
  readonly inverse: BoardOp;
}

export interface Refused {
  readonly ok: false;
  readonly refusal: BoardRefusal;
}

export type ApplyResult = Applied | Refused;
