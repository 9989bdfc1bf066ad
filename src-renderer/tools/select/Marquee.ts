// A press on the bare canvas with the select tool: once the pointer has moved a few pixels, a marquee spans
// from the press to the pointer and selects the objects it wholly contains (with Shift, added to what was
// selected); release or leaving the board ends it, Escape ends it and clears the selection.
import type { ObjectId } from '../../../shared/board';
import { rectBetween } from '../../board/selection';
import type { Pt } from '../../board/simplify';
import type { ToolEditor } from '../editor';
import type { KeyInfo, PointerInfo } from '../events';
import { StateNode } from '../state-node';
import { insideMarquee, sameIds, withAdded } from './selecting';
import type { SelectTool } from './SelectTool';

/** Screen px the pointer must move before a press becomes a marquee (a click stays a click). */
export const MARQUEE_SLOP_PX = 3;

export interface MarqueeStart {
  /** Where the press was (world, and CSS px on the stage). */
  readonly world: Pt;
  readonly screen: Pt;
  /** What stays selected whatever the marquee holds (the selection at a Shift-press; else nothing). */
  readonly base: readonly ObjectId[];
}

export class Marquee extends StateNode<MarqueeStart> {
  readonly id = 'marquee';
  private start: MarqueeStart | null = null;
  private shown = false;

  constructor(
    private readonly tool: SelectTool,
    private readonly editor: ToolEditor,
  ) {
    super();
  }

  override onEnter(m: MarqueeStart): void {
    this.start = m;
    this.shown = false;
  }

  override onExit(): void {
    this.start = null;
    this.editor.dispatch({ type: 'marquee', rect: null });
  }

  override onPointerMove(p: PointerInfo): void {
    const m = this.start;
    if (m === null) return;
    const moved = Math.hypot(p.screen.x - m.screen.x, p.screen.y - m.screen.y);
    if (!this.shown && moved < MARQUEE_SLOP_PX) return;
    this.shown = true;
    const rect = rectBetween(m.world, p.world);
    this.editor.dispatch({ type: 'marquee', rect });
    const s = this.editor.state();
    const ids = withAdded(m.base, insideMarquee(s, rect));
    if (!sameIds(ids, s.selection)) this.editor.dispatch({ type: 'select', ids });
  }

  override onPointerUp(): void {
    this.tool.transition('idle');
  }

  override onPointerLeave(): void {
    this.tool.transition('idle');
  }

  override onKeyDown(k: KeyInfo): boolean {
    if (k.key !== 'Escape') return false;
    this.editor.dispatch({ type: 'select', ids: [] });
    this.tool.transition('idle');
    return true;
  }
}
