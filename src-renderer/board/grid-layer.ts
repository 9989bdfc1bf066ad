// The dot grid as a compositor layer: the dots are rasterised once at a base scale, and the camera then only moves
// and scales that layer (a transform, which the compositor applies without painting again), so a pan or a zoom
// costs no raster work. The layer is drawn again at the camera's own scale when the zoom has moved it too far from
// its base (dots drawn at twice or half their size) and once the camera settles. Pure: numbers in, layout out.
import type { Camera } from './camera';
import { GRID_PX } from './detail';

/** A zoom this far from the base scale (either way) draws the dots again. */
export const GRID_RASTER_RATIO = 2;

export interface GridLayout {
  /** The dots' spacing in the layer as drawn (CSS px) and the layer's size past its board's (CSS px each way). */
  readonly tile: number;
  /** The layer's transform: where its top-left corner goes and how much it is scaled. */
  readonly x: number;
  readonly y: number;
  readonly scale: number;
}

/** The scale the grid is drawn at for a camera: the current base while close enough, else the camera's. */
export function gridBase(base: number | undefined, camera: Camera): number {
  if (base === undefined) return camera.scale;
  const r = camera.scale / base;
  return r > GRID_RASTER_RATIO || r < 1 / GRID_RASTER_RATIO ? camera.scale : base;
}

/**
 * Where the layer drawn at `base` goes for `camera`. Its dots must land where a grid following the camera has
 * them, at (camera.x + (k + ½)·spacing, camera.y + (j + ½)·spacing); the pattern repeats, so the layer moves by
 * the camera's offset modulo one spacing, its top-left corner one spacing or less above and left of the board's.
 * Sized at twice the board plus four tiles (gridLayerSize), it covers the board down to half the base scale.
 */
export function gridLayout(base: number, camera: Camera): GridLayout {
  const spacing = GRID_PX * camera.scale;
  const mod = (v: number): number => ((v % spacing) + spacing) % spacing;
  return {
    tile: GRID_PX * base,
    x: mod(camera.x) - spacing,
    y: mod(camera.y) - spacing,
    scale: camera.scale / base,
  };
}

/** The layer's CSS width or height for its board's dimension of `percent`-based size: twice it plus four tiles. */
export function gridLayerSize(tile: number): string {
  return `calc(200% + ${4 * tile}px)`;
}
