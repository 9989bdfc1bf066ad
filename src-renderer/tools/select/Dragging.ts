// The selection being dragged: the canvas moves the node under the pointer (the lead) and, through the
// selection's handles, the other selected nodes with it; we grab every selected object from the host, report
// where each is (the lead's move applied to each; only the lead's go out live, throttled by the controller:
// the others follow it on the other users' screens because we hold them) and drop each where released,
// clamped to the world. A refused grab or drop puts that object back (the lead's ends the whole drag); Escape
// drops everything back where it started.
import type { ObjectId } from '../../../shared/board';
import { WORLD_EXTENT } from '../../../shared/board';
import type { Pt } from '../../board/simplify';
import { shownObject } from '../../store/selectors';
import type { ToolEditor } from '../editor';
import type { DragHandle, DragInfo, KeyInfo } from '../events';
import { StateNode } from '../state-node';
import { holderName, snapBack } from './locks';
import type { SelectTool } from './SelectTool';

const clampWorld = (v: number): number =>
  Math.max(-WORLD_EXTENT, Math.min(WORLD_EXTENT, Math.round(v)));
const clampPt = (p: Pt): Pt => ({ x: clampWorld(p.x), y: clampWorld(p.y) });

/** One object of the drag. */
interface Member {
  readonly id: ObjectId;
  readonly origin: Pt;
  last: Pt;
  /** Its node, once the canvas reported it moving (null until then, or if it never does: culled). */
  node: DragHandle | null;
}

/** One drag, by identity: a refusal may arrive after it ended, or during a later drag. */
interface Group {
  /** The object under the pointer: its moves drive the others. */
  readonly lead: ObjectId;
  readonly leadOrigin: Pt;
  /** Lead first, then the rest of the selection in selection order. */
  readonly members: Map<ObjectId, Member>;
}

/**
 * The followers, then the lead: the others' view of the followers rides on the lead's live drag until each
 * follower's own drop lands, so the lead lets go last.
 */
function dropOrder(g: Group): Member[] {
  const all = [...g.members.values()];
  return [...all.filter((m) => m.id !== g.lead), ...all.filter((m) => m.id === g.lead)];
}

export class Dragging extends StateNode<DragInfo> {
  readonly id = 'dragging';
  private group: Group | null = null;

  constructor(
    private readonly tool: SelectTool,
    private readonly editor: ToolEditor,
  ) {
    super();
  }

  override onEnter(d: DragInfo): void {
    const s = this.editor.state();
    const leadOrigin = clampPt(d.at);
    const members = new Map<ObjectId, Member>();
    members.set(d.id, { id: d.id, origin: leadOrigin, last: leadOrigin, node: d.node });
    const others = s.selection.includes(d.id) ? s.selection.filter((id) => id !== d.id) : [];
    for (const id of others) {
      const o = s.board.get(id);
      if (!o || o.pinned === 1 || holderName(this.editor, id) !== null) continue;
      const origin = clampPt(shownObject(s, o));
      members.set(id, { id, origin, last: origin, node: null });
    }
    const group: Group = { lead: d.id, leadOrigin, members };
    this.group = group;
    for (const m of members.values())
      this.editor.startDrag(
        m.id,
        (reason) => {
          this.refused(group, m, reason);
        },
        m.id !== d.id,
      );
  }

  /** Left for another tool mid-drag (a tool key): everything is dropped where it is. */
  override onExit(): void {
    const g = this.release();
    if (!g) return;
    for (const m of dropOrder(g)) {
      this.editor.endDrag(m.id, m.last.x, m.last.y);
      m.node?.put(m.last, true);
    }
  }

  /** The canvas started moving another selected node along with the lead: keep its handle. */
  override onDragStart(d: DragInfo): void {
    const g = this.group;
    if (!g || d.id === g.lead) return;
    const m = g.members.get(d.id);
    if (m) m.node ??= d.node;
    // Selected, but someone else took it since: it stays where the board has it.
    else snapBack(this.editor, d.id, d.node);
  }

  override onDragMove(d: DragInfo): void {
    const g = this.group;
    if (g?.lead !== d.id) return;
    if (d.pointer) this.editor.pointerMoved(d.pointer.x, d.pointer.y);
    const by = this.offset(g, d.at);
    for (const m of g.members.values()) {
      m.last = clampPt({ x: m.origin.x + by.x, y: m.origin.y + by.y });
      this.editor.moveDrag(m.id, m.last.x, m.last.y);
    }
  }

  override onDragEnd(d: DragInfo): void {
    if (this.group?.lead !== d.id) return;
    const g = this.release();
    if (!g) return;
    const by = this.offset(g, d.at);
    for (const m of dropOrder(g)) {
      const at = clampPt({ x: m.origin.x + by.x, y: m.origin.y + by.y });
      m.node?.put(at, false);
      this.editor.endDrag(m.id, at.x, at.y);
    }
  }

  override onKeyDown(k: KeyInfo): boolean {
    if (k.key !== 'Escape') return false;
    const g = this.release();
    if (!g) return false;
    for (const m of dropOrder(g)) {
      this.editor.endDrag(m.id, m.origin.x, m.origin.y);
      m.node?.put(m.origin, true);
    }
    return true;
  }

  /** How far the lead has moved from where the drag started (world, whole units). */
  private offset(g: Group, leadAt: Pt): Pt {
    const at = clampPt(leadAt);
    return { x: at.x - g.leadOrigin.x, y: at.y - g.leadOrigin.y };
  }

  /** Forgets the drag and goes back to idle (before touching nodes: stopping one reports a dragEnd). */
  private release(): Group | null {
    const g = this.group;
    this.group = null;
    if (this.tool.current === 'dragging') this.tool.transition('idle');
    return g;
  }

  private refused(g: Group, m: Member, reason: string): void {
    if (this.group === g && g.members.has(m.id)) {
      if (m.id === g.lead) {
        // The object under the pointer is not ours to move: the drag ends, the others dropped where they are.
        this.release();
        for (const other of dropOrder(g)) {
          this.editor.endDrag(other.id, other.last.x, other.last.y);
          if (other !== m) other.node?.put(other.last, true);
        }
      } else {
        g.members.delete(m.id);
        this.editor.endDrag(m.id, m.last.x, m.last.y);
      }
    }
    if (m.node) snapBack(this.editor, m.id, m.node);
    else this.editor.dispatch({ type: 'moveUndone', id: m.id });
    this.editor.toast('warn', reason);
  }
}
