// The core's events on their way into the store, board changes folded together until the next frame: a join
// that brings 5,000 objects in a few hundred events costs one store update (and one render of the board) per
// frame, not one per event. While a joiner's board comes down it waits longer between updates (each draws the
// whole board so far, and a render of thousands of objects can take longer than a frame): the progress bar moves
// at every step meanwhile, and the last step lets every object in before it says the board is whole. Anything
// else lets the waiting changes in first, so the store sees everything in the order the core said it.
// Knows nothing of React, Konva or the bridge.
import type { ApiEvent, SessionStatus } from '../../shared/api';
import { ObjectBatch } from '../../shared/object-batch';

/**
 * Runs `fn` once, soon: at the next animation frame, or (`download`: a board is coming down) a little later.
 * null: at once (tests, and no frames to wait for).
 */
export type FrameScheduler = ((fn: () => void, download: boolean) => void) | null;

/** While a board comes down, its objects go into the store this often (about 12 renders in a 3 s join). */
export const DOWNLOAD_INTAKE_MS = 250;

/**
 * The next animation frame, or a timer if frames stop (a hidden tab gets none): a board that arrives while the
 * window is in the background is still taken in.
 */
export const nextFrame: FrameScheduler = (fn, download) => {
  if (download) {
    setTimeout(fn, DOWNLOAD_INTAKE_MS);
    return;
  }
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    fn();
  };
  requestAnimationFrame(once);
  setTimeout(once, 250);
};

/** A joined session whose board is still on its way. */
function downloading(s: SessionStatus): boolean {
  return s.phase === 'joined' && s.received < s.total;
}

export class EventIntake {
  private readonly batch = new ObjectBatch();
  private waiting = false;
  private download = false;

  constructor(
    /** Hands one event to the store (and whatever else sees store events). */
    private readonly deliver: (e: ApiEvent) => void,
    private readonly frame: FrameScheduler,
  ) {}

  push(e: ApiEvent): void {
    if (e.type === 'status') {
      this.download = downloading(e.status);
      // A step of the download says how many objects came, not which: it need not wait for them.
      if (this.download) {
        this.deliver(e);
        return;
      }
    }
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
    }, this.download);
  }

  /** Lets the waiting board changes in now. */
  flush(): void {
    const e = this.batch.take();
    if (e !== undefined) this.deliver(e);
  }
}
