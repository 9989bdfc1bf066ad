// Unit tests of when the board layer is drawn afresh mid-gesture (fallsShort, redrawMidGesture).
import { describe, expect, it } from 'vitest';
import { fallsShort, redrawMidGesture } from './use-settled-camera';

describe('fallsShort', () => {
  const size = { width: 1000, height: 500 };
  const at = { x: 0, y: 0, scale: 1 };
  const board = { x: -5000, y: -5000, w: 10_000, h: 10_000 };

  it('asks for a fresh draw zoomed in past 4×; zoomed out, only for board it lacks', () => {
    expect(fallsShort(at, { ...at, scale: 3.9 }, size, board, 0, 1)).toBe(false);
    expect(fallsShort(at, { ...at, scale: 4.1 }, size, board, 0, 1)).toBe(true);
    // Zoomed out to 0.6 about the origin: the view grows onto board the layer never drew.
    expect(fallsShort(at, { ...at, scale: 0.6 }, size, board, 0, 0.1)).toBe(true);
    const small = { x: 100, y: 100, w: 200, h: 200 };
    expect(fallsShort(at, { ...at, scale: 0.6 }, size, small, 0, 0)).toBe(false);
  });

  it('counts only board the layer lacks: past the margin, beyond the slack', () => {
    const panned = { ...at, x: -150 };
    expect(fallsShort(at, panned, size, board, 200, 0)).toBe(false);
    expect(fallsShort(at, panned, size, board, 0, 0)).toBe(true);
    expect(fallsShort(at, panned, size, board, 0, 0.2)).toBe(false);
  });

  it('never for empty world revealed beyond the board, or no board at all', () => {
    const small = { x: 100, y: 100, w: 200, h: 200 };
    expect(fallsShort(at, { ...at, x: 500 }, size, small, 0, 0)).toBe(false);
    expect(fallsShort(at, { ...at, x: 500 }, size, null, 0, 0)).toBe(false);
  });
});

describe('redrawMidGesture', () => {
  const size = { width: 1000, height: 500 };
  const at = { x: 0, y: 0, scale: 1 };
  const board = { x: -5000, y: -5000, w: 10_000, h: 10_000 };

  it('never mid-zoom once there is an overview: in past 4×, or out onto board the snapshot lacks', () => {
    expect(redrawMidGesture(at, { ...at, scale: 6 }, size, board, true)).toBe(false);
    expect(redrawMidGesture(at, { ...at, scale: 0.3 }, size, board, true)).toBe(false);
    // Before the overview's first drawing, as before it existed.
    expect(redrawMidGesture(at, { ...at, scale: 6 }, size, board, false)).toBe(true);
    expect(redrawMidGesture(at, { ...at, scale: 0.3 }, size, board, false)).toBe(true);
  });

  it('a pan onto much board the snapshot lacks is drawn afresh, overview or not', () => {
    expect(redrawMidGesture(at, { ...at, x: -600 }, size, board, true)).toBe(true);
    expect(redrawMidGesture(at, { ...at, x: -100 }, size, board, true)).toBe(false);
  });
});
