import { describe, expect, it } from 'vitest';
import {
  fetchingBoard,
  HOST_PACKETS,
  hostAcceptRate,
  hostSendRate,
  MIN_PEER_PACKETS,
} from './host-packet-rates';

const broadband = { packetsPerSecond: 66, packetBytes: 238 };
/** What a broadband host sends a peer at most (the board download's rate). */
const downloadCap = { packetsPerSecond: 210, packetBytes: 238 };

describe('hostAcceptRate', () => {
  it('keeps the usual rate while the peers fit the host’s budget', () => {
    expect(hostAcceptRate(broadband, 1)).toBe(broadband);
    expect(hostAcceptRate(broadband, 60)).toBe(broadband);
  });

  it('shares the budget among many peers, never under the floor, in packets of the same size', () => {
    expect(hostAcceptRate(broadband, 100)).toEqual({ packetsPerSecond: 40, packetBytes: 238 });
    expect(hostAcceptRate(broadband, 160)).toEqual({ packetsPerSecond: 25, packetBytes: 238 });
    expect(hostAcceptRate(broadband, 250)).toEqual({
      packetsPerSecond: MIN_PEER_PACKETS,
      packetBytes: 238,
    });
    for (let peers = 1; peers <= 1000; peers++) {
      const pps = hostAcceptRate(broadband, peers).packetsPerSecond;
      expect(pps).toBeLessThanOrEqual(66);
      expect(pps).toBeGreaterThanOrEqual(MIN_PEER_PACKETS);
      // Within the budget wherever the floor allows.
      if (pps > MIN_PEER_PACKETS) expect(pps * peers).toBeLessThanOrEqual(HOST_PACKETS);
    }
  });

  it('never raises a rate below the floor (a modem) and follows a budget given', () => {
    const modem = { packetsPerSecond: 10, packetBytes: 238 };
    expect(hostAcceptRate(modem, 1000)).toBe(modem);
    expect(hostAcceptRate(broadband, 8, 240).packetsPerSecond).toBe(30);
    expect(hostAcceptRate(broadband, 4, 240).packetsPerSecond).toBe(60);
  });
});

describe('hostSendRate', () => {
  it('keeps the host’s cap while the peers fit its budget, and shares the budget past it', () => {
    expect(hostSendRate(downloadCap, 12)).toBe(downloadCap);
    expect(hostSendRate(downloadCap, 19)).toBe(downloadCap);
    expect(hostSendRate(downloadCap, 96)).toEqual({ packetsPerSecond: 41, packetBytes: 238 });
    expect(hostSendRate(downloadCap, 160)).toEqual({ packetsPerSecond: 25, packetBytes: 238 });
    expect(hostSendRate(downloadCap, 250)).toEqual({
      packetsPerSecond: MIN_PEER_PACKETS,
      packetBytes: 238,
    });
    for (let peers = 1; peers <= 1000; peers++) {
      const pps = hostSendRate(downloadCap, peers).packetsPerSecond;
      expect(pps).toBeGreaterThanOrEqual(MIN_PEER_PACKETS);
      if (pps > MIN_PEER_PACKETS) expect(pps * peers).toBeLessThanOrEqual(HOST_PACKETS);
    }
  });

  it('lets a peer fetching the board keep the cap: it asks for more than the session’s usual rate only then', () => {
    const usual = { packetsPerSecond: 85, packetBytes: 238 };
    expect(fetchingBoard(downloadCap, usual)).toBe(true);
    expect(fetchingBoard(usual, usual)).toBe(false);
    expect(fetchingBoard({ packetsPerSecond: 30, packetBytes: 238 }, usual)).toBe(false);
  });
});
