// The freehand pen: press, draw, release to create a stroke; the tool stays the pen for the next one.
// States: idle → drawing → idle. Knows nothing of Konva or React.
import { DrawIdle } from '../draw-idle';
import type { ToolEditor } from '../editor';
import { ParentNode } from '../state-node';
import { Drawing } from './Drawing';

interface States {
  readonly idle: DrawIdle;
  readonly drawing: Drawing;
}

export class PenTool extends ParentNode<States> {
  readonly id = 'pen';
  readonly children: States;
  protected readonly initial = 'idle';

  constructor(editor: ToolEditor) {
    super();
    this.children = {
      idle: new DrawIdle(editor, (p) => {
        this.transition('drawing', p.world);
      }),
      drawing: new Drawing(this, editor),
    };
  }
}
