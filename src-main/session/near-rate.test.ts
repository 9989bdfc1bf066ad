import { describe, expect, it } from 'vitest';
import { nearPeerRate } from './near-rate';

const USUAL = { packetsPerSecond: 85, packetBytes: 1200 };

describe('nearPeerRate', () => {
  it('accepts a packet every half round trip on a short path, up to the preset', () => {
    expect(nearPeerRate(USUAL, 195, 10, 4)).toEqual({ packetsPerSecond: 195, packetBytes: 1200 });
    // 20 ms: 100 packets/s, said exactly.
    expect(nearPeerRate(USUAL, 195, 20, 4)).toEqual({ packetsPerSecond: 100, packetBytes: 1200 });
    // 12 ms asks 166.7: the field says 165 above 120.
    expect(nearPeerRate(USUAL, 240, 12, 4).packetsPerSecond).toBe(165);
    expect(nearPeerRate(USUAL, 240, 1, 4).packetsPerSecond).toBe(240);
  });

  it('never goes below the usual rate, and leaves it without a sample or a preset', () => {
    expect(nearPeerRate(USUAL, 195, 80, 4)).toBe(USUAL);
    expect(nearPeerRate(USUAL, 195, 23.6, 4)).toBe(USUAL);
    expect(nearPeerRate(USUAL, 195, Infinity, 4)).toBe(USUAL);
    expect(nearPeerRate(USUAL, 195, 0, 4)).toBe(USUAL);
    expect(nearPeerRate(USUAL, undefined, 10, 4)).toBe(USUAL);
  });

  it('adds fewer packets the larger the session, none past the budget', () => {
    expect(nearPeerRate(USUAL, 195, 10, 15).packetsPerSecond).toBe(195);
    expect(nearPeerRate(USUAL, 195, 10, 20).packetsPerSecond).toBe(150);
    expect(nearPeerRate(USUAL, 195, 10, 30).packetsPerSecond).toBe(100);
    expect(nearPeerRate(USUAL, 195, 10, 36)).toBe(USUAL);
    expect(nearPeerRate(USUAL, 195, 10, 99)).toBe(USUAL);
  });
});
