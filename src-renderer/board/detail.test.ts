// Unit tests of the level of detail and the grid's fade.
import { describe, expect, it } from 'vitest';
import { decimate, detailScale, gridAlpha, isFine, isTiny, isUnreadable } from './detail';

describe('detailScale', () => {
  it('rounds down to a power of two and never above 1', () => {
    expect(detailScale(1)).toBe(1);
    expect(detailScale(3)).toBe(1);
    expect(detailScale(0.5)).toBe(0.5);
    expect(detailScale(0.7)).toBe(0.5);
    expect(detailScale(0.1)).toBe(0.0625);
    expect(detailScale(0)).toBe(1);
    expect(detailScale(Number.NaN)).toBe(1);
  });
});

describe('what is simplified', () => {
  it('draws a box for what spans under 2 screen px, whatever its sign', () => {
    expect(isTiny(10, 10, 0.125)).toBe(true);
    expect(isTiny(-30, 2, 0.125)).toBe(false);
    expect(isTiny(100, 100, 1)).toBe(false);
  });

  it('draws bars for text under 5 screen px, curves and shadows from half size', () => {
    expect(isUnreadable(20, 0.125)).toBe(true);
    expect(isUnreadable(20, 0.25)).toBe(false);
    expect(isFine(0.25)).toBe(false);
    expect(isFine(0.5)).toBe(true);
  });
});

describe('decimate', () => {
  it('keeps the ends and the points at least minDist from the last kept', () => {
    const pts = [0, 0, 1, 0, 2, 0, 5, 0, 6, 0, 10, 0];
    expect(decimate(pts, 3)).toEqual([0, 0, 5, 0, 10, 0]);
  });

  it('leaves short lines and a zero distance alone', () => {
    expect(decimate([0, 0, 1, 1], 10)).toEqual([0, 0, 1, 1]);
    const pts = [0, 0, 1, 0, 2, 0];
    expect(decimate(pts, 0)).toEqual(pts);
  });
});

describe('gridAlpha', () => {
  it('is whole at 12 px spacing and up, gone at 6 px and below, linear between', () => {
    expect(gridAlpha(1)).toBe(1);
    expect(gridAlpha(0.5)).toBe(1);
    expect(gridAlpha(0.375)).toBeCloseTo(0.5);
    expect(gridAlpha(0.25)).toBe(0);
    expect(gridAlpha(0.1)).toBe(0);
  });
});
