// Turns a received presence ghost into the pointer a UI or script sees. Pure; knows nothing of connections.
import { TOOLS } from '../../shared/api';
import type { PresenceState } from './ghost-classes';
import { Presence } from './ghost-classes';
import type { PointerInfo } from './session-events';

const SEEN = Presence.maskOf('pointer', 'drag', 'tool');
export const POINTER_MASK = Presence.maskOf('pointer');

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
