// A mirror's small id within its group (0..63), and the group's size bound. Knows nothing of links or payloads.

/** Ids fit in 6 bits on the wire. */
export const MIRROR_ID_BITS = 6;
export const MAX_MIRRORS = 2 ** MIRROR_ID_BITS;

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
