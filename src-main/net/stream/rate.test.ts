import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter } from '../bitstream';
import {
  assertRatePolicy,
  isPacketRate,
  MAX_PACKET_RATE,
  packetRateAtMost,
  readRateField,
  writeRateField,
} from './rate';

describe('the rate field', () => {
  it('says 1..120 packets/s exactly and 135..240 in steps of 15, in 7 + 11 bits', () => {
    const said: number[] = [];
    for (let n = 0; n <= MAX_PACKET_RATE + 20; n++) {
      if (!isPacketRate(n)) continue;
      said.push(n);
      const w = new BitWriter();
      writeRateField(w, { packetsPerSecond: n, packetBytes: 1200 });
      expect(w.bitLength).toBe(18);
      expect(readRateField(new BitReader(w.finish()))).toEqual({
        packetsPerSecond: n,
        packetBytes: 1200,
      });
    }
    expect(said).toHaveLength(128);
    expect(said.slice(118)).toEqual([119, 120, 135, 150, 165, 180, 195, 210, 225, 240]);
  });

  it('rounds a wish down to a rate it can say, and a policy it cannot say is refused', () => {
    expect(packetRateAtMost(212.5)).toBe(210);
    expect(packetRateAtMost(300)).toBe(240);
    expect(packetRateAtMost(85)).toBe(85);
    expect(packetRateAtMost(0)).toBe(1);
    expect(() => assertRatePolicy({ packetsPerSecond: 200, packetBytes: 1200 })).toThrow(
      RangeError,
    );
    expect(() => assertRatePolicy({ packetsPerSecond: 210, packetBytes: 1200 })).not.toThrow();
  });
});
