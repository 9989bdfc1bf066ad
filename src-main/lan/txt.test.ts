// The session TXT record: round trip, bounds on names, and malformed records refused (never thrown).
import { describe, expect, it } from 'vitest';
import { Rng } from '../net/rng';
import { type Advert, boundName, decodeTxt, encodeTxt, MAX_NAME_CHARS } from './txt';

const enc = new TextEncoder();
const strings = (...s: string[]): Uint8Array[] => s.map((x) => enc.encode(x));
/** As bonjour-service sends a record: one `key=value` string per key. */
const wire = (txt: Record<string, string>): Uint8Array[] =>
  strings(...Object.entries(txt).map(([k, v]) => `${k}=${v}`));
const ad: Advert = { name: 'Ana’s board', version: 4, id: '0123456789abcdef', users: 3 };

describe('session TXT record', () => {
  it('round-trips name, version, id and users', () => {
    expect(decodeTxt(wire(encodeTxt(ad)))).toEqual({ ok: true, advert: ad });
    const noUsers = { ...ad, users: null };
    expect(decodeTxt(wire(encodeTxt(noUsers)))).toEqual({ ok: true, advert: noUsers });
  });

  it('carries exactly its documented keys: nothing else can leak through it', () => {
    expect(Object.keys(encodeTxt(ad)).sort()).toEqual(['id', 'n', 'txtvers', 'u', 'v']);
  });

  it('bounds names: control characters gone, 64 characters, 200 UTF-8 bytes, never empty', () => {
    expect(boundName('  a\u0000b\nc\u2028d  ')).toBe('a b c d');
    expect(boundName('x'.repeat(500))).toHaveLength(MAX_NAME_CHARS);
    const emoji = boundName('😀'.repeat(64));
    expect(new TextEncoder().encode(emoji).length).toBeLessThanOrEqual(200);
    expect(emoji.replace(/😀/gu, '')).toBe(''); // cut on a code point, never inside one
    expect(boundName(' \t ')).toBe('Ghostboard');
    const long = decodeTxt(wire({ ...encodeTxt(ad), n: 'y'.repeat(240) }));
    expect(long.ok && long.advert.name).toBe('y'.repeat(MAX_NAME_CHARS));
  });

  it('reads keys case-insensitively, keeps the first of a repeated key, ignores unknown ones', () => {
    const r = decodeTxt(
      strings('TXTVERS=1', 'V=4', 'id=0123456789abcdef', 'n=first', 'n=second', 'future=x', 'flag'),
    );
    expect(r).toEqual({
      ok: true,
      advert: { name: 'first', version: 4, id: '0123456789abcdef', users: null },
    });
  });

  it('keeps "=" inside a value', () => {
    const r = decodeTxt(wire({ ...encodeTxt(ad), n: 'a=b' }));
    expect(r.ok && r.advert.name).toBe('a=b');
  });

  it('refuses malformed records with a reason', () => {
    const base = encodeTxt(ad);
    const without = (k: string): Record<string, string> =>
      Object.fromEntries(Object.entries(base).filter(([key]) => key !== k));
    expect(decodeTxt(wire(without('txtvers')))).toEqual({ ok: false, error: 'wrong-txtvers' });
    expect(decodeTxt(wire({ ...base, txtvers: '2' }))).toEqual({
      ok: false,
      error: 'wrong-txtvers',
    });
    expect(decodeTxt(wire({ ...base, v: '-1' }))).toEqual({ ok: false, error: 'bad-version' });
    expect(decodeTxt(wire({ ...base, v: '99999999' }))).toEqual({
      ok: false,
      error: 'bad-version',
    });
    expect(decodeTxt(wire({ ...base, v: '4.5' }))).toEqual({ ok: false, error: 'bad-version' });
    expect(decodeTxt(wire({ ...base, id: 'ABCDEF0123456789' }))).toEqual({
      ok: false,
      error: 'bad-id',
    });
    expect(decodeTxt(wire(without('id')))).toEqual({ ok: false, error: 'bad-id' });
    expect(decodeTxt(wire({ ...base, u: 'many' }))).toEqual({ ok: false, error: 'bad-users' });
    expect(decodeTxt([...wire(base), new Uint8Array([0x6e, 0x3d, 0xff, 0xfe])])).toEqual({
      ok: false,
      error: 'not-utf8',
    });
    expect(decodeTxt([...wire(base), 'n=x'])).toEqual({ ok: false, error: 'not-bytes' });
    expect(decodeTxt(strings(...Array.from({ length: 17 }, (_, i) => `k${i}=1`)))).toEqual({
      ok: false,
      error: 'too-many-strings',
    });
  });

  it('refuses to encode an id or version it could not decode (a programmer error)', () => {
    expect(() => encodeTxt({ ...ad, id: 'code-7-orbit' })).toThrow();
    expect(() => encodeTxt({ ...ad, version: 1.5 })).toThrow();
  });

  it('never throws on random bytes (seeded)', () => {
    const seed = 0x7a17;
    const rng = new Rng(seed);
    for (let i = 0; i < 2000; i++) {
      const list = Array.from({ length: rng.int(20) }, () => rng.bytes(rng.int(40)));
      if (rng.bool(0.5)) list.push(enc.encode('txtvers=1'), enc.encode('id=0123456789abcdef'));
      expect(() => decodeTxt(list), `seed ${seed}, case ${i}`).not.toThrow();
    }
  });
});
