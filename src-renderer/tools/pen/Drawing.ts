// A freehand stroke under way: every move adds a point and redraws the preview; release (or leaving the board)
// creates the stroke, simplified to the wire's point budget; Escape drops it.
import type { NewObject } from '../../../shared/board';
import type { Style } from '../../board/shapes';
import { type Pt, strokeGeometry } from '../../board/simplify';
import type { ToolEditor } from '../editor';
import type { PointerInfo } from '../events';
import { GestureState } from '../gesture-state';
import type { PenTool } from './PenTool';

/** The stroke as drawn so far, points relative to the first (the preview; the created one is simplified). */
export function penObject(points: readonly Pt[], style: Style): NewObject {
  const first = points[0] ?? { x: 0, y: 0 };
  return {
    kind: 'stroke',
    x: first.x,
    y: first.y,
    w: 0,
    h: 0,
    rotation: 0,
    stroke: style.stroke,
    fill: null,
    strokeWidth: style.strokeWidth,
    text: '',
    points: points.flatMap((p) => [p.x - first.x, p.y - first.y]),
    blob: '',
  };
}

export class Drawing extends GestureState<Pt> {
  readonly id = 'drawing';
  private points: Pt[] = [];

  constructor(
    private readonly tool: PenTool,
    private readonly editor: ToolEditor,
  ) {
    super();
  }

  override onEnter(at: Pt): void {
    this.points = [at];
  }

  override onExit(): void {
    this.editor.dispatch({ type: 'preview', object: null });
  }

  override onPointerMove(p: PointerInfo): void {
    this.points.push(p.world);
    this.editor.dispatch({
      type: 'preview',
      object: penObject(this.points, this.editor.state().style),
    });
  }

  protected cancel(): void {
    this.tool.transition('idle');
  }

  protected finish(): void {
    const points = this.points;
    this.tool.transition('idle');
    const style = this.editor.state().style;
    void this.editor.create({ ...penObject(points, style), ...strokeGeometry(points) });
  }
}
