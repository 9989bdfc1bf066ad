import { describe, it, expect } from 'vitest';
import { BitReader, BitWriter, DecodeError } from './bitstream';
import {
  HUFFMAN_MAX_CODE_BITS,
  HUFFMAN_MIN_CODE_BITS,
  huffmanBitLength,
  huffmanCodeLength,
  huffmanRead,
  huffmanWrite,
} from './huffman';
import { Rng } from './rng';

const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, b) => b);
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

function encode(bytes: Uint8Array): BitWriter {
  const w = new BitWriter();
  huffmanWrite(w, bytes);
  return w;
}

function decodeError(fn: () => unknown): DecodeError | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof DecodeError) return e;
    throw e;
  }
  return undefined;
}

describe('huffman code', () => {
  it('is a complete prefix code with capped lengths', () => {
    let kraft = 0;
    for (let b = 0; b < 256; b++) {
      const len = huffmanCodeLength(b);
      expect(len, `byte ${b}`).toBeGreaterThanOrEqual(HUFFMAN_MIN_CODE_BITS);
      expect(len, `byte ${b}`).toBeLessThanOrEqual(HUFFMAN_MAX_CODE_BITS);
      kraft += 2 ** -len;
    }
    expect(kraft).toBe(1);
    expect(HUFFMAN_MAX_CODE_BITS).toBeLessThanOrEqual(24);
  });

  it('favours the characters of typed text', () => {
    const len = (ch: string): number => huffmanCodeLength(ch.charCodeAt(0));
    expect(len(' ')).toBe(HUFFMAN_MIN_CODE_BITS);
    expect(len('e')).toBeLessThan(len('z'));
    expect(len('e')).toBeLessThan(len('E'));
    expect(len('.')).toBeLessThan(8);
    expect(huffmanCodeLength(0x00)).toBeGreaterThan(8);
  });

  it('round-trips every byte value and random byte strings', () => {
    const all = encode(ALL_BYTES);
    expect(all.bitLength).toBe(huffmanBitLength(ALL_BYTES));
    expect(huffmanRead(new BitReader(all.finish()), 256)).toEqual(ALL_BYTES);
    for (let seed = 1; seed <= 200; seed++) {
      const rng = new Rng(seed);
      const bytes = rng.bool()
        ? rng.bytes(rng.int(200))
        : utf8(rng.pick(['hi', 'Draw a box', '字 😀']));
      const w = new BitWriter();
      const lead = rng.int(8);
      w.writeUint(0, lead);
      huffmanWrite(w, bytes);
      expect(w.bitLength - lead, `seed ${seed}`).toBe(huffmanBitLength(bytes));
      const r = new BitReader(w.finish(), lead, w.bitLength);
      expect(huffmanRead(r, bytes.length), `seed ${seed}`).toEqual(bytes);
      expect(r.bitsLeft, `seed ${seed}`).toBe(0);
    }
  });

  it('beats 8 bits per byte on English chat', () => {
    const sample = utf8("hello world, let's meet at 5pm");
    expect(huffmanBitLength(sample)).toBeLessThan(sample.length * 6);
    const paragraph = utf8(
      'Can everyone see the diagram? I moved the login box to the left, and the arrows now point at the database. ' +
        "Let's review it tomorrow at 10:30 (after standup).\n",
    );
    expect(huffmanBitLength(paragraph)).toBeLessThan(paragraph.length * 5);
  });

  it('decodes any bit sequence, so garbage can only run out of bits', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const rng = new Rng(seed);
      const bytes = rng.bytes(1 + rng.int(64));
      const fits = Math.floor((bytes.length * 8) / HUFFMAN_MAX_CODE_BITS);
      const r = new BitReader(bytes);
      expect(huffmanRead(r, fits).length, `seed ${seed}`).toBe(fits);
      const error = decodeError(() => huffmanRead(r, bytes.length * 8));
      expect(error?.code, `seed ${seed}`).toBe('eof');
    }
  });

  it('throws eof when a coded run is cut short anywhere', () => {
    const bytes = utf8('Ok! 字');
    const w = encode(bytes);
    const all = w.finish();
    for (let end = 0; end < w.bitLength; end++) {
      const error = decodeError(() => huffmanRead(new BitReader(all, 0, end), bytes.length));
      expect(error?.code, `end ${end}`).toBe('eof');
    }
  });

  it('rejects a byte count the stream cannot hold before allocating', () => {
    const error = decodeError(() => huffmanRead(new BitReader(new Uint8Array(8)), 2 ** 45));
    expect(error?.code).toBe('eof');
  });
});
