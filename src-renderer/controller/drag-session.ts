// One local drag of one object: grab, throttled drags, drop — shown at once (prediction) and undone if the host
// refuses the grab. A small state machine; knows nothing of Konva, React or the store.
import type { ApiCommand, ApiReply } from '../../shared/api';
import type { ObjectId } from '../../shared/board';
import { type Clock, realClock, Throttle } from '../board/throttle';

export type Invoke = (c: ApiCommand) => Promise<ApiReply>;

/** ~60 Hz: drags go out no faster than the display draws them. */
export const DRAG_INTERVAL_MS = 16;

type Phase =
  | { readonly kind: 'grabbing'; readonly dropAt: { x: number; y: number } | null }
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
  private last: { x: number; y: number } | null = null;
  private readonly drags: Throttle<{ x: number; y: number }>;

  constructor(
    readonly id: ObjectId,
    private readonly invoke: Invoke,
    private readonly cb: DragCallbacks,
    clock: Clock = realClock,
  ) {
    this.drags = new Throttle(
      DRAG_INTERVAL_MS,
      (p) => void this.invoke({ cmd: 'drag', id, ...p }),
      clock,
    );
  }

  get state(): Phase['kind'] {
    return this.phase.kind;
  }

  /** Where the user holds the object now (world, rounded), or null before the first move. */
  get position(): { x: number; y: number } | null {
    return this.last;
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
    if (phase.dropAt) this.sendDrop(phase.dropAt);
    else if (this.last && this.cb.quiet !== true) this.drags.push(this.last);
  }

  move(x: number, y: number): void {
    this.last = { x: Math.round(x), y: Math.round(y) };
    if (this.phase.kind === 'held' && this.cb.quiet !== true) this.drags.push(this.last);
  }

  /** The user let go at (x, y). False when the drag was refused (nothing to predict). */
  end(x: number, y: number): boolean {
    const at = { x: Math.round(x), y: Math.round(y) };
    switch (this.phase.kind) {
      case 'grabbing':
        this.phase = { kind: 'grabbing', dropAt: at };
        return true;
      case 'held':
        this.sendDrop(at);
        return true;
      case 'refused':
      case 'done':
        return false;
    }
  }

  private sendDrop(at: { x: number; y: number }): void {
    this.drags.cancel();
    this.phase = { kind: 'done' };
    void this.invoke({ cmd: 'drop', id: this.id, ...at }).then((r) => {
      if (!r.ok) this.cb.refused(r.reason);
    });
  }
}
