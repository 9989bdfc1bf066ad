import { describe, expect, it } from 'vitest';
import { asSeq, seqExpand, seqLow } from './seq';
import { Rng } from './rng';

describe('seq', () => {
  it('expands low bits to the nearest full sequence across wraps', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const rng = new Rng(seed);
      for (let i = 0; i < 2000; i++) {
        const bits = rng.range(4, 12);
        const reference = rng.range(0, 2 ** 40) + (i % 2 === 0 ? 2 ** 32 - 3 : 0);
        const half = 2 ** (bits - 1);
        const actual = Math.max(0, reference + rng.range(-half, half - 1));
        const expanded = seqExpand(seqLow(asSeq(actual), bits), bits, reference);
        expect(expanded, `seed ${seed} i ${i}`).toBe(actual);
      }
    }
  });

  it('rejects non-integer and negative sequences', () => {
    expect(() => asSeq(-1)).toThrow(RangeError);
    expect(() => asSeq(1.5)).toThrow(RangeError);
  });
});
