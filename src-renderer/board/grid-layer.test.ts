import { describe, expect, it } from 'vitest';
import { GRID_PX } from './detail';
import { GRID_RASTER_RATIO, gridBase, gridLayout } from './grid-layer';

/** Screen x of the layer's k-th dot, as the transform puts it. */
const dotAt = (base: number, cam: { x: number; y: number; scale: number }, k: number): number => {
  const at = gridLayout(base, cam);
  return at.x + at.scale * (k + 0.5) * at.tile;
};

describe('the grid layer', () => {
  it('puts its dots where a grid following the camera has them, at any base within the band', () => {
    for (const cam of [
      { x: 0, y: 0, scale: 1 },
      { x: 137.5, y: -42, scale: 1.7 },
      { x: -9999, y: 12345, scale: 0.6 },
    ])
      for (const base of [cam.scale, cam.scale * 1.9, cam.scale / 1.9]) {
        const spacing = GRID_PX * cam.scale;
        for (const k of [0, 1, 7]) {
          const off = (dotAt(base, cam, k) - (cam.x + spacing / 2)) / spacing;
          expect(Math.abs(off - Math.round(off))).toBeLessThan(1e-9);
        }
        // Its corner is within one spacing above and left of the board's, so it covers from the board's edge.
        const at = gridLayout(base, cam);
        expect(at.x).toBeGreaterThanOrEqual(-spacing);
        expect(at.x).toBeLessThanOrEqual(0);
        expect(at.y).toBeGreaterThanOrEqual(-spacing);
        expect(at.y).toBeLessThanOrEqual(0);
      }
  });

  it('covers a board of any width down to half its base scale (twice the board plus four tiles)', () => {
    for (const width of [300, 1280, 3840]) {
      const base = 2;
      const cam = { x: 55, y: 0, scale: base / GRID_RASTER_RATIO };
      const at = gridLayout(base, cam);
      const layerWidth = 2 * width + 4 * at.tile;
      expect(at.x + at.scale * layerWidth).toBeGreaterThanOrEqual(width);
    }
  });

  it('keeps its base while the zoom stays within twice either way, and takes the camera’s past it', () => {
    const cam = (scale: number) => ({ x: 0, y: 0, scale });
    expect(gridBase(undefined, cam(0.8))).toBe(0.8);
    expect(gridBase(1, cam(1.9))).toBe(1);
    expect(gridBase(1, cam(0.55))).toBe(1);
    expect(gridBase(1, cam(2.1))).toBe(2.1);
    expect(gridBase(1, cam(0.45))).toBe(0.45);
  });
});
