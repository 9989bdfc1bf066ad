import { describe, expect, it } from 'vitest';
import { MAX_POINTS, POINT_EXTENT } from '../../shared/board';
import { BitReader, BitWriter, DecodeError } from '../net/bitstream';
import { Rng } from '../net/rng';
import { points } from './fields';

const NO_STRINGS = {
  writeTableString: () => undefined,
  readTableString: () => '',
};

function encode(ps: readonly number[]): { bytes: Uint8Array; bits: number } {
  const w = new BitWriter();
  points().write(w, [...ps], NO_STRINGS);
  return { bits: w.bitLength, bytes: w.finish() };
}

const decode = (bytes: Uint8Array): number[] => points().read(new BitReader(bytes), NO_STRINGS);

/** A random walk from a random start, each step within ±step, clamped to the extent. */
function walk(rng: Rng, n: number, step: number): number[] {
  const out: number[] = [];
  let x = rng.range(-POINT_EXTENT, POINT_EXTENT);
  let y = rng.range(-POINT_EXTENT, POINT_EXTENT);
  for (let i = 0; i < n; i++) {
    out.push(x, y);
    const clamp = (v: number): number => Math.max(-POINT_EXTENT, Math.min(POINT_EXTENT, v));
    x = clamp(x + rng.range(-step, step));
    y = clamp(y + rng.range(-step, step));
  }
  return out;
}

describe('points on the wire (first point, then differences)', () => {
  it('read back exactly what was written: seeded strokes of every length and step, extremes included', () => {
    const seed = 19_310;
    const rng = new Rng(seed);
    const cases: number[][] = [
      [],
      [0, 0],
      [POINT_EXTENT, -POINT_EXTENT],
      [-POINT_EXTENT, POINT_EXTENT, POINT_EXTENT, -POINT_EXTENT, -POINT_EXTENT, POINT_EXTENT],
      [5, 5, 5, 5, 5, 5], // an axis that never moves costs no bits a point
    ];
    for (let i = 0; i < 500; i++) {
      const n = rng.int(MAX_POINTS + 1);
      const step = rng.pick([0, 1, 3, 8, 50, 1000, 2 * POINT_EXTENT]);
      cases.push(walk(rng, n, step));
    }
    for (const ps of cases) expect(decode(encode(ps).bytes), `seed ${seed}`).toEqual(ps);
  });

  it('a freehand stroke of 50 points takes under a third of 16 bits a coordinate', () => {
    const stroke: number[] = [];
    for (let k = 0; k < 50; k++) stroke.push(3 * k, Math.round(20 * Math.sin(k / 4)));
    const { bits } = encode(stroke);
    expect(bits).toBeLessThan((50 * 2 * 16) / 3);
  });

  it('refuse a coordinate outside the extent when writing (a programmer error)', () => {
    expect(() => encode([0, POINT_EXTENT + 1])).toThrow(RangeError);
    expect(() => encode([0, 0, 0.5, 0])).toThrow(RangeError);
    expect(() => encode([0])).toThrow(RangeError);
  });

  it('hostile input: widths past 17 bits, points walked outside the extent and short input are typed errors', () => {
    const header = (n: number, x: number, y: number, wx: number, wy: number): BitWriter => {
      const w = new BitWriter();
      w.writeRanged(n, 0, MAX_POINTS);
      w.writeRanged(x, -POINT_EXTENT, POINT_EXTENT);
      w.writeRanged(y, -POINT_EXTENT, POINT_EXTENT);
      w.writeUint(wx, 5);
      w.writeUint(wy, 5);
      return w;
    };
    const code = (bytes: Uint8Array): string => {
      try {
        decode(bytes);
        return 'decoded';
      } catch (e) {
        if (e instanceof DecodeError) return e.code;
        throw e;
      }
    };
    expect(code(header(2, 0, 0, 31, 1).finish())).toBe('range');
    const out = header(2, POINT_EXTENT, 0, 2, 1);
    out.writeInt(1, 2);
    out.writeInt(0, 1);
    expect(code(out.finish())).toBe('range');
    // A count of 256 points with 17-bit differences, and no bits behind it: refused before reading any.
    expect(code(header(MAX_POINTS, 0, 0, 17, 17).finish())).toBe('eof');
    const seed = 19_311;
    const rng = new Rng(seed);
    for (let i = 0; i < 2000; i++) {
      const c = code(rng.bytes(rng.int(40)));
      expect(['decoded', 'eof', 'range'], `seed ${seed}`).toContain(c);
    }
  });
});
