import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter, DecodeError } from '../net/bitstream';
import { WORLD_EXTENT } from '../../shared/board';
import { blankPresence, Presence } from './ghost-classes';

const pointer = Presence.groups.find((g) => g.name === 'pointer');
const drag = Presence.groups.find((g) => g.name === 'drag');

function roundTrip(x: number, y: number): { bits: number; x: number; y: number } {
  const w = new BitWriter();
  pointer?.pack(w, { ...blankPresence(1), x, y, visible: true });
  const bits = w.bitLength;
  const g = blankPresence();
  pointer?.unpack(new BitReader(w.finish()), g);
  return { bits, x: g.x, y: g.y };
}

describe('presence wire format', () => {
  it('pointer positions round-trip exactly across the compact and the full range', () => {
    for (const v of [0, 1, -1, 8191, -8192, 8192, -8193, 123_456, WORLD_EXTENT, -WORLD_EXTENT]) {
      expect(roundTrip(v, 0 - v || 0)).toMatchObject({ x: v, y: 0 - v || 0 });
    }
  });

  it('costs 31 bits near the origin and 47 far out', () => {
    expect(roundTrip(5000, -7000).bits).toBe(1 + 2 * 15);
    expect(roundTrip(9000, -7000).bits).toBe(1 + 23 + 15);
    expect(roundTrip(-WORLD_EXTENT, WORLD_EXTENT).bits).toBe(1 + 2 * 23);
  });

  it('a drag position uses the same code; a truncated one is a decode error, not a wrong value', () => {
    const w = new BitWriter();
    drag?.pack(w, { ...blankPresence(1), dragId: 7, dragX: -20, dragY: 30_000 });
    const bytes = w.finish();
    const g = blankPresence();
    drag?.unpack(new BitReader(bytes), g);
    expect([g.dragId, g.dragX, g.dragY]).toEqual([7, -20, 30_000]);
    expect(() => drag?.unpack(new BitReader(bytes.subarray(0, 3)), blankPresence())).toThrow(
      DecodeError,
    );
  });
});
