import { describe, expect, it } from 'vitest';
import { MAX_PACKET_RATE } from '../net/stream/rate';
import { SESSION_RATES } from './connection-stack';
import { boardDownloadRate, DOWNLOAD_QUIET_MS, nextDownloadStep } from './join-rate';

describe('board download rate', () => {
  it('is about two and a half times the usual packet rate, as far as the rate field can say it, at the same size', () => {
    expect(SESSION_RATES.broadband.toPeers.packetsPerSecond).toBe(85);
    expect(boardDownloadRate(SESSION_RATES.broadband.toPeers)).toEqual({
      packetsPerSecond: 210,
      packetBytes: SESSION_RATES.broadband.toPeers.packetBytes,
    });
    expect(boardDownloadRate(SESSION_RATES.modem.toPeers).packetsPerSecond).toBe(25);
    expect(boardDownloadRate(SESSION_RATES.lan.toPeers)).toEqual({
      ...SESSION_RATES.lan.toPeers,
      packetsPerSecond: MAX_PACKET_RATE,
    });
  });

  it('is asked for from a welcome to a board until it is whole or stops coming, and never again', () => {
    expect(nextDownloadStep('welcome', 0, 0, 0)).toBe('done');
    expect(nextDownloadStep('welcome', 0, 10, 0)).toBe('fast');
    expect(nextDownloadStep('fast', 9, 10, DOWNLOAD_QUIET_MS - 1)).toBe('fast');
    expect(nextDownloadStep('fast', 10, 10, 0)).toBe('done');
    expect(nextDownloadStep('fast', 9, 10, DOWNLOAD_QUIET_MS)).toBe('done');
    expect(nextDownloadStep('done', 3, 10, 0)).toBe('done');
  });
});
