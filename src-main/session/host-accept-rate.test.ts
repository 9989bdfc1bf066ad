import { describe, expect, it } from 'vitest';
import { HOST_UPSTREAM_PACKETS, hostAcceptRate, MIN_UPSTREAM_PACKETS } from './host-accept-rate';

const broadband = { packetsPerSecond: 66, packetBytes: 238 };

describe('hostAcceptRate', () => {
  it('keeps the usual rate while the peers fit the host’s upstream budget', () => {
    expect(hostAcceptRate(broadband, 1)).toBe(broadband);
    expect(hostAcceptRate(broadband, 60)).toBe(broadband);
  });

  it('shares the budget among many peers, never under the floor, in packets of the same size', () => {
    expect(hostAcceptRate(broadband, 100)).toEqual({ packetsPerSecond: 40, packetBytes: 238 });
    expect(hostAcceptRate(broadband, 250)).toEqual({
      packetsPerSecond: MIN_UPSTREAM_PACKETS,
      packetBytes: 238,
    });
    for (let peers = 1; peers <= 1000; peers++) {
      const pps = hostAcceptRate(broadband, peers).packetsPerSecond;
      expect(pps).toBeLessThanOrEqual(66);
      expect(pps).toBeGreaterThanOrEqual(MIN_UPSTREAM_PACKETS);
      // Within the budget wherever the floor allows.
      if (pps > MIN_UPSTREAM_PACKETS)
        expect(pps * peers).toBeLessThanOrEqual(HOST_UPSTREAM_PACKETS);
    }
  });

  it('never raises a rate below the floor (a modem) and follows a budget given', () => {
    const modem = { packetsPerSecond: 10, packetBytes: 238 };
    expect(hostAcceptRate(modem, 1000)).toBe(modem);
    expect(hostAcceptRate(broadband, 8, 240).packetsPerSecond).toBe(30);
    expect(hostAcceptRate(broadband, 4, 240).packetsPerSecond).toBe(60);
  });
});
