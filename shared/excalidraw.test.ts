// Excalidraw interchange: what an export holds, every kind both tools have through a round trip (rotation about
// the other tool's centre included), and hostile scenes. A scene as Excalidraw saves it: files/convert.test.ts.
import { describe, expect, it } from 'vitest';
import type { BoardObject, NewObject } from './board';
import { MAX_POINTS, MAX_TEXT_BYTES, validateObjectFields } from './board';
import type { ExcalidrawImport } from './excalidraw';
import { fractionalIndex, fromExcalidraw, toExcalidraw } from './excalidraw';
import { newRect } from './testing/rect';

function imported(text: string): ExcalidrawImport {
  const r = fromExcalidraw(text);
  if ('refused' in r) throw new Error(r.refused);
  return r;
}

const asBoard = (objects: readonly NewObject[]): BoardObject[] =>
  objects.map((o, i) => ({ ...o, id: i + 1, z: i + 1, lockedBy: null, pinned: 0 }));

/** Where an object's points (or its box's origin) are on the board, its rotation about x, y applied. */
function worldPoints(o: NewObject): [number, number][] {
  const a = (o.rotation / 10) * (Math.PI / 180);
  const local: [number, number][] =
    o.points.length > 0
      ? Array.from({ length: o.points.length / 2 }, (_, i) => [
          o.points[2 * i] ?? 0,
          o.points[2 * i + 1] ?? 0,
        ])
      : [[0, 0]];
  return local.map(([x, y]) => [
    o.x + x * Math.cos(a) - y * Math.sin(a),
    o.y + x * Math.sin(a) + y * Math.cos(a),
  ]);
}

const BOARD: BoardObject[] = asBoard([
  newRect({ x: 10, y: 20, w: 200, h: 100, fill: 0xa5d8ff }),
  newRect({ kind: 'ellipse', x: 400, y: -50, w: 160, h: 80, rotation: 450, stroke: 0xe03131 }),
  newRect({ kind: 'line', x: 0, y: 300, w: 300, h: 40, fill: null, points: [0, 40, 300, 0] }),
  newRect({
    kind: 'arrow',
    x: 50,
    y: 400,
    w: 80,
    h: 60,
    fill: null,
    points: [80, 60, 0, 0],
    rotation: 300,
  }),
  newRect({
    kind: 'stroke',
    x: 600,
    y: 600,
    w: 60,
    h: 30,
    fill: null,
    points: [0, 0, 10, 5, 25, 20, 40, 30, 60, 10],
  }),
  newRect({
    kind: 'text',
    x: 700,
    y: 10,
    w: 240,
    h: 32,
    fill: null,
    stroke: 0x2f9e44,
    text: 'Hello <b> & "you"',
  }),
  newRect({
    kind: 'note',
    x: -300,
    y: -200,
    w: 200,
    h: 160,
    fill: 0xffec99,
    stroke: null,
    text: 'Ship\nit',
    rotation: 3500,
  }),
]);

