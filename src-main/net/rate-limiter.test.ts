// Tests for the per-source failure buckets and the source key; pure, time passed in.
import { describe, expect, it } from 'vitest';
import { FailureLimiter, sourcePrefix } from './rate-limiter';

describe('sourcePrefix', () => {
  it('keeps an IPv4 address, and reads an IPv4-mapped IPv6 address as IPv4', () => {
    expect(sourcePrefix('203.0.113.7')).toBe('203.0.113.7');
    expect(sourcePrefix('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('puts every address of one IPv6 /64 under one key, however it is written', () => {
    const key = sourcePrefix('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    for (const a of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0db8:0001:0002:0:0:0:9',
      '2001:DB8:1:2:abcd::',
      '2001:db8:1:2::1%eth0',
    ])
      expect(sourcePrefix(a), a).toBe(key);
    expect(sourcePrefix('2001:db8:1:3::1')).not.toBe(key);
    expect(sourcePrefix('::1')).toBe('0:0:0:0::/64');
    expect(sourcePrefix('fe80::1')).toBe('fe80:0:0:0::/64');
  });
});

describe('FailureLimiter', () => {
  it('refuses a source after its burst of failures, forgives one per refill period, and no other source', () => {
    const l = new FailureLimiter({ burst: 3, refillMs: 1000 });
    for (let i = 0; i < 3; i++) {
      expect(l.isLimited(0, 'a')).toBe(false);
      l.record(0, 'a');
    }
    expect(l.isLimited(0, 'a')).toBe(true);
    expect(l.isLimited(0, 'b')).toBe(false);
    expect(l.isLimited(999, 'a')).toBe(true);
    expect(l.isLimited(1000, 'a')).toBe(false);
    l.record(1000, 'a');
    expect(l.isLimited(1000, 'a')).toBe(true);
  });

  it('never holds more sources than its bound', () => {
    const l = new FailureLimiter({ maxKeys: 10 });
    for (let i = 0; i < 1000; i++) l.record(i, `10.0.${i >> 8}.${i & 255}`);
    expect(l.size).toBe(10);
  });
});
