// Unit tests of the board maths: camera, bounds and culling, stroke simplification, text splices, shapes.
import { describe, expect, it } from 'vitest';
import type { BoardObject } from '../../shared/board';
import { MAX_POINTS, validateObjectFields } from '../../shared/board';
import { cullToView, objectBounds } from './bounds';
import { fitCamera, toScreen, toWorld, visibleWorld, zoomAt } from './camera';
import { dragShape, placedShape, toRotationSteps, transformPatch } from './shapes';
import { rdp, strokeGeometry } from './simplify';
import { applySplice, diffSplice } from './text-splice';

const STYLE = { stroke: 0x1e1e1e, fill: null, strokeWidth: 2 };

function obj(id: number, x: number, y: number, more: Partial<BoardObject> = {}): BoardObject {
  return {
    id,
    kind: 'rect',
    x,
    y,
    w: 100,
    h: 50,
    rotation: 0,
    stroke: 0,
    fill: null,
    strokeWidth: 2,
    text: '',
    points: [],
    blob: '',
    z: id,
    lockedBy: null,
    pinned: 0,
    ...more,
  };
}

describe('camera', () => {
  it('round-trips screen and world points', () => {
    const c = { x: 30, y: -20, scale: 2.5 };
    const w = toWorld(c, 100, 200);
    expect(toScreen(c, w.x, w.y)).toEqual({ x: 100, y: 200 });
  });

  it('keeps the point under the cursor fixed when zooming', () => {
    const c = { x: 10, y: 10, scale: 1 };
    const before = toWorld(c, 400, 300);
    const z = zoomAt(c, 3, 400, 300);
    const after = toWorld(z, 400, 300);
    expect(after.x).toBeCloseTo(before.x);
    expect(after.y).toBeCloseTo(before.y);
    expect(zoomAt(c, 1000, 0, 0).scale).toBe(8);
  });

  it('reports the visible world as integers', () => {
    expect(visibleWorld({ x: -100, y: -50, scale: 2 }, { width: 801, height: 600 })).toEqual({
      x: 50,
      y: 25,
      w: 401,
      h: 300,
    });
  });

  it('fits bounds in the view, never zooming in past 100 %', () => {
    const c = fitCamera({ x: 0, y: 0, w: 2000, h: 1000 }, { width: 1128, height: 628 }, 64);
    expect(c.scale).toBeCloseTo(0.5);
    expect(toScreen(c, 1000, 500)).toEqual({ x: 564, y: 314 });
    expect(fitCamera({ x: 0, y: 0, w: 10, h: 10 }, { width: 800, height: 600 }).scale).toBe(1);
  });
});

describe('bounds and culling', () => {
  it('covers points left of the origin and the stroke width', () => {
    const b = objectBounds(
      obj(1, 0, 0, { w: 10, h: 10, points: [-20, 0, 10, 10], strokeWidth: 4 }),
    );
    expect(b).toEqual({ x: -24, y: -4, w: 38, h: 18 });
  });

  it('skips objects outside the view and sorts by z', () => {
    const objects = [obj(3, 0, 0, { z: 9 }), obj(1, 5000, 5000), obj(2, 50, 50, { z: 1 })];
    const seen = cullToView(objects, { x: 0, y: 0, w: 800, h: 600 }, 100);
    expect(seen.map((o) => o.id)).toEqual([2, 3]);
  });

  it('keeps a rotated object that may swing into view', () => {
    const o = obj(1, 850, 100, { w: 200, h: 10, rotation: 1800 });
    expect(cullToView([o], { x: 0, y: 0, w: 800, h: 600 }, 0)).toHaveLength(1);
  });
});

