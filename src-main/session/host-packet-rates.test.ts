import { describe, expect, it } from 'vitest';
import { fetchingBoard, HOST_PACKETS, MIN_PEER_PACKETS, peerShare } from './host-packet-rates';

/** What a broadband host accepts from each peer, and the most it sends one (the board download's rate). */
const up = { packetsPerSecond: 66, packetBytes: 238 };
const downCap = { packetsPerSecond: 210, packetBytes: 238 };

describe('peerShare', () => {
  it('keeps the usual rate each way while the peers fit the host’s budget', () => {
    expect(peerShare(up, 1)).toBe(up);
    expect(peerShare(up, 60)).toBe(up);
    expect(peerShare(downCap, 19)).toBe(downCap);
  });

  it('shares the budget among many peers, never under the floor, in packets of the same size', () => {
    for (const usual of [up, downCap]) {
      expect(peerShare(usual, 100)).toEqual({ packetsPerSecond: 40, packetBytes: 238 });
      expect(peerShare(usual, 160)).toEqual({ packetsPerSecond: 25, packetBytes: 238 });
      expect(peerShare(usual, 250)).toEqual({
        packetsPerSecond: MIN_PEER_PACKETS,
        packetBytes: 238,
      });
      for (let peers = 1; peers <= 1000; peers++) {
        const pps = peerShare(usual, peers).packetsPerSecond;
        expect(pps).toBeLessThanOrEqual(usual.packetsPerSecond);
        expect(pps).toBeGreaterThanOrEqual(MIN_PEER_PACKETS);
        // Within the budget wherever the floor allows.
        if (pps > MIN_PEER_PACKETS) expect(pps * peers).toBeLessThanOrEqual(HOST_PACKETS);
      }
    }
  });

  it('never raises a rate below the floor (a modem) and follows a budget given', () => {
    const modem = { packetsPerSecond: 10, packetBytes: 238 };
    expect(peerShare(modem, 1000)).toBe(modem);
    expect(peerShare(up, 8, 240).packetsPerSecond).toBe(30);
    expect(peerShare(up, 4, 240).packetsPerSecond).toBe(60);
  });

  it('lets a peer fetching the board keep the cap: it asks for more than the session’s usual rate only then', () => {
    const usual = { packetsPerSecond: 85, packetBytes: 238 };
    expect(fetchingBoard(downCap, usual)).toBe(true);
    expect(fetchingBoard(usual, usual)).toBe(false);
    expect(fetchingBoard({ packetsPerSecond: 30, packetBytes: 238 }, usual)).toBe(false);
  });
});
