import { describe, expect, it } from 'vitest';
import { ByteAndPacketBuckets } from './buckets';

const LIMITS = { bytesPerSecond: 1000, packetsPerSecond: 10, maxBytes: 500, maxPackets: 3 };

describe('byte and packet buckets', () => {
  it('start full, and the scarcer bucket says when the next packet may start', () => {
    const b = new ByteAndPacketBuckets(0, LIMITS);
    for (let i = 0; i < 3; i++) {
      expect(b.canSpend(0)).toBe(true);
      b.charge(0, 10, 1);
    }
    expect(b.canSpend(0)).toBe(false);
    expect(b.readyAt(0)).toBeCloseTo(100, 9); // a packet a tenth of a second, bytes to spare
    b.charge(100, 900, 1); // 470 + 100 earned, capped at 500, - 900: 400 B overdrawn
    expect(b.readyAt(100)).toBeCloseTo(500, 9);
    // Asked between calls that pass the time: from the last one.
    expect(b.readyAt()).toBeCloseTo(500, 9);
  });

  it('a reserve keeps that many packets back', () => {
    const b = new ByteAndPacketBuckets(0, LIMITS);
    b.charge(0, 0, 1);
    expect(b.readyAt(0, 1)).toBe(0); // 2 left: one may start and leave 1
    b.charge(0, 0, 1);
    expect(b.readyAt(0)).toBe(0);
    expect(b.readyAt(0, 1)).toBeCloseTo(100, 9);
    expect(b.canSpend(100, 1)).toBe(true);
  });

  it('save no more than their caps, and new limits keep what was earned within the new caps', () => {
    const b = new ByteAndPacketBuckets(-Infinity, LIMITS);
    b.charge(0, 500, 3);
    b.charge(60_000, 0, 0); // a minute idle: back to the caps, no more
    b.charge(60_000, 500, 3);
    expect(b.canSpend(60_000)).toBe(false);
    b.setLimits(60_000, { ...LIMITS, maxBytes: 100, maxPackets: 1 });
    b.charge(70_000, 0, 0);
    b.charge(70_000, 100, 1);
    expect(b.readyAt(70_000)).toBeCloseTo(70_100, 9);
  });

  it('refuse limits that earn nothing', () => {
    expect(() => new ByteAndPacketBuckets(0, { ...LIMITS, bytesPerSecond: 0 })).toThrow(RangeError);
    expect(() => new ByteAndPacketBuckets(0, { ...LIMITS, packetsPerSecond: 0 })).toThrow(
      RangeError,
    );
    expect(() => new ByteAndPacketBuckets(0, { ...LIMITS, maxPackets: 0.5 })).toThrow(RangeError);
  });
});
