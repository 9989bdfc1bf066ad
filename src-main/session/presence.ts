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
    before.dragY === after.dragY
  )
    m &= ~DRAG_MASK;
  return m >>> 0;
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
    drag: s.dragId === 0 ? null : { id: s.dragId, x: s.dragX, y: s.dragY },
  };
}
