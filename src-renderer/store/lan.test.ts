// The LAN list in the store and on the start screen: kept across a session, ordered, addresses formatted.
import { describe, expect, it } from 'vitest';
import type { ApiEvent, LanSessionInfo } from '../../shared/api';
import { lanJoinAddress, lanShown } from './lan';
import { reduce } from './reduce-ui';
import { INITIAL_STATE } from './state';

function lan(name: string, more: Partial<LanSessionInfo> = {}): LanSessionInfo {
  return {
    id: '0123456789abcdef',
    name,
    addresses: ['192.168.77.10'],
    port: 7350,
    version: 4,
    compatible: true,
    users: 1,
    ...more,
  };
}

describe('LAN sessions in the renderer', () => {
  it('replaces the list on each event and keeps it when a session starts', () => {
    const list = [lan('Ana')];
    const ev = (event: ApiEvent) => ({ type: 'event', event }) as const;
    let s = reduce(INITIAL_STATE, ev({ type: 'lan-sessions', sessions: list }));
    expect(s.lan).toEqual(list);
    s = reduce(s, ev({ type: 'status', status: { phase: 'connecting', address: 'x:1' } }));
    expect(s.lan).toEqual(list);
    s = reduce(s, ev({ type: 'lan-sessions', sessions: [] }));
    expect(s.lan).toEqual([]);
  });

  it('formats the join address, brackets for IPv6', () => {
    expect(lanJoinAddress(lan('a'))).toBe('192.168.77.10:7350');
    expect(lanJoinAddress(lan('a', { addresses: ['fd00::7'], port: 9 }))).toBe('[fd00::7]:9');
    expect(lanJoinAddress(lan('a', { addresses: [] }))).toBe('');
  });

  it('lists joinable sessions first, by name, without address-less ones, bounded', () => {
    const shown = lanShown([
      lan('Zed'),
      lan('Old', { compatible: false, version: 3 }),
      lan('Ana'),
      lan('Nowhere', { addresses: [] }),
    ]);
    expect(shown.map((s) => s.name)).toEqual(['Ana', 'Zed', 'Old']);
    expect(
      lanShown(
        Array.from({ length: 20 }, (_, i) => lan(`s${i}`)),
        8,
      ),
    ).toHaveLength(8);
  });
});
