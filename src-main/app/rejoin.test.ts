// The rejoin and failover policy: which hosts a joiner tries after its host went away, when, and when it stops.
import { describe, expect, it } from 'vitest';
import {
  FAILOVER_SILENT_MS,
  HOST_SILENT_MS,
  otherHosts,
  rejoinDelay,
  rejoinTry,
  silenceLimit,
} from './rejoin';

const A = { address: '10.0.0.1', port: 7350 };
const B = { address: '10.0.0.2', port: 7350 };
const C = { address: '2001:db8::3', port: 7351 };

describe('which hosts a joiner tries', () => {
  it('every known host once, without the one that went away, in the order known', () => {
    expect(otherHosts([A, B, C, B, A], '10.0.0.1:7350')).toEqual([B, C]);
    // The gone host's key may be spelled otherwise (an IPv4-mapped address, uncompressed IPv6).
    expect(otherHosts([A, B], '[::ffff:10.0.0.2]:7350')).toEqual([A]);
    expect(otherHosts([A, C], '[2001:db8:0:0:0:0:0:3]:7351')).toEqual([A]);
    expect(otherHosts([A], '10.0.0.1:7350')).toEqual([]);
    expect(otherHosts([], undefined)).toEqual([]);
  });

  it('no more than one probe takes', () => {
    const many = Array.from({ length: 16 }, (_, i) => ({ address: '10.0.1.1', port: 7000 + i }));
    expect(otherHosts(many, undefined)).toHaveLength(8);
  });
});

describe('when a joiner acts on a silent host', () => {
  it('sooner when another host could take over', () => {
    expect(silenceLimit(0)).toBe(HOST_SILENT_MS);
    expect(silenceLimit(2)).toBe(FAILOVER_SILENT_MS);
    expect(FAILOVER_SILENT_MS).toBeLessThan(HOST_SILENT_MS);
  });
});

describe('each try after the host went away', () => {
  it('with other hosts: at once, at the others, for a silence, an error or a host that left', () => {
    for (const reason of ['timeout', 'error', 'host-left'])
      expect(rejoinTry(reason, reason, 1, [A, B, C], '10.0.0.1:7350')).toEqual({
        delayMs: 0,
        hosts: [B, C],
        elsewhere: true,
      });
  });

  it('a move to a nearer host: at once at the others; if none takes it, every host, the old one too', () => {
    expect(rejoinTry('nearer', 'nearer', 1, [A, B, C], '10.0.0.1:7350')).toEqual({
      delayMs: 0,
      hosts: [B, C],
      elsewhere: true,
    });
    expect(rejoinTry('unreachable', 'nearer', 2, [A, B], '10.0.0.1:7350')).toEqual({
      delayMs: rejoinDelay(2),
      hosts: [A, B],
      elsewhere: false,
    });
  });

  it('never after a refusal or a removal, wherever else the session is', () => {
    for (const reason of ['kicked', 'banned', 'wrong-code', 'full', 'left'])
      expect(rejoinTry(reason, reason, 1, [A, B], '10.0.0.1:7350')).toBeUndefined();
  });

  it('after a failed failover: every host, the gone one too, with backoff', () => {
    expect(rejoinTry('unreachable', 'timeout', 2, [A, B], '10.0.0.1:7350')).toEqual({
      delayMs: rejoinDelay(2),
      hosts: [A, B],
      elsewhere: false,
    });
  });

  it('a host that left on purpose, and no other answered: no more tries', () => {
    expect(rejoinTry('unreachable', 'host-left', 2, [A, B], '10.0.0.1:7350')).toBeUndefined();
  });

  it('without other hosts: the same host again, as the first join did, with backoff', () => {
    expect(rejoinTry('timeout', 'timeout', 1, [A], '10.0.0.1:7350')).toEqual({
      delayMs: rejoinDelay(1),
      hosts: [],
      elsewhere: false,
    });
    expect(rejoinTry('timeout', 'timeout', 1, [], undefined)?.delayMs).toBe(rejoinDelay(1));
    expect(rejoinTry('host-left', 'host-left', 1, [A], '10.0.0.1:7350')).toBeUndefined();
  });
});
