import { describe, expect, it } from 'vitest';
import { decodeRendezvous, encodeRendezvous } from '../net/rendezvous';
import { Rng } from '../net/rng';
import { Reflector } from './reflector';

const from = { address: '198.51.100.7', port: 50_123 };

describe('reflector', () => {
  it('answers a probe with where it sees the sender, never in more bytes than it got', () => {
    const r = new Reflector();
    const probe = encodeRendezvous({ type: 'probe', request: 42 });
    r.handleDatagram(0, from, probe);
    const reply = r.pollTransmit();
    expect(reply?.to).toEqual(from);
    expect(reply?.bytes.length).toBeLessThanOrEqual(probe.length);
    expect(decodeRendezvous(reply?.bytes ?? new Uint8Array())).toMatchObject({
      type: 'cookie',
      request: 42,
      observed: from,
    });
    expect(r.pollTransmit()).toBeUndefined();
  });

  it('answers nothing but probes, drops garbage, and limits each source (seeded)', () => {
    const seed = 0x7ef1;
    const rng = new Rng(seed);
    const r = new Reflector({ burst: 3, perSecond: 1 });
    for (let i = 0; i < 2000; i++) {
      const junk = rng.bytes(rng.int(80));
      // Anything but a probe (random bytes make a well-formed one now and then: 0xE1 and 48 bytes is all it takes).
      if (junk[0] === 0xe1) junk[0] = 0xe2;
      r.handleDatagram(0, from, junk);
    }
    r.handleDatagram(0, from, encodeRendezvous({ type: 'punch', nonce: new Uint8Array(8) }));
    expect(r.pollTransmit(), `seed ${seed}`).toBeUndefined();
    expect(r.counters.malformed + r.counters.unexpected).toBe(2001);
    const probe = encodeRendezvous({ type: 'probe', request: 1 });
    for (let i = 0; i < 10; i++) r.handleDatagram(0, from, probe);
    let replies = 0;
    while (r.pollTransmit() !== undefined) replies++;
    expect(replies).toBe(3);
    expect(r.counters.rateLimited).toBe(7);
    // Another source has its own budget; a second later the first has one more.
    r.handleDatagram(0, { address: '203.0.113.5', port: 1 }, probe);
    r.handleDatagram(1000, from, probe);
    expect([r.pollTransmit(), r.pollTransmit(), r.pollTransmit()].filter(Boolean)).toHaveLength(2);
  });
});
