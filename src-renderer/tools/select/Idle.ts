// The select tool at rest: presses select (on the bare canvas a press starts a marquee), a drag of a node starts
// dragging it with the rest of the selection (unless someone else holds it), Ctrl/Cmd+A selects every object,
// arrow keys nudge the selection, double-click and Enter open a text or note for typing, a handle's first move
// starts resizing or rotating the selection.
import type { ObjectId } from '../../../shared/board';
import { WORLD_EXTENT } from '../../../shared/board';
import type { Pt } from '../../board/simplify';
import { canEdit, shownObject } from '../../store/selectors';
import type { ToolEditor } from '../editor';
import type { DragInfo, KeyInfo, PointerInfo, TransformInfo } from '../events';
import { StateNode } from '../state-node';
import { holderName, snapBack } from './locks';
import { allSelectable } from './selecting';
import type { SelectTool } from './SelectTool';

/** World units an arrow key moves the selection: 1, or 10 with Shift. */
const NUDGE = 1;
const NUDGE_SHIFT = 10;

const ARROWS: ReadonlyMap<string, Pt> = new Map([
  ['ArrowLeft', { x: -1, y: 0 }],
  ['ArrowRight', { x: 1, y: 0 }],
  ['ArrowUp', { x: 0, y: -1 }],
  ['ArrowDown', { x: 0, y: 1 }],
]);

const clampWorld = (v: number): number => Math.max(-WORLD_EXTENT, Math.min(WORLD_EXTENT, v));

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
      case 'canvas': {
        if (p.button !== 0) return;
        const base = p.shift ? this.editor.state().selection : [];
        if (!p.shift) this.editor.dispatch({ type: 'select', ids: [] });
        this.tool.transition('marquee', { world: p.world, screen: p.screen, base });
        return;
      }
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
    if (k.mod === true) {
      if (k.key.toLowerCase() !== 'a') return false;
      editor.dispatch({ type: 'select', ids: allSelectable(editor.state()) });
      return true;
    }
    const arrow = ARROWS.get(k.key);
    if (arrow) return this.nudge(arrow, k.shift === true ? NUDGE_SHIFT : NUDGE);
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
    else if (this.editor.state().board.get(d.id)?.pinned === 1) {
      snapBack(this.editor, d.id, d.node);
      this.editor.toast('info', 'It is locked: unlock it to move it.');
    } else this.tool.transition('dragging', d);
  }

  /** A selection handle's first move: the selection is being resized or rotated. */
  override onTransform(t: TransformInfo): void {
    this.tool.transition('transforming', t);
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

  /** Moves every selected object by `step` in `dir`: one edit each per key press. False with nothing to move. */
  private nudge(dir: Pt, step: number): boolean {
    const { editor } = this;
    const s = editor.state();
    if (s.selection.length === 0 || !canEdit(s)) return false;
    for (const id of s.selection) {
      const o = s.board.get(id);
      if (!o || o.pinned === 1 || holderName(editor, id) !== null) continue;
      const shown = shownObject(s, o);
      const x = clampWorld(shown.x + dir.x * step);
      const y = clampWorld(shown.y + dir.y * step);
      editor.edit(id, { x, y });
    }
    return true;
  }

  /** Opens a text or note for typing; false for other kinds. */
  private editText(id: ObjectId): boolean {
    const o = this.editor.state().board.get(id);
    if (o?.kind !== 'text' && o?.kind !== 'note') return false;
    if (o.pinned === 1) {
      this.editor.toast('info', 'It is locked: unlock it to type into it.');
      return true;
    }
    this.editor.dispatch({ type: 'editing', id });
    return true;
  }
}
