// The select tool: press to select (Shift adds or removes), drag on the bare canvas for a marquee, Ctrl/Cmd+A
// for everything, drag the selection (the canvas moves the nodes, we grab, report and drop each), nudge it
// with the arrow keys, resize and rotate through the selection's handles, double-click or Enter to type into a
// text or note. States: idle → dragging | marquee | transforming → idle. Knows nothing of Konva or React.
import type { ToolEditor } from '../editor';
import { ParentNode } from '../state-node';
import { Dragging } from './Dragging';
import { Idle } from './Idle';
import { Marquee } from './Marquee';
import { Transforming } from './Transforming';

interface States {
  readonly idle: Idle;
  readonly dragging: Dragging;
  readonly marquee: Marquee;
  readonly transforming: Transforming;
}

export class SelectTool extends ParentNode<States> {
  readonly id = 'select';
  readonly children: States;
  protected readonly initial = 'idle';

  constructor(editor: ToolEditor) {
    super();
    this.children = {
      idle: new Idle(this, editor),
      dragging: new Dragging(this, editor),
      marquee: new Marquee(this, editor),
      transforming: new Transforming(this, editor),
    };
  }
}
