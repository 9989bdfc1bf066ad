import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import { GhostIdPool, idBitsFor } from './ghost-ids';

describe('ghost id pool', () => {
  it('always hands out the lowest free id, and its width follows the highest in use (seeded)', () => {
    const seed = 3;
    const rng = new Rng(seed);
    const pool = new GhostIdPool(300);
    const used = new Set<number>();
    for (let step = 0; step < 5_000; step++) {
      if (used.size > 0 && (rng.bool(0.45) || used.size === 300)) {
        const id = rng.pick([...used]);
        pool.release(id);
        used.delete(id);
      } else {
        let lowest = 0;
        while (used.has(lowest)) lowest++;
        expect(pool.alloc(), `seed ${seed} step ${step}`).toBe(lowest);
        used.add(lowest);
      }
      const top = used.size === 0 ? 0 : Math.max(...used) + 1;
      expect(pool.top, `seed ${seed} step ${step}`).toBe(top);
      expect(pool.idBits).toBe(idBitsFor(top));
      expect(pool.live).toBe(used.size);
    }
  });

  it('refuses past its limit and rejects a double release', () => {
    const pool = new GhostIdPool(2);
    expect([pool.alloc(), pool.alloc(), pool.alloc()]).toEqual([0, 1, undefined]);
    pool.release(0);
    expect(() => {
      pool.release(0);
    }).toThrow();
    expect(idBitsFor(40)).toBe(6);
    expect(idBitsFor(16_384)).toBe(14);
    expect(idBitsFor(1)).toBe(1);
  });
});
