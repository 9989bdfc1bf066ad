import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BoardObject } from '../../shared/board';
import { OBJECT_FIELDS, WORLD_EXTENT } from '../../shared/board';
import type { BoardState } from '../board';
import { apply, emptyBoard, hashBoard, objectsByZ } from '../board';
import { decodeBoardFile, decodeBoardFileContent, encodeBoardFile, MAX_Z } from './board-codec';

/** Written by the code before this codec: as a session saved it, and as it saved it again after a load. */
const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
const AS_SAVED = fixture('v1-small.ghostboard');
const RESAVED = fixture('v1-canonical.ghostboard');
/**
 * Version 2: the same board as it writes it, with the arrow locked in place; and a board with two objects showing
 * one image.
 */
const V2 = fixture('v2-canonical.ghostboard');
const V2_IMAGE = fixture('v2-image.ghostboard');
const PNG_HASH = 'e2e389e2eb53aa316e7ea20238c453e2b756b7eb688afabdf89e1f5817f070b7';

function decoded(text: string): BoardState {
  const s = decodeBoardFile(text);
  if ('refused' in s) throw new Error(s.refused);
  return s;
}

const base = {
  w: 100,
  h: 50,
  rotation: 0,
  stroke: 0x222222,
  fill: null,
  strokeWidth: 2,
  text: '',
  points: [],
  lockedBy: null,
  pinned: 0,
  blob: '',
};

