// Which pointers one peer's presence scope holds, and how much each matters: the pointers inside (a margin around)
// the peer's viewport once it said where it looks, else every pointer as before; nearest to its own pointer first.
// Pure, called 10 times a second per peer over every pointer: no allocation. Knows nothing of connections.
import type { Viewport } from '../../shared/api';
import type { GhostScope } from '../net/ghost/ghost-scope-pass';
import type { GhostSource } from '../net/ghost/ghost-source';
import type { PresenceState } from './ghost-classes';

/**
 * How far past each edge of a viewport a pointer stays in scope, as a share of the view's larger side: a pointer
 * about to come into view is already there (a scope pass runs at most every 100 ms, and a pointer crossing the
 * margin at 5,000 units/s in a 2,000-unit view takes 100 ms), and one that hovers at the edge does not flicker.
 */
export const VIEW_MARGIN_SHARE = 0.25;
/** The least margin in board units, for a view zoomed far in. */
export const MIN_VIEW_MARGIN = 100;

/**
 * Whether a pointer at (x, y) is in the scope of a peer looking at `view`: with no view said (a script, an older
 * build), every pointer is, as before views scoped pointers (1,000 pointers then flood every peer).
 */
export function pointerInView(view: Viewport | undefined, x: number, y: number): boolean {
  if (view === undefined) return true;
  const m = Math.max(MIN_VIEW_MARGIN, VIEW_MARGIN_SHARE * Math.max(view.w, view.h));
  return x >= view.x - m && x <= view.x + view.w + m && y >= view.y - m && y <= view.y + view.h + m;
}

/**
 * A pointer's priority in the presence scope of the peer whose pointer is at `me`: falls with the square of the
 * distance (in 500-unit steps), so the pointers next to yours keep their full rate and the far ones share what is
 * left (their priority still ages, so none stops).
 */
export function presencePriority(me: PresenceState | undefined, o: PresenceState): number {
  if (me === undefined) return 10;
  const dx = (o.x - me.x) / 500;
  const dy = (o.y - me.y) / 500;
  return 1 + 1000 / (1 + dx * dx + dy * dy);
}

/**
 * Adds `other` to `sink` when it is in the view of the peer whose own presence is `mine` (never itself). A pointer
 * inside the view (with its margin) is sent whether or not the peer's own pointer is near it.
 */
export function scopePresence(
  sink: GhostScope,
  view: Viewport | undefined,
  mine: GhostSource<PresenceState>,
  other: GhostSource<PresenceState>,
): void {
  if (other === mine) return;
  const o = other.obj;
  if (pointerInView(view, o.x, o.y)) sink.add(other, presencePriority(mine.obj, o));
}
