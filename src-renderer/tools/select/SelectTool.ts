// The select tool: press to select (Shift adds or removes), drag objects (the canvas moves the node, we grab,
// report and drop), resize and rotate through the selection's handles, double-click or Enter to type into a
// text or note. States: idle → dragging → idle. Knows nothing of Konva or React.
import type { ToolEditor } from '../editor';
import { ParentNode } from '../state-node';
import { Dragging } from './Dragging';
import { Idle } from './Idle';

interface States {
  readonly idle: Idle;
  readonly dragging: Dragging;
}

export class SelectTool extends ParentNode<States> {
  readonly id = 'select';
  readonly children: States;
  protected readonly initial = 'idle';

  constructor(editor: ToolEditor) {
    super();
    this.children = { idle: new Idle(this, editor), dragging: new Dragging(this, editor) };
  }
}
