// The selection being resized or rotated through its handles: the canvas transforms the nodes (the local view
// changes at once); we grab each transformed object from the host as its first transform arrives, report where
// each is (only the first one's place, size and rotation go out live: the others see the rest of the selection
// follow it because we hold them, interp/held-drags.ts), and on release send each object's edit, then its drop
// (one undo step). A refused grab rolls every object back to where the board has it, with a notice; a refused
// release rolls that object back; Escape puts everything back.
import type { BoardObject, ObjectId } from '../../../shared/board';
import { transformGeometry, transformPatch, type TransformResult } from '../../board/shapes';
import { shownObject } from '../../store/selectors';
import type { ToolEditor } from '../editor';
import type { KeyInfo, TransformHandle, TransformInfo } from '../events';
import { StateNode } from '../state-node';
import { holderName } from './locks';
import type { SelectTool } from './SelectTool';

/** One object under the handles. */
interface Member {
  readonly id: ObjectId;
  /** The object as the gesture found it: what a rollback shows and what the transform scales. */
  readonly origin: BoardObject;
  readonly node: TransformHandle;
  /** Its transform so far (null before its first). */
  last: TransformResult | null;
}

/** One gesture, by identity: a refusal may arrive after it was released, or during a later one. */
interface Group {
  /** The first object transformed: its live state is the one sent. */
  readonly lead: ObjectId;
  /** Lead first, then the others as their first transform came. */
  readonly members: Map<ObjectId, Member>;
  /** The ends reported so far (the canvas reports every node's at once). */
  readonly ended: Map<ObjectId, TransformResult>;
  phase: 'live' | 'released' | 'rolledBack';
  /** A notice was given (one per gesture). */
  noticed: boolean;
}

/** The followers, then the lead: the others' view of the followers rides on the lead's live state until then. */
function releaseOrder(g: Group): Member[] {
  const all = [...g.members.values()];
  return [...all.filter((m) => m.id !== g.lead), ...all.filter((m) => m.id === g.lead)];
}

export class Transforming extends StateNode<TransformInfo> {
  readonly id = 'transforming';
  private group: Group | null = null;

  constructor(
    private readonly tool: SelectTool,
    private readonly editor: ToolEditor,
  ) {
    super();
  }

  override onEnter(t: TransformInfo): void {
    this.group = {
      lead: t.id,
      members: new Map(),
      ended: new Map(),
      phase: 'live',
      noticed: false,
    };
    this.onTransform(t);
  }

  /** Left for another tool mid-gesture (a tool key): everything is released as it is now. */
  override onExit(): void {
    const g = this.group;
    if (g?.phase !== 'live') return;
    this.release(g);
    // Ends the canvas's gesture; its transformEnds find no live gesture.
    g.members.get(g.lead)?.node.stop();
  }

  override onTransform(t: TransformInfo): void {
    const g = this.group;
    if (g?.phase !== 'live') return;
    const m = g.members.get(t.id) ?? this.join(g, t);
    if (m === undefined) return;
    m.last = t.result;
    if (t.id === g.lead && t.pointer) this.editor.pointerMoved(t.pointer.x, t.pointer.y);
    this.editor.reshapeDrag(t.id, transformGeometry(m.origin, t.result));
  }

  override onTransformEnd(id: ObjectId, t: TransformResult, last: boolean): void {
    const g = this.group;
    if (g?.phase !== 'live') return;
    if (g.members.has(id)) g.ended.set(id, t);
    if (last) this.release(g);
  }

  override onKeyDown(k: KeyInfo): boolean {
    const g = this.group;
    if (k.key !== 'Escape' || g?.phase !== 'live') return false;
    this.rollBack(g);
    return true;
  }

  /** A node's first transform: grab its object, unless it is gone or someone else holds it (then roll back). */
  private join(g: Group, t: TransformInfo): Member | undefined {
    const s = this.editor.state();
    const o = s.board.get(t.id);
    const holder = o === undefined ? null : holderName(this.editor, t.id);
    if (o === undefined || holder !== null) {
      // Not ours to change: the whole gesture goes back, this node with it (a deleted one is going anyway).
      this.rollBack(g, o === undefined ? t.node : undefined);
      if (o !== undefined) t.node.put(shownObject(s, o));
      this.notice(
        g,
        holder === null ? 'That was deleted meanwhile.' : `${holder} is moving this right now.`,
      );
      return undefined;
    }
    const m: Member = { id: t.id, origin: shownObject(s, o), node: t.node, last: null };
    g.members.set(t.id, m);
    this.editor.startDrag(
      t.id,
      (reason) => {
        this.refused(g, m, reason);
      },
      t.id !== g.lead,
    );
    return m;
  }

  /** Each object's edit, then its drop (the followers first), with the transform it ended on. */
  private release(g: Group): void {
    g.phase = 'released';
    this.leave(g);
    for (const m of releaseOrder(g)) {
      const t = g.ended.get(m.id) ?? m.last;
      if (t === null) {
        this.editor.endDrag(m.id, m.origin.x, m.origin.y);
        continue;
      }
      const patch = transformPatch(m.origin, t);
      this.editor.endDrag(m.id, patch.x ?? m.origin.x, patch.y ?? m.origin.y, patch);
    }
  }

  /** Puts every object back where the gesture found it and lets go of them (no edit: nothing changed). */
  private rollBack(g: Group, stopVia?: TransformHandle): void {
    g.phase = 'rolledBack';
    // First, so the transformEnds that stopping the canvas's gesture reports find no live gesture.
    this.leave(g);
    const members = releaseOrder(g);
    (stopVia ?? members[0]?.node)?.stop();
    for (const m of members) {
      m.node.put(m.origin);
      this.editor.endDrag(m.id, m.origin.x, m.origin.y);
    }
  }

  private refused(g: Group, m: Member, reason: string): void {
    switch (g.phase) {
      case 'live':
        this.rollBack(g);
        break;
      case 'released': {
        // The release's edit or drop: this object shows what the board has.
        this.editor.dispatch({ type: 'editUndone', id: m.id });
        this.editor.dispatch({ type: 'moveUndone', id: m.id });
        const o = this.editor.state().board.get(m.id);
        if (o) m.node.put(o);
        break;
      }
      case 'rolledBack':
        break;
    }
    this.notice(g, reason);
  }

  /** One notice per gesture, however many of its objects were refused. */
  private notice(g: Group, text: string): void {
    if (g.noticed) return;
    g.noticed = true;
    this.editor.toast('warn', text);
  }

  /** Forgets the gesture and goes back to idle. */
  private leave(g: Group): void {
    if (this.group === g) this.group = null;
    if (this.tool.current === 'transforming') this.tool.transition('idle');
  }
}
