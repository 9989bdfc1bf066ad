import { describe, expect, it } from 'vitest';
import type { NewObject } from '../../shared/board';
import { MAX_TEXT_BYTES, POINT_EXTENT, WORLD_EXTENT } from '../../shared/board';
import {
  clipHtml,
  clipText,
  decodeClip,
  encodeClip,
  fitText,
  MAX_CLIP_CHARS,
  MAX_CLIP_OBJECTS,
  payloadFromHtml,
} from './payload';

const note: NewObject = {
  kind: 'note',
  x: -WORLD_EXTENT,
  y: 40,
  w: 200,
  h: 120,
  rotation: 3599,
  stroke: null,
  fill: 0xffee88,
  strokeWidth: 0,
  text: 'héllo 👋 <b>"quoted"</b>\nline',
  points: [],
  blob: '',
};
const stroke: NewObject = {
  kind: 'stroke',
  x: 10,
  y: WORLD_EXTENT,
  w: 30,
  h: 30,
  rotation: 0,
  stroke: 0x1e1e1e,
  fill: null,
  strokeWidth: 64,
  text: '',
  points: [0, 0, POINT_EXTENT, -POINT_EXTENT, 5, 5],
  blob: '',
};

/** The payload of `objects` with one object's fields changed (undefined removes a field). */
function tampered(changes: Record<string, unknown>, top: Record<string, unknown> = {}): string {
  const data = JSON.parse(encodeClip([stroke, note])) as { objects: Record<string, unknown>[] };
  const o = Object.fromEntries(
    Object.entries({ ...data.objects[1], ...changes }).filter(([, v]) => v !== undefined),
  );
  return JSON.stringify({ ...data, objects: [data.objects[0], o], ...top });
}

describe('the clipboard payload', () => {
  it('round-trips objects in order, field for field, and texts as the plain fallback', () => {
    const text = encodeClip([stroke, note]);
    expect(decodeClip(text)).toEqual([stroke, note]);
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['format', 'version', 'objects']);
    expect(clipText([stroke, note, { ...note, text: '  ' }])).toBe(note.text);
  });

  it('travels inside HTML, whatever the texts hold', () => {
    const payload = encodeClip([note, stroke]);
    const html = clipHtml(payload, clipText([note]));
    expect(html).not.toContain('<b>');
    expect(html).toContain('&#60;b&#62;');
    expect(payloadFromHtml(`<html><body>${html}</body></html>`)).toBe(payload);
    expect(payloadFromHtml('<div data-ghostboard="%%%">x</div>')).toBeUndefined();
    expect(payloadFromHtml('<div data-ghostboard="/w==">x</div>')).toBeUndefined();
    expect(payloadFromHtml('<p>just text</p>')).toBeUndefined();
  });

  it('refuses hostile or damaged payloads whole, saying why', () => {
    const none = 'the clipboard holds no Ghostboard objects';
    const damaged = 'a damaged object on the clipboard';
    const cases: [string, string][] = [
      ['', none],
      ['{', none],
      ['"text"', none],
      ['[]', none],
      [JSON.stringify({ format: 'ghostboard-board', version: 1, objects: [] }), none],
      [tampered({}, { version: 2 }), 'objects from a newer Ghostboard'],
      [tampered({}, { version: '1' }), 'objects from a newer Ghostboard'],
      [tampered({}, { objects: [] }), 'no objects on the clipboard'],
      [tampered({}, { objects: {} }), 'no objects on the clipboard'],
      [
        tampered({}, { objects: Array(MAX_CLIP_OBJECTS + 1).fill(0) }),
        `at most ${MAX_CLIP_OBJECTS} objects can be pasted at once`,
      ],
      [tampered({}, { objects: [null] }), damaged],
      [tampered({}, { objects: [[1, 2]] }), damaged],
      [tampered({ id: 5 }), damaged],
      [tampered({ z: 5 }), damaged],
      [tampered({ lockedBy: 2 }), damaged],
      [tampered({ pinned: 1 }), damaged],
      [tampered({ text: undefined }), damaged],
      [tampered({ ['__proto__']: {} }), damaged],
      [tampered({ kind: 'hexagon' }), `${damaged}: unknown kind hexagon`],
      [tampered({ x: WORLD_EXTENT + 1 }), `${damaged}: position outside the board`],
      [tampered({ y: '4' }), `${damaged}: position outside the board`],
      [tampered({ w: -1 }), `${damaged}: size out of range`],
      [tampered({ rotation: 0.5 }), `${damaged}: rotation out of range`],
      [tampered({ fill: '#fff' }), `${damaged}: bad colour`],
      [tampered({ strokeWidth: 65 }), `${damaged}: stroke width out of range`],
      [tampered({ text: 'é'.repeat(MAX_TEXT_BYTES) }), `${damaged}: text too long`],
      [tampered({ text: 7 }), `${damaged}: text too long`],
      [tampered({ points: [1, 2, 3] }), `${damaged}: bad points`],
      [tampered({ points: [0, POINT_EXTENT + 1] }), `${damaged}: point out of range`],
      [tampered({ points: 'none' }), `${damaged}: bad points`],
      ['x'.repeat(MAX_CLIP_CHARS + 1), 'too much on the clipboard'],
    ];
    for (const [text, why] of cases)
      expect(decodeClip(text), text.slice(0, 200)).toEqual({ refused: why });
  });

  it('the parsed JSON object does not leak into what a paste creates', () => {
    const got = decodeClip(encodeClip([stroke]));
    if ('refused' in got) throw new Error(got.refused);
    const first = got[0];
    expect(first?.points).toEqual(stroke.points);
    expect(first?.points).not.toBe(stroke.points);
  });

  it('cuts pasted text to what one object holds, never inside a character', () => {
    expect(fitText('short')).toEqual({ text: 'short', cut: false });
    const long = fitText('a' + '👋'.repeat(MAX_TEXT_BYTES));
    expect(long.cut).toBe(true);
    expect(new TextEncoder().encode(long.text).length).toBe(1 + 4 * 249);
    expect(long.text.endsWith('👋')).toBe(true);
  });
});
