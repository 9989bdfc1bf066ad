// The view onto the board: screen = world × scale + offset. Pure maths; knows nothing of Konva, React or the DOM.
import type { Viewport } from '../../shared/api';
import { WORLD_EXTENT } from '../../shared/board';

export interface Camera {
  /** Screen position of world (0, 0), CSS px. */
  readonly x: number;
  readonly y: number;
  readonly scale: number;
}

export interface Size {
  readonly width: number;
  readonly height: number;
}

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export const MIN_SCALE = 0.1;
export const MAX_SCALE = 8;
export const INITIAL_CAMERA: Camera = { x: 0, y: 0, scale: 1 };

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

export function toWorld(c: Camera, sx: number, sy: number): { x: number; y: number } {
  return { x: (sx - c.x) / c.scale, y: (sy - c.y) / c.scale };
}

export function toScreen(c: Camera, wx: number, wy: number): { x: number; y: number } {
  return { x: wx * c.scale + c.x, y: wy * c.scale + c.y };
}

export function panBy(c: Camera, dx: number, dy: number): Camera {
  return { ...c, x: c.x + dx, y: c.y + dy };
}

/** Zooms to `scale` keeping the world point under screen point (sx, sy) where it is. */
export function zoomAt(c: Camera, scale: number, sx: number, sy: number): Camera {
  const s = clamp(scale, MIN_SCALE, MAX_SCALE);
  const w = toWorld(c, sx, sy);
  return { scale: s, x: sx - w.x * s, y: sy - w.y * s };
}

/** One wheel notch (deltaY) as a zoom factor; trackpad pinches send small deltas and zoom finely. */
export function wheelZoomFactor(deltaY: number): number {
  return Math.exp(-clamp(deltaY, -100, 100) / 300);
}

/** The world rectangle the screen shows (integers, within the board), for `{cmd:'viewport'}`. */
export function visibleWorld(c: Camera, size: Size): Viewport {
  const tl = toWorld(c, 0, 0);
  const x = clamp(Math.floor(tl.x), -WORLD_EXTENT, WORLD_EXTENT);
  const y = clamp(Math.floor(tl.y), -WORLD_EXTENT, WORLD_EXTENT);
  const w = clamp(Math.ceil(size.width / c.scale), 0, 2 * WORLD_EXTENT);
  const h = clamp(Math.ceil(size.height / c.scale), 0, 2 * WORLD_EXTENT);
  return { x, y, w, h };
}

/** A camera that shows `bounds` whole and centred, with a margin, never zoomed in past 100 %. */
export function fitCamera(bounds: Rect | null, size: Size, margin = 64): Camera {
  if (bounds === null || size.width <= 0 || size.height <= 0) {
    return { x: size.width / 2, y: size.height / 2, scale: 1 };
  }
  const sx = (size.width - 2 * margin) / Math.max(1, bounds.w);
  const sy = (size.height - 2 * margin) / Math.max(1, bounds.h);
  const scale = clamp(Math.min(sx, sy, 1), MIN_SCALE, MAX_SCALE);
  const cx = bounds.x + bounds.w / 2;
  const cy = bounds.y + bounds.h / 2;
  return { scale, x: size.width / 2 - cx * scale, y: size.height / 2 - cy * scale };
}
