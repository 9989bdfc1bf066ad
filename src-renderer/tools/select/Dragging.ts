// An object being dragged: the canvas moves its node; we grab it from the host, report where it is (throttled
// by the controller) and drop it where released, clamped to the world. A refused grab or drop puts it back;
// Escape drops it back where it started.
import type { ObjectId } from '../../../shared/board';
import { WORLD_EXTENT } from '../../../shared/board';
import type { Pt } from '../../board/simplify';
import type { ToolEditor } from '../editor';
import type { DragHandle, DragInfo, KeyInfo } from '../events';
import { StateNode } from '../state-node';
import { snapBack } from './locks';
import type { SelectTool } from './SelectTool';

const clampWorld = (v: number): number =>
  Math.max(-WORLD_EXTENT, Math.min(WORLD_EXTENT, Math.round(v)));
const clampPt = (p: Pt): Pt => ({ x: clampWorld(p.x), y: clampWorld(p.y) });

/** One drag, by identity: a refusal may arrive after it ended, or during a later drag. */
interface Held {
  readonly id: ObjectId;
  readonly node: DragHandle;
  readonly origin: Pt;
  last: Pt;
}

export class Dragging extends StateNode<DragInfo> {
  readonly id = 'dragging';
  private held: Held | null = null;

  constructor(
    private readonly tool: SelectTool,
    private readonly editor: ToolEditor,
  ) {
    super();
  }

  override onEnter(d: DragInfo): void {
    const origin = clampPt(d.at);
    const held: Held = { id: d.id, node: d.node, origin, last: origin };
    this.held = held;
    this.editor.startDrag(d.id, (reason) => {
      this.refused(held, reason);
    });
  }

  /** Left for another tool mid-drag (a tool key): the object is dropped where it is. */
  override onExit(): void {
    const h = this.release();
    if (!h) return;
    this.editor.endDrag(h.id, h.last.x, h.last.y);
    h.node.put(h.last, true);
  }

  override onDragMove(d: DragInfo): void {
    const h = this.held;
    if (h?.id !== d.id) return;
    if (d.pointer) this.editor.pointerMoved(d.pointer.x, d.pointer.y);
    h.last = clampPt(d.at);
    this.editor.moveDrag(h.id, h.last.x, h.last.y);
  }

  override onDragEnd(d: DragInfo): void {
    if (this.held?.id !== d.id) return;
    const h = this.release();
    if (!h) return;
    const at = clampPt(d.at);
    h.node.put(at, false);
    this.editor.endDrag(h.id, at.x, at.y);
  }

  override onKeyDown(k: KeyInfo): boolean {
    if (k.key !== 'Escape') return false;
    const h = this.release();
    if (!h) return false;
    this.editor.endDrag(h.id, h.origin.x, h.origin.y);
    h.node.put(h.origin, true);
    return true;
  }

  /** Forgets the drag and goes back to idle (before touching the node: stopping it reports a dragEnd). */
  private release(): Held | null {
    const h = this.held;
    this.held = null;
    if (this.tool.current === 'dragging') this.tool.transition('idle');
    return h;
  }

  private refused(h: Held, reason: string): void {
    if (this.held === h) {
      this.release();
      this.editor.endDrag(h.id, h.last.x, h.last.y);
    }
    snapBack(this.editor, h.id, h.node);
    this.editor.toast('warn', reason);
  }
}
