// Who holds an object's lock, and putting a node back where the board has it. Pure over the tool editor.
import type { ObjectId } from '../../../shared/board';
import { participantOf, selfId } from '../../store/selectors';
import type { ToolEditor } from '../editor';
import type { DragHandle } from '../events';

/** Who else holds the object's lock, or null when nobody (or this user) does. */
export function holderName(editor: ToolEditor, id: ObjectId): string | null {
  const s = editor.state();
  const o = s.board.get(id);
  if (!o || o.lockedBy === null || o.lockedBy === selfId(s.status)) return null;
  return participantOf(s, o.lockedBy)?.name ?? 'Someone';
}

/** Stops the node's drag and shows it where the board has the object (the grab or drop was refused). */
export function snapBack(editor: ToolEditor, id: ObjectId, node: DragHandle): void {
  const o = editor.state().board.get(id);
  editor.dispatch({ type: 'moveUndone', id });
  if (o) node.put({ x: o.x, y: o.y }, true);
}
