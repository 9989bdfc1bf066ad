// The core's events on their way into the store, board changes folded together until the next frame: a join
// that brings 5,000 objects in a few hundred events costs one store update (and one React render) per frame, not
// one per event. Anything else that goes to the store first lets the waiting changes in, so the store sees
// everything in the order the core said it (a join's last progress step finds its objects already there).
// Knows nothing of React, Konva or the bridge.
import type { ApiEvent } from '../../shared/api';
import { ObjectBatch } from '../../shared/object-batch';

/** Runs `fn` once, soon (the next animation frame); null: at once (tests, and no frames to wait for). */
export type FrameScheduler = ((fn: () => void) => void) | null;

/**
 * The next animation frame, or a timer if frames stop (a hidden tab gets none): a board that arrives while the
 * window is in the background is still taken in.
 */
export const nextFrame: FrameScheduler = (fn) => {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    fn();
  };
  requestAnimationFrame(once);
  setTimeout(once, 250);
};

export class EventIntake {
  private readonly batch = new ObjectBatch();
  private waiting = false;

  constructor(
    /** Hands one event to the store (and whatever else sees store events). */
    private readonly deliver: (e: ApiEvent) => void,
    private readonly frame: FrameScheduler,
  ) {}

  push(e: ApiEvent): void {
    if (e.type !== 'objects' || this.frame === null) {
      this.flush();
      this.deliver(e);
      return;
    }
    this.batch.add(e);
    if (this.waiting) return;
    this.waiting = true;
    this.frame(() => {
      this.waiting = false;
      this.flush();
    });
  }

  /** Lets the waiting board changes in now. */
  flush(): void {
    const e = this.batch.take();
    if (e !== undefined) this.deliver(e);
  }
}
