// A box or line being dragged out: each move redraws the preview (Shift squares a box); release creates it
// unless it is too small to be meant (a click) and goes back to the select tool; Escape drops it.
import type { NewObject } from '../../../shared/board';
import { dragShape, isTinyShape } from '../../board/shapes';
import type { Pt } from '../../board/simplify';
import type { ToolEditor } from '../editor';
import type { PointerInfo } from '../events';
import { GestureState } from '../gesture-state';
import type { ShapeTool } from './ShapeTool';

export class Drawing extends GestureState<Pt> {
  readonly id = 'drawing';
  private from: Pt = { x: 0, y: 0 };
  /** The shape as last drawn, or null before the first move. */
  private last: NewObject | null = null;

  constructor(
    private readonly tool: ShapeTool,
    private readonly editor: ToolEditor,
  ) {
    super();
  }

  override onEnter(from: Pt): void {
    this.from = from;
    this.last = null;
  }

  override onExit(): void {
    this.editor.dispatch({ type: 'preview', object: null });
  }

  override onPointerMove(p: PointerInfo): void {
    const style = this.editor.state().style;
    this.last = dragShape(this.tool.id, this.from, p.world, style, p.shift);
    this.editor.dispatch({ type: 'preview', object: this.last });
  }

  protected cancel(): void {
    this.tool.transition('idle');
  }

  protected finish(): void {
    const shape = this.last;
    this.tool.transition('idle');
    if (shape === null || isTinyShape(shape)) return;
    this.editor.setTool('select');
    void this.editor.create(shape);
  }
}