describe('the .ghostboard file (version 1, and 2 with locks and images)', () => {
  it('decodes the fixture value for value', () => {
    const s = decoded(AS_SAVED);
    expect([s.nextId, s.topZ, hashBoard(s)]).toEqual([6, 5, '3782590209776ad4']);
    const expected: BoardObject[] = [
      {
        ...base,
        id: 2,
        kind: 'note',
        x: -WORLD_EXTENT,
        y: WORLD_EXTENT,
        w: 0,
        h: 1_000_000,
        rotation: 3599,
        stroke: null,
        fill: 0xffee88,
        strokeWidth: 64,
        text: 'héllo 👋 "quoted"\nline',
        z: -1,
      },
      { ...base, id: 1, kind: 'rect', x: 11, y: -20, text: 'moved', z: 1 },
      { ...base, id: 4, kind: 'arrow', x: 10, y: -20, points: [0, 0, 40, 40], z: 4 },
      {
        ...base,
        id: 3,
        kind: 'stroke',
        x: 12345,
        y: 678,
        points: [0, 0, 5, -5, 32767, -32767],
        z: 5,
      },
    ];
    expect(objectsByZ(s)).toEqual(expected);
    // Every field in table order (the key order a re-save writes).
    for (const o of objectsByZ(s)) expect(Object.keys(o)).toEqual(OBJECT_FIELDS.map((f) => f.name));
  });

  it('re-encodes what the code before it wrote as version 2, nothing pinned', () => {
    const unpinned = V2.replace('"pinned":1', '"pinned":0');
    expect(encodeBoardFile(decoded(AS_SAVED))).toBe(unpinned);
    expect(encodeBoardFile(decoded(RESAVED))).toBe(unpinned);
    // A version 1 file has no pinned field: one there is not read.
    const v1 = RESAVED.replace('"lockedBy":null', '"lockedBy":null,"pinned":1');
    expect([...decoded(v1).objects.values()].map((o) => o.pinned)).toEqual([0, 0, 0, 0]);
  });

  it('version 2 keeps an object locked in place, byte for byte', () => {
    const s = decoded(V2);
    expect(objectsByZ(s).map((o) => [o.id, o.pinned])).toEqual([
      [2, 0],
      [1, 0],
      [4, 1],
      [3, 0],
    ]);
    expect(encodeBoardFile(s)).toBe(V2);
    const o = (JSON.parse(V2) as { objects: Record<string, unknown>[] }).objects[2];
    const file = (changes: Record<string, unknown>): string =>
      JSON.stringify({ format: 'ghostboard-board', version: 2, objects: [{ ...o, ...changes }] });
    expect(decodeBoardFile(file({ pinned: 2 }))).toEqual({ refused: 'bad pinned flag' });
    expect(decodeBoardFile(file({ pinned: undefined }))).toEqual({
      refused: 'bad number in object',
    });
  });

  it('a version 2 board without images or locks hashes as its version 1 did; its image list is there, empty', () => {
    const unpinned = V2.replace('"pinned":1', '"pinned":0');
    expect(hashBoard(decoded(unpinned))).toBe(hashBoard(decoded(RESAVED)));
    expect(JSON.parse(V2)).toMatchObject({ version: 2, blobs: [] });
  });

  it('keeps images: each blob once, checked against its hash, re-encoded byte for byte', () => {
    const c = decodeBoardFileContent(V2_IMAGE);
    if ('refused' in c) throw new Error(c.refused);
    expect(objectsByZ(c.state).map((o) => [o.kind, o.blob])).toEqual([
      ['image', PNG_HASH],
      ['rect', ''],
      ['image', PNG_HASH],
    ]);
    expect(c.blobs.map((b) => [b.hash, b.type, b.bytes.length])).toEqual([
      [PNG_HASH, 'image/png', 74],
    ]);
    const blob = c.blobs[0];
    expect(encodeBoardFile(c.state, (h) => (h === blob?.hash ? blob : undefined))).toBe(V2_IMAGE);
    // Without the bytes the image objects are still saved (they show a placeholder), with no blob.
    expect(JSON.parse(encodeBoardFile(c.state))).toMatchObject({ blobs: [] });
  });

  it('refuses a file whose images are damaged or hostile', () => {
    const good = JSON.parse(V2_IMAGE) as { blobs: Record<string, unknown>[] };
    const withBlob = (b: Record<string, unknown> | string): string =>
      JSON.stringify({ ...good, blobs: typeof b === 'string' ? b : [{ ...good.blobs[0], ...b }] });
    const cases: [string, string][] = [
      [withBlob('none'), 'bad image list'],
      [withBlob({ hash: 'ab' }), 'bad image hash'],
      [withBlob({ type: 'text/html' }), 'bad image type'],
      [withBlob({ data: 'not base64!' }), 'bad image data'],
      [withBlob({ data: 'AAAA' }), 'image bytes do not match their hash'],
      [withBlob({ data: 'A'.repeat(4 * 1024 * 1024) }), 'image too large'],
    ];
    for (const [text, why] of cases)
      expect(decodeBoardFileContent(text), why).toEqual({ refused: why });
  });

  it('keeps the counters: the next create after a load takes the saved nextId', () => {
    const s = decoded(RESAVED);
    const r = apply(s, { type: 'create', fields: { ...base, kind: 'rect', x: 0, y: 0 } });
    expect(
      r.ok && r.effects[0]?.type === 'upsert' ? [r.effects[0].object.id, r.effects[0].object.z] : r,
    ).toEqual([6, 6]);
  });

  it('saves no lock, and loads none', () => {
    const s = emptyBoard();
    apply(s, { type: 'create', fields: { ...base, kind: 'rect', x: 0, y: 0 } });
    apply(s, { type: 'grab', id: 1, peer: 5 });
    const text = encodeBoardFile(s);
    expect(text).toContain('"lockedBy":null');
    expect(decoded(text.replace('"lockedBy":null', '"lockedBy":5')).objects.get(1)?.lockedBy).toBe(
      null,
    );
  });

  it('refuses a damaged or hostile file whole, saying why', () => {
    const o = (JSON.parse(RESAVED) as { objects: Record<string, unknown>[] }).objects[1];
    const file = (changes: Record<string, unknown>, top: Record<string, unknown> = {}): string =>
      JSON.stringify({
        format: 'ghostboard-board',
        version: 1,
        nextId: 6,
        objects: [{ ...o, ...changes }],
        ...top,
      });
    const cases: [string, string][] = [
      ['{', 'board file is not valid JSON'],
      [file({}, { version: 3 }), 'not a Ghostboard board file (or a newer version)'],
      [file({}, { objects: {} }), 'bad object list'],
      [file({ x: 1.5 }), 'bad number in object'],
      [file({ z: '1' }), 'bad number in object'],
      [file({ kind: 'hexagon', x: 'x' }), 'bad number in object'],
      [file({ kind: 'hexagon' }), 'bad kind'],
      [file({ text: 5 }), 'bad text or points'],
      [file({ points: 'none' }), 'bad text or points'],
      [file({ fill: '#fff' }), 'bad colour'],
      [file({ id: 0 }), 'object id out of range'],
      [file({ z: MAX_Z + 1 }), 'stacking order (z) out of range'],
      [file({ x: WORLD_EXTENT + 1 }), 'position outside the board'],
      [file({ points: [1, 2, 3] }), 'bad points'],
      [
        JSON.stringify({ format: 'ghostboard-board', version: 1, objects: [o, o] }),
        'duplicate object id 1',
      ],
    ];
    for (const [text, why] of cases) expect(decodeBoardFile(text), text).toEqual({ refused: why });
  });
});
