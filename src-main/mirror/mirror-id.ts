// A mirror's small id within its group (0..15), and the group's size bound. Knows nothing of links or payloads.
import { ID_ORIGIN_BITS } from '../board';

/**
 * Ids fit in 4 bits: on the wire, and in the low bits of every object id a mirror allocates (command.ts), so two
 * mirrors never create the same id. Sixteen mirrors is far past what a session spreads over (one per site). The
 * board's id origins (board/ids.ts) are this space: a single host is origin 0.
 */
export const MIRROR_ID_BITS = ID_ORIGIN_BITS;
export const MAX_MIRRORS = 2 ** MIRROR_ID_BITS;
export const MAX_MIRROR_ID = MAX_MIRRORS - 1;

/** A mirror's id, unique within its group. */
export type MirrorId = number;

export function isMirrorId(n: number): n is MirrorId {
  return Number.isInteger(n) && n >= 0 && n < MAX_MIRRORS;
}

export function assertMirrorId(n: number): MirrorId {
  if (!isMirrorId(n))
    throw new RangeError(`mirror id ${String(n)} is not in 0..${MAX_MIRRORS - 1}`);
  return n;
}
