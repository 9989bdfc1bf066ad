// Pressed where a text box or note goes: release (or leaving the board) places it with its top-left there,
// switches to the select tool and opens it for typing at once, under its provisional id (keys typed right
// after the click are the note's, never shortcuts); Escape places nothing.
import { placedShape } from '../../board/shapes';
import type { Pt } from '../../board/simplify';
import type { ToolEditor } from '../editor';
import type { KeyInfo } from '../events';
import { StateNode } from '../state-node';
import type { PlaceTool } from './PlaceTool';

export class Pointing extends StateNode<Pt> {
  readonly id = 'pointing';
  private at: Pt = { x: 0, y: 0 };

  constructor(
    private readonly tool: PlaceTool,
    private readonly editor: ToolEditor,
  ) {
    super();
  }

  override onEnter(at: Pt): void {
    this.at = at;
  }

  override onPointerUp(): void {
    this.finish();
  }

  override onPointerLeave(): void {
    this.finish();
  }

  override onKeyDown(k: KeyInfo): boolean {
    if (k.key !== 'Escape') return false;
    this.tool.transition('idle');
    return true;
  }

  private finish(): void {
    const { editor } = this;
    const object = placedShape(this.tool.id, this.at, editor.state().style);
    this.tool.transition('idle');
    editor.setTool('select');
    // Not after the host's reply: that is a round trip (even on the hosting machine, through the bridge).
    editor.dispatch({ type: 'editing', id: editor.place(object) });
  }
}
