// The text and sticky-note tools: press and release to place one there, then type into it (select tool).
// States: idle → pointing → idle. Knows nothing of Konva or React.
import { DrawIdle } from '../draw-idle';
import type { ToolEditor } from '../editor';
import { ParentNode } from '../state-node';
import { Pointing } from './Pointing';

export type PlaceKind = 'text' | 'note';

interface States {
  readonly idle: DrawIdle;
  readonly pointing: Pointing;
}

export class PlaceTool extends ParentNode<States> {
  readonly children: States;
  protected readonly initial = 'idle';

  constructor(
    readonly id: PlaceKind,
    editor: ToolEditor,
  ) {
    super();
    this.children = {
      idle: new DrawIdle(editor, (p) => {
        this.transition('pointing', p.world);
      }),
      pointing: new Pointing(this, editor),
    };
  }
}
