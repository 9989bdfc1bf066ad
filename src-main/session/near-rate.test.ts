import { describe, expect, it } from 'vitest';
import { nearPeerRate } from './near-rate';

const USUAL = { packetsPerSecond: 85, packetBytes: 1200 };

describe('nearPeerRate', () => {
  it('accepts a packet every half round trip on a short path, up to the preset', () => {
    expect(nearPeerRate(USUAL, 195, 10)).toEqual({ packetsPerSecond: 195, packetBytes: 1200 });
    // 20 ms: 100 packets/s, said exactly.
    expect(nearPeerRate(USUAL, 195, 20)).toEqual({ packetsPerSecond: 100, packetBytes: 1200 });
    // 12 ms asks 166.7: the field says 165 above 120.
    expect(nearPeerRate(USUAL, 240, 12).packetsPerSecond).toBe(165);
    expect(nearPeerRate(USUAL, 240, 1).packetsPerSecond).toBe(240);
  });

  it('never goes below the usual rate, and leaves it without a sample or a preset', () => {
    expect(nearPeerRate(USUAL, 195, 80)).toBe(USUAL);
    expect(nearPeerRate(USUAL, 195, 23.6)).toBe(USUAL);
    expect(nearPeerRate(USUAL, 195, Infinity)).toBe(USUAL);
    expect(nearPeerRate(USUAL, 195, 0)).toBe(USUAL);
    expect(nearPeerRate(USUAL, undefined, 10)).toBe(USUAL);
  });
});
