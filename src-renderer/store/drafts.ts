// Drafts: objects this user created that the host has not confirmed yet, drawn, edited and typed into under a
// provisional id (the negative of the draft's key: the host hands out ids from 1, so the two never meet).
// Pure; knows nothing of the bridge, React or Konva.
import type { BoardObject, ObjectId } from '../../shared/board';
import type { Draft } from './state';

export const provisionalId = (key: number): ObjectId => -key;

/** The key of the draft a provisional id names. */
export const draftKey = (id: ObjectId): number => -id;

export const isProvisional = (id: ObjectId): boolean => id < 0;

/** The draft an id names: its provisional id, or the real one the host gave it (until the board has it). */
export function draftOf(drafts: readonly Draft[], id: ObjectId): Draft | undefined {
  return drafts.find((d) => provisionalId(d.key) === id || d.id === id);
}

/** A draft as a board object: under its real id once known, drawn above everything. */
export function draftObject(d: Draft): BoardObject {
  return { ...d.object, id: d.id ?? provisionalId(d.key), z: Infinity, lockedBy: null, pinned: 0 };
}
