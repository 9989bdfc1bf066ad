// The select tool at rest: presses select, a drag of a node starts dragging it (unless someone else holds
// it), double-click and Enter open a text or note for typing, the handles' gestures become edits.
import type { ObjectId } from '../../../shared/board';
import { transformPatch, type TransformResult } from '../../board/shapes';
import type { Pt } from '../../board/simplify';
import { shownObject } from '../../store/selectors';
import type { ToolEditor } from '../editor';
import type { DragInfo, KeyInfo, PointerInfo } from '../events';
import { StateNode } from '../state-node';
import { holderName, snapBack } from './locks';
import type { SelectTool } from './SelectTool';

export class Idle extends StateNode {
  readonly id = 'idle';

  constructor(
    private readonly tool: SelectTool,
    private readonly editor: ToolEditor,
  ) {
    super();
  }

  override onPointerDown(p: PointerInfo): void {
    switch (p.target.kind) {
      case 'canvas':
        if (p.button === 0) this.editor.dispatch({ type: 'select', ids: [] });
        return;
      case 'object':
        this.press(p.target.id, p.shift);
        return;
      case 'chrome':
        return;
    }
  }

  override onDoubleClick(id: ObjectId): void {
    this.editText(id);
  }

  override onKeyDown(k: KeyInfo): boolean {
    const { editor } = this;
    switch (k.key) {
      case 'Escape':
        editor.dispatch({ type: 'select', ids: [] });
        return true;
      case 'Enter': {
        const sel = editor.state().selection;
        const id = sel[0];
        return sel.length === 1 && id !== undefined && this.editText(id);
      }
      default:
        return false;
    }
  }

  override onDragStart(d: DragInfo): void {
    // Pointer-down already said who has it.
    if (holderName(this.editor, d.id) !== null) snapBack(this.editor, d.id, d.node);
    else this.tool.transition('dragging', d);
  }

  /** Konva fires no pointer events while a handle is dragged: keep the others' view of our pointer moving. */
  override onTransform(_id: ObjectId, pointer: Pt | null): void {
    if (pointer) this.editor.pointerMoved(pointer.x, pointer.y);
  }

  override onTransformEnd(id: ObjectId, t: TransformResult): void {
    const s = this.editor.state();
    const o = s.board.get(id);
    if (o) this.editor.edit(id, transformPatch(shownObject(s, o), t));
  }

  private press(id: ObjectId, shift: boolean): void {
    const { editor } = this;
    const holder = holderName(editor, id);
    if (holder !== null) {
      editor.toast('info', `${holder} is moving this right now.`);
      return;
    }
    const sel = editor.state().selection;
    if (shift) {
      const ids = sel.includes(id) ? sel.filter((x) => x !== id) : [...sel, id];
      editor.dispatch({ type: 'select', ids });
    } else if (!sel.includes(id)) editor.dispatch({ type: 'select', ids: [id] });
  }

  /** Opens a text or note for typing; false for other kinds. */
  private editText(id: ObjectId): boolean {
    const o = this.editor.state().board.get(id);
    if (o?.kind !== 'text' && o?.kind !== 'note') return false;
    this.editor.dispatch({ type: 'editing', id });
    return true;
  }
}
