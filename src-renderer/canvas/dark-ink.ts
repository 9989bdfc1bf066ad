// The dark theme's board: board.css shows the drawing through `invert(93%) hue-rotate(180deg)`, which keeps a
// shape's hue and flips its lightness (black ink reads white on the dark canvas). A picture must not be flipped:
// it is drawn from a copy pre-filtered with hue-rotate(180deg) invert(100%), which the board's filter turns back
// (hue-rotate(180deg) is its own inverse; the two inversions leave 86 % of the contrast, 7 % lifted).
// Knows nothing of the store.
import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-color-scheme: dark)';

function media(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(QUERY)
    : null;
}

function subscribe(onChange: () => void): () => void {
  const m = media();
  m?.addEventListener('change', onChange);
  return () => m?.removeEventListener('change', onChange);
}

/** Whether the system (or browser) asks for dark colours; follows changes while the app runs. */
export function useDarkScheme(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => media()?.matches ?? false,
    () => false,
  );
}

/** The board filter's pre-inverse, applied to a copy once per picture (pictures are at most 2048 px a side). */
const PRE_FILTER = 'hue-rotate(180deg) invert(100%)';
const copies = new WeakMap<HTMLImageElement, HTMLCanvasElement>();

/** The picture as the dark board must draw it, so it shows as itself; the picture when it is not decoded yet. */
export function counterInverted(img: HTMLImageElement): CanvasImageSource {
  const cached = copies.get(img);
  if (cached !== undefined) return cached;
  const w = img.naturalWidth;
  const h = img.naturalHeight;
  if (!img.complete || w === 0 || h === 0) return img;
  const c = document.createElement('canvas');
  c.width = w;
  c.height = h;
  const ctx = c.getContext('2d');
  if (ctx === null) return img;
  ctx.filter = PRE_FILTER;
  ctx.drawImage(img, 0, 0);
  copies.set(img, c);
  return c;
}
