// What the select tool's states share about choosing objects: which ones a user may select (not those another
// user holds), the select-all set and the marquee's. Pure over the tool editor's state.
import type { ObjectId } from '../../../shared/board';
import type { Rect } from '../../board/camera';
import { contains, tightBounds } from '../../board/selection';
import { selfId, shownObject } from '../../store/selectors';
import type { AppState } from '../../store/state';

/** Whether this user may select the object: nobody else holds it. */
export function selectable(s: AppState, id: ObjectId): boolean {
  const o = s.board.get(id);
  if (!o) return false;
  return o.lockedBy === null || o.lockedBy === selfId(s.status);
}

/** Every object this user may select, bottom to top. */
export function allSelectable(s: AppState): ObjectId[] {
  return [...s.board.values()]
    .filter((o) => selectable(s, o.id))
    .sort((a, b) => a.z - b.z)
    .map((o) => o.id);
}

/**
 * The objects a marquee selects: those it wholly contains, as this user sees them (own drops and edits
 * applied). Containment, not touching: a box is exact for every kind, where touching the box of a diagonal
 * line or a stroke would pick objects the marquee never crosses.
 */
export function insideMarquee(s: AppState, rect: Rect): ObjectId[] {
  return allSelectable(s).filter((id) => {
    const o = s.board.get(id);
    return o !== undefined && contains(rect, tightBounds(shownObject(s, o)));
  });
}

/** `base` then the ids not already in it (a Shift-marquee adds to what was selected). */
export function withAdded(base: readonly ObjectId[], ids: readonly ObjectId[]): ObjectId[] {
  const have = new Set(base);
  return [...base, ...ids.filter((id) => !have.has(id))];
}

export function sameIds(a: readonly ObjectId[], b: readonly ObjectId[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
