// The root of the tool state machines: one child per tool, the active one following the store's `tool`; above
// the tools, panning (space-drag, middle button, wheel) and zoom (ctrl/cmd + wheel, pinch), and the reports of
// this user's pointer; Ctrl/Cmd+A from any tool goes to the select tool. The canvas forwards its events here and
// only draws. Knows nothing of Konva or React.
import type { Tool } from '../../shared/api';
import { panBy, wheelZoomFactor, zoomAt } from '../board/camera';
import type { Pt } from '../board/simplify';
import type { ToolEditor } from './editor';
import type { PointerInfo, ToolEvent, WheelInfo } from './events';
import { PenTool } from './pen/PenTool';
import { PlaceTool } from './place/PlaceTool';
import { SelectTool } from './select/SelectTool';
import { ShapeTool } from './shape/ShapeTool';
import { ParentNode } from './state-node';

interface ToolNodes {
  readonly select: SelectTool;
  readonly rect: ShapeTool;
  readonly ellipse: ShapeTool;
  readonly line: ShapeTool;
  readonly arrow: ShapeTool;
  readonly pen: PenTool;
  readonly text: PlaceTool;
  readonly note: PlaceTool;
}

/** CSS px per wheel line (DOM deltaMode 1). */
const LINE_PX = 16;

const pans = (p: PointerInfo): boolean => p.button === 1 || (p.space && p.button === 0);

export class Tools extends ParentNode<ToolNodes> {
  readonly id = 'tools';
  readonly children: ToolNodes;
  protected readonly initial: Tool;
  /** Where a pan drag last was (screen px), or null when not panning; the tools see nothing meanwhile. */
  private panAt: Pt | null = null;
  private readonly unsubscribe: () => void;

  constructor(private readonly editor: ToolEditor) {
    super();
    this.children = {
      select: new SelectTool(editor),
      rect: new ShapeTool('rect', editor),
      ellipse: new ShapeTool('ellipse', editor),
      line: new ShapeTool('line', editor),
      arrow: new ShapeTool('arrow', editor),
      pen: new PenTool(editor),
      text: new PlaceTool('text', editor),
      note: new PlaceTool('note', editor),
    };
    this.initial = editor.state().tool;
    this.enter();
    this.unsubscribe = editor.subscribe(() => {
      this.follow();
    });
  }

  get panning(): boolean {
    return this.panAt !== null;
  }

  dispose(): void {
    this.unsubscribe();
    this.exit();
  }

  /** One event from the canvas or the keyboard; true when the caller should stop the browser's default. */
  override handle(e: ToolEvent): boolean {
    switch (e.type) {
      case 'pointerDown':
        if (!pans(e.pointer)) return super.handle(e);
        this.panAt = e.pointer.screen;
        return true;
      case 'pointerMove':
        if (this.panAt) {
          this.pan(e.pointer.screen);
          return false;
        }
        this.editor.pointerMoved(e.pointer.world.x, e.pointer.world.y);
        return super.handle(e);
      case 'pointerUp':
        this.panAt = null;
        return super.handle(e);
      case 'pointerLeave':
        this.panAt = null;
        super.handle(e);
        this.editor.pointerLeft();
        return false;
      case 'wheel':
        this.wheel(e.wheel);
        return true;
      case 'keyDown':
        // Select all from any tool: it switches to the select tool, which selects.
        if (e.key.mod === true && e.key.key.toLowerCase() === 'a' && this.current !== 'select')
          this.editor.setTool('select');
        return super.handle(e);
      case 'doubleClick':
      case 'dragStart':
      case 'dragMove':
      case 'dragEnd':
      case 'transform':
      case 'transformEnd':
        return super.handle(e);
    }
  }

  /** The store's tool changed (tool bar, shortcut, or a tool finishing): leave the old tool for the new one. */
  private follow(): void {
    const tool = this.editor.state().tool;
    // null: a tool is being left right now, and what its exit dispatches must not start another switch.
    if (this.current !== null && this.current !== tool) this.transition(tool);
  }

  private pan(screen: Pt): void {
    const from = this.panAt ?? screen;
    const c = this.editor.state().camera;
    this.editor.dispatch({
      type: 'camera',
      camera: panBy(c, screen.x - from.x, screen.y - from.y),
    });
    this.panAt = screen;
  }

  private wheel(w: WheelInfo): void {
    const c = this.editor.state().camera;
    const unit = w.lines ? LINE_PX : 1;
    if (w.zoom) {
      if (!w.screen) return;
      const scale = c.scale * wheelZoomFactor(w.deltaY * unit);
      this.editor.dispatch({ type: 'camera', camera: zoomAt(c, scale, w.screen.x, w.screen.y) });
    } else {
      const camera = panBy(c, -w.deltaX * unit, -w.deltaY * unit);
      this.editor.dispatch({ type: 'camera', camera });
    }
  }
}
