// The resting state of the drawing tools (shapes, pen, text, note): a main-button press starts the tool's
// gesture; Escape clears the selection and goes back to the select tool. Knows nothing of Konva.
import type { ToolEditor } from './editor';
import type { KeyInfo, PointerInfo } from './events';
import { StateNode } from './state-node';

export class DrawIdle extends StateNode {
  readonly id = 'idle';

  constructor(
    private readonly editor: ToolEditor,
    private readonly begin: (p: PointerInfo) => void,
  ) {
    super();
  }

  override onPointerDown(p: PointerInfo): void {
    if (p.button === 0) this.begin(p);
  }

  override onKeyDown(k: KeyInfo): boolean {
    if (k.key !== 'Escape') return false;
    this.editor.dispatch({ type: 'select', ids: [] });
    this.editor.setTool('select');
    return true;
  }
}
