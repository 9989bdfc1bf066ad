// Selection geometry: tight boxes of rotated objects and strokes, the box around many, containment.
import { describe, expect, it } from 'vitest';
import type { BoardObject } from '../../shared/board';
import { contains, rectBetween, selectionBounds, tightBounds } from './selection';

function obj(more: Partial<BoardObject>): BoardObject {
  return {
    id: 1,
    kind: 'rect',
    x: 0,
    y: 0,
    w: 100,
    h: 50,
    rotation: 0,
    stroke: 0,
    fill: null,
    strokeWidth: 0,
    text: '',
    points: [],
    blob: '',
    z: 1,
    lockedBy: null,
    pinned: 0,
    ...more,
  };
}

const rounded = (r: { x: number; y: number; w: number; h: number }) => ({
  x: Math.round(r.x),
  y: Math.round(r.y),
  w: Math.round(r.w),
  h: Math.round(r.h),
});

describe('selection geometry', () => {
  it('a box is its own bounds, grown by half its stroke', () => {
    expect(tightBounds(obj({ x: 10, y: 20, strokeWidth: 4 }))).toEqual({
      x: 8,
      y: 18,
      w: 104,
      h: 54,
    });
  });

  it('rotation (tenths of a degree) turns the box about (x, y)', () => {
    expect(rounded(tightBounds(obj({ rotation: 900 })))).toEqual({ x: -50, y: 0, w: 50, h: 100 });
    expect(rounded(tightBounds(obj({ w: 100, h: 0, rotation: 450 })))).toEqual({
      x: 0,
      y: 0,
      w: 71,
      h: 71,
    });
  });

  it("a stroke's or line's points count, negative ones included", () => {
    const line = obj({ kind: 'line', w: 0, h: 0, points: [0, 0, -30, 40] });
    expect(tightBounds(line)).toEqual({ x: -30, y: 0, w: 30, h: 40 });
  });

  it('the box around many objects, or null for none', () => {
    expect(selectionBounds([])).toBeNull();
    expect(selectionBounds([obj({}), obj({ x: 200, y: -10 })])).toEqual({
      x: 0,
      y: -10,
      w: 300,
      h: 60,
    });
  });

  it('containment counts touching edges as inside; the rectangle between two corners either way', () => {
    const r = rectBetween({ x: 100, y: 50 }, { x: 0, y: 0 });
    expect(r).toEqual({ x: 0, y: 0, w: 100, h: 50 });
    expect(contains(r, { x: 0, y: 0, w: 100, h: 50 })).toBe(true);
    expect(contains(r, { x: 1, y: 0, w: 100, h: 50 })).toBe(false);
  });
});
