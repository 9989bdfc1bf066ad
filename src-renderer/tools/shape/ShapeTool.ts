// The box and line tools (rectangle, ellipse, line, arrow): press, drag the shape out, release to create it.
// States: idle → drawing → idle. Knows nothing of Konva or React.
import { DrawIdle } from '../draw-idle';
import type { ToolEditor } from '../editor';
import { ParentNode } from '../state-node';
import { Drawing } from './Drawing';

export type ShapeKind = 'rect' | 'ellipse' | 'line' | 'arrow';

interface States {
  readonly idle: DrawIdle;
  readonly drawing: Drawing;
}

export class ShapeTool extends ParentNode<States> {
  readonly children: States;
  protected readonly initial = 'idle';

  constructor(
    readonly id: ShapeKind,
    editor: ToolEditor,
  ) {
    super();
    this.children = {
      idle: new DrawIdle(editor, (p) => {
        this.transition('drawing', p.world);
      }),
      drawing: new Drawing(this, editor),
    };
  }
}
