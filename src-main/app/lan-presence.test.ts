// When the app core uses the LAN, and what of a found session reaches the renderer.
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../shared/version';
import { lanEnabled, toLanInfo } from './lan-presence';

describe('app core LAN presence', () => {
  it('is on by default, off for loopback binds, and an explicit option wins', () => {
    expect(lanEnabled({})).toBe(true);
    expect(lanEnabled({ bind: '0.0.0.0' })).toBe(true);
    expect(lanEnabled({ bind: '127.0.0.1' })).toBe(false);
    expect(lanEnabled({ bind: '::1' })).toBe(false);
    expect(lanEnabled({ bind: '127.0.0.1', lan: true })).toBe(true);
    expect(lanEnabled({ lan: false })).toBe(false);
  });

  it('passes on what the start screen needs and says whether the version is ours', () => {
    const seen = {
      key: 'ana 00112233._ghostboard._udp.local',
      name: 'Ana',
      addresses: ['192.168.77.10'],
      port: 7350,
      version: PROTOCOL_VERSION,
      id: '0011223344556677',
      users: 2,
      lastSeen: 5,
    };
    expect(toLanInfo(seen)).toEqual({
      id: '0011223344556677',
      name: 'Ana',
      addresses: ['192.168.77.10'],
      port: 7350,
      version: PROTOCOL_VERSION,
      compatible: true,
      users: 2,
    });
    expect(toLanInfo({ ...seen, version: PROTOCOL_VERSION - 1 }).compatible).toBe(false);
  });
});