describe('stroke simplification', () => {
  it('drops collinear points', () => {
    const line = Array.from({ length: 50 }, (_, i) => ({ x: i, y: 2 * i }));
    expect(rdp(line, 0.5)).toEqual([line[0], line[49]]);
  });

  it('fits a long wiggly stroke into MAX_POINTS valid, relative points', () => {
    const world = Array.from({ length: 5000 }, (_, i) => ({
      x: 1000 + i * 3,
      y: -500 + Math.sin(i / 7) * 80 + (i % 3),
    }));
    const g = strokeGeometry(world);
    expect(g.points.length / 2).toBeLessThanOrEqual(MAX_POINTS);
    expect(g.points.length / 2).toBeGreaterThan(20);
    expect(Math.min(...g.points)).toBe(0);
    expect(validateObjectFields({ kind: 'stroke', ...g })).toBeUndefined();
  });

  it('clamps points to the wire range for huge strokes', () => {
    const g = strokeGeometry([
      { x: 0, y: 0 },
      { x: 100_000, y: 10 },
    ]);
    expect(Math.max(...g.points)).toBe(32_767);
  });

  it('handles a single click as a one-point stroke', () => {
    expect(strokeGeometry([{ x: 5.4, y: 6.6 }]).points).toEqual([0, 0]);
  });
});

describe('text splices', () => {
  const cases: [string, string][] = [
    ['', 'a'],
    ['hello', 'hello!'],
    ['hello', 'jello'],
    ['hello world', 'hello'],
    ['abc', 'aXbc'],
    ['aaaa', 'aaa'],
    ['a😀b', 'a😁b'],
    ['😀', ''],
    ['x', 'x\ny'],
  ];
  it.each(cases)('turns %j into %j', (before, after) => {
    const s = diffSplice(before, after);
    expect(s).not.toBeNull();
    if (s) expect(applySplice(before, s)).toBe(after);
  });

  it('is the smallest splice', () => {
    expect(diffSplice('hello world', 'hello big world')).toEqual({
      at: 6,
      remove: 0,
      insert: 'big ',
    });
    expect(diffSplice('abcdef', 'abef')).toEqual({ at: 2, remove: 2, insert: '' });
    expect(diffSplice('same', 'same')).toBeNull();
  });

  it('never splits a surrogate pair', () => {
    expect(diffSplice('a😀b', 'a😁b')).toEqual({ at: 1, remove: 2, insert: '😁' });
  });
});

describe('shapes', () => {
  it('draws a box from any drag direction', () => {
    const o = dragShape('rect', { x: 100, y: 100 }, { x: 40.4, y: 150 }, STYLE);
    expect(o).toMatchObject({ kind: 'rect', x: 40, y: 100, w: 60, h: 50 });
  });

  it('draws a line with points relative to its top-left', () => {
    const o = dragShape('arrow', { x: 100, y: 100 }, { x: 40, y: 150 }, STYLE);
    expect(o).toMatchObject({ kind: 'arrow', x: 40, y: 100, points: [60, 0, 0, 50], fill: null });
    if (o) expect(validateObjectFields(o)).toBeUndefined();
  });

  it('places notes and text', () => {
    expect(placedShape('note', { x: 1.2, y: 2 }, STYLE)).toMatchObject({
      kind: 'note',
      x: 1,
      fill: 0xfff3bf,
    });
    expect(placedShape('text', { x: 0, y: 0 }, STYLE)).toMatchObject({ kind: 'text', fill: null });
  });

  it('normalises rotation to tenths of a degree in 0..3599', () => {
    expect(toRotationSteps(-90)).toBe(2700);
    expect(toRotationSteps(360)).toBe(0);
    expect(toRotationSteps(12.34)).toBe(123);
  });

  it('turns a transform into w/h and scaled points', () => {
    const line = obj(1, 0, 0, { kind: 'line', w: 100, h: 50, points: [0, 0, 100, 50] });
    const p = transformPatch(line, { x: 5, y: 6, scaleX: 2, scaleY: 0.5, rotation: 45 });
    expect(p).toEqual({ x: 5, y: 6, w: 200, h: 25, rotation: 450, points: [0, 0, 200, 25] });
  });
});
