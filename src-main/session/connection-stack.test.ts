import { describe, expect, it } from 'vitest';
import { parseSessionRate, SESSION_RATES, sessionRate } from './connection-stack';

describe('session rates', () => {
  it('parses presets and TO_HOST[:TO_PEERS] packet rates', () => {
    expect(parseSessionRate('broadband')).toBe(SESSION_RATES.broadband);
    expect(parseSessionRate('60:90')).toEqual(sessionRate(60, 90));
    expect(parseSessionRate('45')).toEqual(sessionRate(45, 45));
    expect(parseSessionRate('1:120')).toEqual(sessionRate(1, 120));
  });

  it('refuses anything else', () => {
    for (const bad of ['', '0', '241', '60:0', '60:90:1', '60.5', '-5', 'toString', 'x:1', ' 60'])
      expect(parseSessionRate(bad), bad).toBeUndefined();
  });

  it('lets a peer accept more than it sends: the host relays every other pointer', () => {
    for (const r of Object.values(SESSION_RATES))
      expect(r.toPeers.packetsPerSecond).toBeGreaterThanOrEqual(r.toHost.packetsPerSecond);
  });
});
