// A board's state as plain data: a fresh one, its objects in stacking order, its content hash and an exact
// comparison. Knows nothing of operations' rules or of any process.
import type { BoardObject } from '../../shared/board';
import type { BoardState } from './types';

/**
 * Objects a board may hold: 100,000 objects of typical size fit well within a board file's cap; a participant's
 * edits are held to a far smaller budget by the session.
 */
export const MAX_OBJECTS = 100_000;

/**
 * The object as a plain literal with every field in one fixed order, so that V8 gives all objects one hidden class
 * with fast properties. Objects built by spreading an object that was itself spread over defaults (a fixture, a
 * decoder's record) came out in dictionary mode, and a scan of 10,000 of them (bottomZ, heldBy) took 4.8 ms
 * instead of 0.08 ms. The type checks that no field is left out.
 */
export function shaped(o: BoardObject): BoardObject {
  return {
    id: o.id,
    kind: o.kind,
    x: o.x,
    y: o.y,
    w: o.w,
    h: o.h,
    rotation: o.rotation,
    stroke: o.stroke,
    fill: o.fill,
    strokeWidth: o.strokeWidth,
    text: o.text,
    points: o.points,
    z: o.z,
    lockedBy: o.lockedBy,
    pinned: o.pinned,
    blob: o.blob,
  };
}

export function emptyBoard(): BoardState {
  return { objects: new Map(), nextId: 1, topZ: 0 };
}

/** Every object, bottom to top. */
export function objectsByZ(state: BoardState): BoardObject[] {
  return [...state.objects.values()].sort((a, b) => a.z - b.z);
}

/** The lowest z on the board, or 0 when nothing is below 0 (a restack to the back goes one below it). */
export function bottomZ(state: BoardState): number {
  let min = 0;
  for (const o of state.objects.values()) if (o.z < min) min = o.z;
  return min;
}

/**
 * A hash of the objects (order-independent, counters not included): equal boards hash equal. The order of the
 * values is the hash's own, fixed so that a hash means the same in every version that has the same fields.
 */
export function hashBoard(state: BoardState): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (const o of [...state.objects.values()].sort((a, b) => a.id - b.id)) {
    const s = canonical(o);
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
      h2 = Math.imul(h2 ^ c, 0x85ebca6b) >>> 0;
    }
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}

/** The fields in the order the hash visits them; every field of OBJECT_FIELDS is here (a test checks). */
export const HASH_ORDER = [
  'id',
  'kind',
  'x',
  'y',
  'w',
  'h',
  'rotation',
  'stroke',
  'fill',
  'strokeWidth',
  'z',
  'lockedBy',
  'points',
  'text',
  'pinned',
  'blob',
] as const satisfies readonly (keyof BoardObject)[];

function canonical(o: BoardObject): string {
  // An object with no image content hashes as it did before images (its blob is left out, not written empty).
  return HASH_ORDER.flatMap((k) => {
    if (k === 'blob' && o.blob === '') return [];
    const v = o[k];
    // As Array.prototype.join writes them: null as nothing.
    return [v === null ? '' : Array.isArray(v) ? v.join(',') : String(v)];
  }).join('|');
}

/** Whether two states are the same: counters, and every object field for field. */
export function sameBoard(a: BoardState, b: BoardState): boolean {
  if (a.nextId !== b.nextId || a.topZ !== b.topZ || a.objects.size !== b.objects.size) return false;
  for (const [id, o] of a.objects) {
    const p = b.objects.get(id);
    if (p === undefined || canonical(o) !== canonical(p)) return false;
  }
  return true;
}
