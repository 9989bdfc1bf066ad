// Turns a received presence ghost into the pointer a UI or script sees. Pure; knows nothing of connections.
import { TOOLS } from '../../shared/api';
import type { PresenceState } from './ghost-classes';
import { Presence } from './ghost-classes';
import type { PointerInfo } from './session-events';

const SEEN = Presence.maskOf('pointer', 'drag', 'tool');
export const POINTER_MASK = Presence.maskOf('pointer');
const TOOL_MASK = Presence.maskOf('tool');
const DRAG_MASK = Presence.maskOf('drag');

/**
 * Which of `mask`'s groups actually change `before` (a repeat of a state already seen changes nothing, so it
 * is neither relayed again nor reported as a move).
 */
export function changedPresenceMask(
  before: PresenceState,
  after: PresenceState,
  mask: number,
): number {
  // Called for every pointer update received (host and peers): no closures or allocation here.
  let m = mask;
  if (before.x === after.x && before.y === after.y && before.visible === after.visible)
    m &= ~POINTER_MASK;
  if (before.tool === after.tool) m &= ~TOOL_MASK;
  if (
    before.dragId === after.dragId &&
    before.dragX === after.dragX &&
    before.dragY === after.dragY &&
    before.dragShaped === after.dragShaped &&
    (!after.dragShaped ||
      (before.dragW === after.dragW &&
        before.dragH === after.dragH &&
        before.dragRotation === after.dragRotation))
  )
    m &= ~DRAG_MASK;
  return m >>> 0;
}

/** A held object's live place, size and rotation (the board fields' units) during a resize or rotate. */
export interface LiveGeometry {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  readonly rotation: number;
}

/** The presence fields a live resize or rotate of object `id` sets. */
export function reshapedPresence(
  id: number,
  g: LiveGeometry,
): Pick<
  PresenceState,
  'dragId' | 'dragX' | 'dragY' | 'dragShaped' | 'dragW' | 'dragH' | 'dragRotation'
> {
  return {
    dragId: id,
    dragX: g.x,
    dragY: g.y,
    dragShaped: true,
    dragW: g.w,
    dragH: g.h,
    dragRotation: g.rotation,
  };
}

/** The pointer as it now stands, when this update touched what a viewer sees; undefined otherwise. */
export function presenceMaskToPointer(s: PresenceState, mask: number): PointerInfo | undefined {
  if ((mask & SEEN) === 0) return undefined;
  return {
    peer: s.peer,
    x: s.x,
    y: s.y,
    visible: s.visible,
    tool: TOOLS[s.tool] ?? 'select',
    drag: s.dragId === 0 ? null : liveDrag(s),
  };
}

/** The held object's live state: a move, or a resize or rotate with its size and rotation. */
function liveDrag(s: PresenceState): NonNullable<PointerInfo['drag']> {
  const at = { id: s.dragId, x: s.dragX, y: s.dragY };
  return s.dragShaped ? { ...at, shape: { w: s.dragW, h: s.dragH, rotation: s.dragRotation } } : at;
}
