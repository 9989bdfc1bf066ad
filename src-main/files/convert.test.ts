// Converting boards between .ghostboard, .excalidraw and .svg: a scene as Excalidraw 0.18 saves it, a board to
// Excalidraw and back to the same objects, the golden file, an SVG showing each object with its text as text.
// `ghostboard convert` itself: test/cli-convert.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BoardObject, NewObject } from '../../shared/board';
import { validateObjectFields } from '../../shared/board';
import { fromExcalidraw } from '../../shared/excalidraw';
import { newRect } from '../../shared/testing/rect';
import { objectsByZ } from '../board';
import { boardOf, convertBoard, formatOf, readBoard, writeBoard } from './convert';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const fixture = (name: string): string => readFileSync(new URL(name, FIXTURES), 'utf8');

const OBJECTS: NewObject[] = [
  newRect({ x: -40, y: 20, w: 300, h: 200, fill: 0xd0ebff }),
  newRect({ kind: 'ellipse', x: 400, y: 20, w: 120, h: 120, rotation: 1200 }),
  newRect({ kind: 'arrow', x: 260, y: 120, w: 140, h: 0, fill: null, points: [0, 0, 140, 0] }),
  newRect({
    kind: 'note',
    x: 0,
    y: 300,
    w: 200,
    h: 160,
    fill: 0xfff3bf,
    stroke: null,
    text: 'a & b < c',
  }),
  newRect({ kind: 'text', x: 300, y: 300, w: 240, h: 32, fill: null, text: 'Release plan' }),
];

