// One local drag of one object: grab, throttled drags, drop — shown at once (prediction) and undone if the host
// refuses the grab. A resize or rotate is the same gesture: its live state is the object's place, size and
// rotation (reshapes instead of drags), and its release an edit, then the drop. A small state machine; knows
// nothing of Konva, React or the store.
import type { ApiCommand, ApiReply } from '../../shared/api';
import type { ObjectId, ObjectPatch } from '../../shared/board';
import type { LiveGeometry } from '../board/shapes';
import { type Clock, realClock, Throttle } from '../board/throttle';

export type Invoke = (c: ApiCommand) => Promise<ApiReply>;

/** ~60 Hz: drags go out no faster than the display draws them. */
export const DRAG_INTERVAL_MS = 16;

interface At {
  readonly x: number;
  readonly y: number;
}

/** Where the user let go, and the edit a resize or rotate makes there (sent before the drop). */
interface Release {
  readonly at: At;
  readonly patch: ObjectPatch | undefined;
}

type Phase =
  | { readonly kind: 'grabbing'; readonly dropAt: Release | null }
  | { readonly kind: 'held' }
  | { readonly kind: 'refused' }
  | { readonly kind: 'done' };

export interface DragCallbacks {
  /** The host refused the grab or the drop (reason names the holder): put the object back. */
  readonly refused: (reason: string) => void;
  /**
   * Grab and drop only, no live drags: an object dragged along with a selection. A peer's live drag is one
   * object (the presence ghost has one slot); the others see the rest of the selection follow it because this
   * user holds them (interp/held-drags.ts).
   */
  readonly quiet?: boolean;
}

export class DragSession {
  private phase: Phase = { kind: 'grabbing', dropAt: null };
  private last: At | LiveGeometry | null = null;
  private readonly drags: Throttle<At | LiveGeometry>;
  /** The release's edit or drop was refused already: one notice is enough. */
  private releaseRefused = false;

  constructor(
    readonly id: ObjectId,
    private readonly invoke: Invoke,
    private readonly cb: DragCallbacks,
    clock: Clock = realClock,
  ) {
    this.drags = new Throttle(
      DRAG_INTERVAL_MS,
      (p) =>
        void this.invoke(
          'w' in p
            ? { cmd: 'reshape', id, x: p.x, y: p.y, w: p.w, h: p.h, rotation: p.rotation }
            : { cmd: 'drag', id, x: p.x, y: p.y },
        ),
      clock,
    );
  }

  get state(): Phase['kind'] {
    return this.phase.kind;
  }

  /** Where the user holds the object now (world, rounded), or null before the first move. */
  get position(): At | null {
    return this.last && { x: this.last.x, y: this.last.y };
  }

  /** Sends the grab; resolves once the host answered. */
  async start(): Promise<void> {
    const reply = await this.invoke({ cmd: 'grab', id: this.id });
    const phase = this.phase;
    if (phase.kind !== 'grabbing') return;
    if (!reply.ok) {
      this.phase = { kind: 'refused' };
      this.cb.refused(reply.reason);
      return;
    }
    this.phase = { kind: 'held' };
    if (phase.dropAt) this.release(phase.dropAt);
    else if (this.last && this.cb.quiet !== true) this.drags.push(this.last);
  }

  move(x: number, y: number): void {
    this.show({ x: Math.round(x), y: Math.round(y) });
  }

  /** A resize or rotate: the object's live place, size and rotation (the others see it like a drag). */
  reshape(g: LiveGeometry): void {
    const r = Math.round;
    this.show({ x: r(g.x), y: r(g.y), w: r(g.w), h: r(g.h), rotation: r(g.rotation) });
  }

  private show(live: At | LiveGeometry): void {
    this.last = live;
    if (this.phase.kind === 'held' && this.cb.quiet !== true) this.drags.push(live);
  }

  /**
   * The user let go at (x, y); a resize or rotate's `patch` (its new place, size, rotation, points) goes as one
   * edit just before the drop. False when the drag was refused (nothing to predict).
   */
  end(x: number, y: number, patch?: ObjectPatch): boolean {
    const release = { at: { x: Math.round(x), y: Math.round(y) }, patch };
    switch (this.phase.kind) {
      case 'grabbing':
        this.phase = { kind: 'grabbing', dropAt: release };
        return true;
      case 'held':
        this.release(release);
        return true;
      case 'refused':
      case 'done':
        return false;
    }
  }

  private release({ at, patch }: Release): void {
    this.drags.cancel();
    this.phase = { kind: 'done' };
    // Both on the drawing channel, in this order: the edit lands while the object is still ours.
    if (patch !== undefined)
      void this.invoke({ cmd: 'edit', id: this.id, patch }).then((r) => {
        this.releaseFailed(r);
      });
    void this.invoke({ cmd: 'drop', id: this.id, ...at }).then((r) => {
      this.releaseFailed(r);
    });
  }

  private releaseFailed(r: ApiReply): void {
    if (r.ok || this.releaseRefused) return;
    this.releaseRefused = true;
    this.cb.refused(r.reason);
  }
}