describe('Excalidraw interchange', () => {
  it('writes what Excalidraw reads: its envelope, stable ids and order, a note as a rectangle holding its text', () => {
    const scene = JSON.parse(toExcalidraw(BOARD)) as {
      type: string;
      version: number;
      elements: Record<string, unknown>[];
      files: object;
    };
    expect([scene.type, scene.version, scene.files]).toEqual(['excalidraw', 2, {}]);
    const els = scene.elements;
    expect(els.map((e) => e.type)).toEqual([
      'rectangle',
      'ellipse',
      'line',
      'arrow',
      'freedraw',
      'text',
      'rectangle',
      'text',
    ]);
    const indices = els.map((e) => e.index as string);
    expect([...indices].sort()).toEqual(indices);
    expect(new Set(els.map((e) => e.id)).size).toBe(els.length);
    const [box, inner] = els.slice(-2);
    expect(box?.boundElements).toEqual([{ type: 'text', id: inner?.id }]);
    expect(inner?.containerId).toBe(box?.id);
    expect(toExcalidraw(BOARD)).toBe(toExcalidraw(BOARD));
    for (const e of els)
      for (const key of ['x', 'y', 'width', 'height', 'angle', 'seed', 'strokeWidth'])
        expect(Number.isFinite(e[key]), `${String(e.id)}.${key}`).toBe(true);
  });

  it('round-trips every kind, rotated ones about the same centre', () => {
    const back = imported(toExcalidraw(BOARD)).objects;
    expect(back).toHaveLength(BOARD.length);
    BOARD.forEach((o, i) => {
      const b = back[i];
      const msg = `${o.kind} #${o.id}`;
      if (b === undefined) throw new Error(`${msg} missing`);
      const linear = o.points.length > 0;
      expect({ ...b, x: 0, y: 0, points: [] }, msg).toEqual({
        kind: o.kind,
        x: 0,
        y: 0,
        w: o.w,
        h: o.h,
        rotation: o.rotation,
        stroke: o.stroke,
        fill: linear ? null : o.fill,
        strokeWidth: o.strokeWidth,
        text: o.text,
        points: [],
        blob: '',
      });
      // The same place on the board, to the rounding of a unit: each point of a line, a box's corner.
      const there = worldPoints(b);
      worldPoints(o).forEach(([x, y], k) => {
        expect(Math.abs((there[k]?.[0] ?? NaN) - x), msg).toBeLessThanOrEqual(1.5);
        expect(Math.abs((there[k]?.[1] ?? NaN) - y), msg).toBeLessThanOrEqual(1.5);
      });
    });
  });

  it('orders fractional indices as Excalidraw does, past one and two digits', () => {
    const keys = [0, 1, 61, 62, 63, 62 + 3843, 62 + 3844, 62 + 3845, 100_000].map(fractionalIndex);
    expect(keys.slice(0, 4)).toEqual(['a0', 'a1', 'az', 'b00']);
    expect([...keys].sort()).toEqual(keys);
  });

  it('refuses what is no Excalidraw scene, and skips or bounds what no board object can hold', () => {
    expect(fromExcalidraw('{')).toEqual({ refused: 'not an Excalidraw file (not JSON)' });
    expect(fromExcalidraw('{"type":"ghostboard-board"}')).toEqual({
      refused: 'not an Excalidraw file',
    });
    expect(fromExcalidraw('{"type":"excalidraw","version":3,"elements":[]}')).toMatchObject({
      refused: expect.stringMatching(/newer version/) as string,
    });
    const el = (more: Record<string, unknown>) => ({
      type: 'rectangle',
      x: 0,
      y: 0,
      width: 10,
      height: 10,
      ...more,
    });
    const scene = (elements: unknown[]) =>
      JSON.stringify({ type: 'excalidraw', version: 2, elements });
    const longText = 'ü'.repeat(MAX_TEXT_BYTES);
    const manyPoints = Array.from({ length: 5000 }, (_, i) => [i % 100, Math.floor(i / 100)]);
    const r = imported(
      scene([
        null,
        7,
        el({ x: 'far' }),
        el({ x: 1e12 }),
        el({ width: 5e9 }),
        el({ x: Number.MAX_VALUE }),
        el({
          type: 'line',
          points: [
            [0, 0],
            [1e6, 0],
          ],
        }),
        el({ type: 'line', points: 'none' }),
        el({ type: 'freedraw', points: manyPoints }),
        el({ type: 'text', text: longText }),
        el({ type: 'frame' }),
        el({ strokeColor: 'rebeccapurple', strokeWidth: 1000, angle: -Math.PI / 2 }),
      ]),
    );
    expect(r.objects.map((o) => o.kind)).toEqual(['stroke', 'text', 'rect']);
    const [pen, text, rect] = r.objects;
    expect((pen?.points.length ?? 0) / 2).toBe(MAX_POINTS);
    expect(pen?.points.slice(-2)).toEqual([99, 49]);
    expect(new TextEncoder().encode(text?.text ?? '').length).toBeLessThanOrEqual(MAX_TEXT_BYTES);
    expect(rect).toMatchObject({ stroke: 0x1e1e1e, strokeWidth: 64, rotation: 2700 });
    expect(Object.fromEntries(r.skipped)).toEqual({
      'elements without a position': 1,
      'elements off the board': 2,
      'elements too large': 1,
      'lines too long for one object': 1,
      'lines with bad points': 1,
      'frame elements': 1,
      'texts cut short': 1,
      'malformed elements': 2,
    });
    for (const o of r.objects) expect(validateObjectFields(o)).toBeUndefined();
  });
});
