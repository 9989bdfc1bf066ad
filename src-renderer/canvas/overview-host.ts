// The overview (overview.ts) in the page: its bitmaps are canvases, its idle time requestIdleCallback's. Knows
// the DOM and nothing of Konva, React or the store.
import { Overview, type OverviewHost, SLICE_MS, type Surface } from './overview';

/** Idle callbacks wait at most this long for idle time (a page busy for a long gesture still gets its overview). */
const IDLE_TIMEOUT_MS = 1000;

function surface(width: number, height: number): Surface {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (ctx === null) throw new Error('no 2D canvas context');
  return {
    image: canvas,
    ctx,
    fit(w, h) {
      if (canvas.width === w && canvas.height === h) return;
      canvas.width = w;
      canvas.height = h;
    },
  };
}

const host: OverviewHost = {
  surface,
  idle(run, afterMs) {
    setTimeout(() => {
      requestIdleCallback(
        (d) => {
          run(Math.min(SLICE_MS, d.timeRemaining()));
        },
        { timeout: IDLE_TIMEOUT_MS },
      );
    }, afterMs);
  },
  now: () => performance.now(),
};

export function browserOverview(): Overview {
  return new Overview(host);
}
