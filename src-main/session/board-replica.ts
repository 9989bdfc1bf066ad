// Host side: keeps one ghost source per board object in step with the board model, marking only the state
// groups an edit changed, and gives each connection's scoping its priorities. Knows nothing of RPCs or peers.
import type { BoardObject, ObjectId } from '../../shared/board';
import type { Viewport } from '../../shared/api';
import type { GhostScope } from '../net/ghost/ghost-sender';
import type { GhostSource } from '../net/ghost/ghost-source';
import { GhostDomain } from '../net/ghost/ghost-source';
import type { Board } from './board';
import type { BoardHolder } from './ghost-classes';
import { BOARD_REGISTRY, BoardItem, changedGroups } from './ghost-classes';

interface Entry {
  readonly source: GhostSource<BoardHolder>;
  readonly holder: BoardHolder;
  changedAt: number;
}

export class BoardReplica {
  readonly domain = new GhostDomain(BOARD_REGISTRY);
  private readonly entries = new Map<ObjectId, Entry>();
  private readonly unsubscribe: () => void;

  constructor(
    board: Board,
    private readonly clock: () => number,
    /**
     * Called when an object is added, so connections take it in at once (admit). One removed leaves every
     * connection's scope as its source is destroyed: no pass is needed for either.
     */
    private readonly onAdded: (id: ObjectId) => void = () => undefined,
  ) {
    for (const o of board.all()) this.upsert(o);
    this.unsubscribe = board.subscribe((c) => {
      if (c.type === 'upsert') this.upsert(c.object);
      else this.remove(c.id);
    });
  }

  private upsert(o: BoardObject): void {
    const e = this.entries.get(o.id);
    if (e === undefined) {
      const holder = { o };
      this.entries.set(o.id, {
        source: this.domain.add(BoardItem, holder),
        holder,
        changedAt: this.clock(),
      });
      this.onAdded(o.id);
      return;
    }
    const mask = changedGroups(e.holder.o, o);
    e.holder.o = o;
    e.changedAt = this.clock();
    if (mask !== 0) e.source.markDirty(mask);
  }

  private remove(id: ObjectId): void {
    const e = this.entries.get(id);
    if (e === undefined) return;
    this.entries.delete(id);
    e.source.destroy();
  }

  /**
   * Every object is in scope (peers keep the whole board), prioritized by distance to the viewer's viewport
   * and by how recently it changed, so what the user looks at arrives first on join and under a tight budget.
   */
  scope(now: number, s: GhostScope, view: Viewport | undefined): void {
    const f = frameOf(view);
    for (const e of this.entries.values()) s.add(e.source, priorityOf(e, now, view, f));
  }

  /**
   * Puts object `id` (just added) in one connection's scope with the priority a pass would give it. A create used to
   * rescope every peer's board, a pass over the whole board per peer for each create spread out in time (a session
   * of 1,000 users creating once a minute each: 17 passes a second over a growing board for every peer).
   */
  admit(now: number, id: ObjectId, s: GhostScope, view: Viewport | undefined): void {
    const e = this.entries.get(id);
    if (e !== undefined) s.add(e.source, priorityOf(e, now, view, frameOf(view)));
  }

  dispose(): void {
    this.unsubscribe();
    for (const e of this.entries.values()) e.source.destroy();
    this.entries.clear();
  }
}

/** A view's centre and diagonal (at least 1), worked out once per pass. */
interface Frame {
  readonly cx: number;
  readonly cy: number;
  readonly reach: number;
}

function frameOf(view: Viewport | undefined): Frame {
  if (view === undefined) return { cx: 0, cy: 0, reach: 1 };
  return {
    cx: view.x + view.w / 2,
    cy: view.y + view.h / 2,
    reach: Math.max(1, Math.hypot(view.w, view.h)),
  };
}

/** An object's priority for a viewer of `view`: in view first, then by distance; doubled while recently changed. */
function priorityOf(e: Entry, now: number, view: Viewport | undefined, f: Frame): number {
  const o = e.holder.o;
  let p = 1;
  if (view) {
    const inside =
      o.x + o.w >= view.x &&
      o.x <= view.x + view.w &&
      o.y + o.h >= view.y &&
      o.y <= view.y + view.h;
    const d = Math.hypot(o.x + o.w / 2 - f.cx, o.y + o.h / 2 - f.cy) / f.reach;
    p = inside ? 100 : 50 / (1 + d);
  }
  if (now - e.changedAt < 2000) p *= 2;
  return p;
}
