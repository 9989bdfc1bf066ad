// The LAN session table on a fake clock: added, refreshed, changed, expired by TTL (capped), goodbye with its
// one-second grace, and a bound on how many sessions it keeps.
import { describe, expect, it } from 'vitest';
import { SessionTable, type Sighting } from './table';

function sighting(n: number, more: Partial<Sighting> = {}): Sighting {
  return {
    key: `board ${n}._ghostboard._udp.local`,
    advert: { name: `Board ${n}`, version: 4, id: n.toString(16).padStart(16, '0'), users: null },
    port: 7350,
    addresses: ['192.168.77.10'],
    ttlS: 120,
    ...more,
  };
}

describe('LAN session table', () => {
  it('adds, refreshes and changes entries, and lists them by name', () => {
    const t = new SessionTable({ maxSessions: 64, maxAgeMs: 75_000 });
    expect(t.observe(0, sighting(2))).toBe('added');
    expect(t.observe(0, sighting(1))).toBe('added');
    expect(t.observe(10, sighting(1))).toBe('refreshed');
    expect(t.observe(20, sighting(1, { port: 7351 }))).toBe('changed');
    expect(t.list().map((s) => [s.name, s.port, s.lastSeen])).toEqual([
      ['Board 1', 7351, 20],
      ['Board 2', 7350, 0],
    ]);
  });

  it('keeps the addresses it knew when a response carries none', () => {
    const t = new SessionTable();
    t.observe(0, sighting(1, { addresses: ['192.168.77.10', 'fd00::10'] }));
    expect(t.observe(5, sighting(1, { addresses: [] }))).toBe('refreshed');
    expect(t.list()[0]?.addresses).toEqual(['192.168.77.10', 'fd00::10']);
  });

  it('expires an entry at min(TTL, maxAge) after it was last heard', () => {
    const t = new SessionTable({ maxSessions: 64, maxAgeMs: 75_000 });
    t.observe(0, sighting(1, { ttlS: 10 }));
    t.observe(0, sighting(2, { ttlS: 28_800 }));
    expect(t.nextExpiry()).toBe(10_000);
    expect(t.expire(9_999)).toBe(false);
    expect(t.expire(10_000)).toBe(true);
    expect(t.list().map((s) => s.name)).toEqual(['Board 2']);
    t.observe(50_000, sighting(2, { ttlS: 28_800 })); // heard again: the clock starts over
    expect(t.expire(124_999)).toBe(false);
    expect(t.expire(125_000)).toBe(true);
    expect(t.size).toBe(0);
  });

  it('drops a goodbye one second later unless it is announced again', () => {
    const t = new SessionTable();
    t.observe(0, sighting(1));
    t.observe(0, sighting(2));
    t.goodbye(100, sighting(1).key);
    t.goodbye(100, sighting(2).key);
    t.goodbye(100, 'nobody._ghostboard._udp.local');
    t.observe(600, sighting(2, { advert: { ...sighting(2).advert, users: 2 } }));
    expect(t.expire(1_099)).toBe(false);
    expect(t.expire(1_100)).toBe(true);
    expect(t.list().map((s) => [s.name, s.users])).toEqual([['Board 2', 2]]);
  });

  it('keeps at most maxSessions and counts what it refused', () => {
    const t = new SessionTable({ maxSessions: 64, maxAgeMs: 75_000 });
    for (let i = 0; i < 1000; i++) t.observe(i, sighting(i));
    expect(t.size).toBe(64);
    expect(t.refusedFull).toBe(936);
    expect(t.observe(2000, sighting(5, { port: 9 }))).toBe('changed'); // known ones still update
    t.expire(2000 + 75_000 - 1);
    expect(t.size).toBe(1);
    expect(t.observe(80_000, sighting(999))).toBe('added'); // room again once old ones expire
  });
});
