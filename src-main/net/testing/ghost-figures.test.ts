import { describe, expect, it } from 'vitest';
import { measureScopeCost, pointerUpdateBits } from './ghost-figures';

describe('ghost figures', () => {
  it('one pointer update among 40 live ghosts costs 58 section bits (59 with the presence bit)', () => {
    // header 4 + (more 1 + id 6 + update 1 + mask 3 + x 21 + y 21) + end 1
    expect(pointerUpdateBits(40)).toEqual({ sectionBits: 58, entryBits: 53, packetBits: 59 });
    expect(pointerUpdateBits(16_384).sectionBits).toBe(66);
  });

  it('measures scope cost without asserting on time', () => {
    const c = measureScopeCost(200, 50, 10, 20);
    expect(c.usPerPacket).toBeGreaterThan(0);
  });
});
