import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter } from '../bitstream';
import { Rng } from '../rng';
import {
  ForwardQueue,
  readDelayField,
  REPORT_STEP_MS,
  stampOf,
  writeDelayField,
} from './one-way-delay';

describe('one-way delay', () => {
  it('measures the queue from stamps whatever the clocks’ offset, across the stamp’s wrap', () => {
    const seed = 4242;
    const rng = new Rng(seed);
    for (const offset of [0, 1023, 2047, 123_456.7]) {
      const q = new ForwardQueue();
      // The sender's clock runs `offset` ms ahead; 40 ms path, 0-3 ms jitter, a packet every 20 ms for 4 s
      // (the stamp wraps every 2.048 s), then a queue that builds by 5 ms a packet up to 200 ms.
      let seen = 0;
      for (let t = 0; t < 4000; t += 20) {
        const sentAt = t + offset;
        seen = q.onStamp(t + 40 + rng.next() * 3, stampOf(sentAt));
        expect(seen, `seed ${seed} offset ${offset} at ${t}`).toBeLessThanOrEqual(4);
      }
      for (let i = 1; i <= 40; i++) {
        const t = 4000 + i * 20;
        seen = q.onStamp(t + 40 + i * 5, stampOf(t + offset));
      }
      expect(seen, `seed ${seed} offset ${offset}`).toBeGreaterThanOrEqual(198);
      expect(seen, `seed ${seed} offset ${offset}`).toBeLessThanOrEqual(204);
    }
  });

  it('reports the lowest queue since the last report, once', () => {
    const q = new ForwardQueue();
    expect(q.takeReport()).toBeUndefined();
    q.onStamp(100, stampOf(60)); // the floor: 40 ms
    q.onStamp(200, stampOf(130)); // 30 ms above it
    q.onStamp(300, stampOf(250)); // 10 above
    expect(q.takeReport()).toBe(0);
    q.onStamp(400, stampOf(330));
    q.onStamp(500, stampOf(440));
    expect(q.takeReport()).toBe(20);
    expect(q.takeReport()).toBeUndefined();
  });

  it('forgets a floor older than its window (the route changed)', () => {
    const q = new ForwardQueue();
    q.onStamp(0, stampOf(-10)); // 10 ms once
    for (let t = 100; t < 12_000; t += 100) q.onStamp(t, stampOf(t - 50));
    expect(q.onStamp(12_000, stampOf(12_000 - 50))).toBe(0);
  });

  it('the field round-trips; every value read is valid and the report is capped', () => {
    const w = new BitWriter();
    writeDelayField(w, 5000.6, undefined);
    writeDelayField(w, 77, 30);
    writeDelayField(w, 1, 10_000);
    writeDelayField(w, undefined, undefined);
    const r = new BitReader(w.finish());
    expect(readDelayField(r)).toEqual({ stamp: stampOf(5000.6), reportMs: undefined });
    expect(readDelayField(r)).toEqual({ stamp: 77, reportMs: 32 });
    expect(readDelayField(r)).toEqual({ stamp: 1, reportMs: 127 * REPORT_STEP_MS });
    expect(readDelayField(r)).toEqual({ stamp: undefined, reportMs: undefined });
    // Any 20 bits decode to something (a hostile peer can only lie about its own queue).
    const all = new BitReader(new Uint8Array([0xff, 0xff, 0xff]));
    expect(readDelayField(all)).toEqual({ stamp: 2047, reportMs: 127 * REPORT_STEP_MS });
  });
});