describe('board conversion', () => {
  it('knows formats by file name', () => {
    expect(['a.ghostboard', 'B.EXCALIDRAW', 'c.svg', 'd.png', 'e'].map(formatOf)).toEqual([
      'ghostboard',
      'excalidraw',
      'svg',
      undefined,
      undefined,
    ]);
  });

  it('reads a scene as Excalidraw 0.18 saves it: each shape both tools have, a note from text in a rectangle', () => {
    const r = fromExcalidraw(fixture('excalidraw-0.18.excalidraw'));
    if ('refused' in r) throw new Error(r.refused);
    expect(r.objects.map((o) => o.kind)).toEqual([
      'rect',
      'ellipse',
      'note',
      'text',
      'arrow',
      'line',
      'stroke',
    ]);
    const [rect, ellipse, note, text, arrow, line, pen] = r.objects;
    expect(rect).toMatchObject({
      x: 100,
      y: 50,
      w: 200,
      h: 120,
      rotation: 0,
      stroke: 0x1e1e1e,
      fill: 0xa5d8ff,
    });
    // Turned a quarter about its centre (480, 100): the board turns about x, y, so x, y moves.
    expect(ellipse).toMatchObject({
      w: 160,
      h: 80,
      rotation: 900,
      stroke: 0xe03131,
      fill: null,
      strokeWidth: 4,
    });
    expect([ellipse?.x, ellipse?.y]).toEqual([520, 20]);
    expect(note).toMatchObject({
      x: 100,
      y: 300,
      w: 220,
      h: 160,
      fill: 0xffec99,
      stroke: null,
      text: 'Ship on Friday',
    });
    expect(text).toMatchObject({
      x: 400,
      y: 300,
      text: 'Two lines\nof <text> & more',
      stroke: 0x2f9e44,
    });
    expect(arrow).toMatchObject({ x: 320, y: 110, points: [0, 0, 80, -40], w: 80, h: 40 });
    expect(line).toMatchObject({
      points: [0, 0, 150, 0, 300, 0],
      w: 300,
      h: 0,
      stroke: 0x1971c2,
      strokeWidth: 1,
    });
    expect(pen?.points).toEqual([0, 0, 10, 5, 25, 20, 40, 30, 60, 10]);
    expect(Object.fromEntries(r.skipped)).toEqual({ 'diamond elements': 1, 'image elements': 1 });
    for (const o of r.objects) expect(validateObjectFields(o)).toBeUndefined();
  });

  it('takes a board to Excalidraw and back to the same objects, in the same order', () => {
    const board = boardOf(OBJECTS);
    const there = convertBoard(writeBoard(board, 'ghostboard'), 'ghostboard', 'excalidraw');
    if ('refused' in there) throw new Error(there.refused);
    expect([there.objects, there.lost]).toEqual([OBJECTS.length, []]);
    const back = readBoard(there.text, 'excalidraw');
    if ('refused' in back) throw new Error(back.refused);
    // Ids and z are the board's to give: everything else comes back.
    const fields = (o: BoardObject) => ({ ...o, id: 0, z: 0 });
    expect(objectsByZ(back.state).map(fields)).toEqual(objectsByZ(board).map(fields));
  });

  it('converts the golden board file, and refuses to read an SVG or a damaged file', () => {
    const r = convertBoard(fixture('v1-canonical.ghostboard'), 'ghostboard', 'excalidraw');
    if ('refused' in r) throw new Error(r.refused);
    expect(r.objects).toBe(4);
    expect(JSON.parse(r.text)).toMatchObject({ type: 'excalidraw', version: 2 });
    expect(convertBoard('<svg/>', 'svg', 'ghostboard')).toMatchObject({ refused: /export/ });
    expect(convertBoard('{"format":"x"}', 'ghostboard', 'svg')).toMatchObject({
      refused: /not a Ghostboard/,
    });
  });

  it("takes images along: their bytes in the SVG, in the Excalidraw scene's files and in a board file", () => {
    const board = fixture('v2-image.ghostboard');
    const hash = 'e2e389e2eb53aa316e7ea20238c453e2b756b7eb688afabdf89e1f5817f070b7';
    const svg = convertBoard(board, 'ghostboard', 'svg');
    if ('refused' in svg) throw new Error(svg.refused);
    expect(svg.text.match(/<image [^>]*href="data:image\/png;base64,/g)).toHaveLength(2);
    const scene = convertBoard(board, 'ghostboard', 'excalidraw');
    if ('refused' in scene) throw new Error(scene.refused);
    const parsed = JSON.parse(scene.text) as {
      elements: { type: string; fileId?: string }[];
      files: Record<string, { mimeType: string; dataURL: string }>;
    };
    expect(parsed.elements.filter((e) => e.type === 'image').map((e) => e.fileId)).toEqual([
      hash,
      hash,
    ]);
    expect(parsed.files[hash]?.mimeType).toBe('image/png');
    expect(parsed.files[hash]?.dataURL.startsWith('data:image/png;base64,')).toBe(true);
    const copy = convertBoard(board, 'ghostboard', 'ghostboard');
    if ('refused' in copy) throw new Error(copy.refused);
    expect(copy.text).toBe(board);
  });

  it('draws an SVG of every object, its text as escaped text, within its view box', () => {
    const svg = writeBoard(boardOf(OBJECTS), 'svg');
    expect(svg.startsWith('<?xml')).toBe(true);
    expect(svg.match(/<g transform=/g)).toHaveLength(OBJECTS.length);
    expect(svg).toContain('>a &#38; b &#60; c</tspan>');
    expect(svg).toContain('>Release plan</tspan>');
    expect(svg).toContain('rotate(120)');
    const box = /viewBox="(-?\d+) (-?\d+) (\d+) (\d+)"/.exec(svg)?.slice(1).map(Number) ?? [];
    const [x, y, w, h] = box;
    // The rectangle starts at x = -40 and the note ends at y = 460: both inside, with the padding.
    expect(x).toBeLessThan(-40);
    expect(y).toBeLessThan(20);
    expect((x ?? 0) + (w ?? 0)).toBeGreaterThan(540);
    expect((y ?? 0) + (h ?? 0)).toBeGreaterThan(460);
    expect(svg.split('<text').length - 1).toBe(2);
  });
});
