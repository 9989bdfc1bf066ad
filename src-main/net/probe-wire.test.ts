import { describe, expect, it } from 'vitest';
import { Rng } from './rng';
import {
  decodeProbe,
  encodeProbe,
  encodeProbeReply,
  isProbeDecodeError,
  PROBE_REPLY_SIZE,
  PROBE_SIZE,
} from './probe-wire';

const NONCE = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);

describe('probe wire', () => {
  it('reads back what it writes, and a reply is smaller than its probe', () => {
    const probe = encodeProbe({ version: 6, nonce: NONCE });
    const reply = encodeProbeReply({ version: 6, nonce: NONCE });
    expect(probe.length).toBe(PROBE_SIZE);
    expect(reply.length).toBe(PROBE_REPLY_SIZE);
    expect(reply.length).toBeLessThan(probe.length);
    expect(decodeProbe(probe, 'probe')).toEqual({ version: 6, nonce: NONCE });
    expect(decodeProbe(reply, 'reply')).toEqual({ version: 6, nonce: NONCE });
  });

  it('carries the version and the nonce and nothing else: the rest is zero padding', () => {
    const probe = encodeProbe({ version: 0x1234, nonce: NONCE });
    expect([...probe.slice(0, 11)]).toEqual([0xc6, 0x12, 0x34, ...NONCE]);
    expect(probe.slice(11).every((b) => b === 0)).toBe(true);
  });

  it('refuses a short probe (answering it would amplify), a reply of the wrong length or type', () => {
    const probe = encodeProbe({ version: 6, nonce: NONCE });
    const reply = encodeProbeReply({ version: 6, nonce: NONCE });
    expect(decodeProbe(probe.slice(0, PROBE_SIZE - 1), 'probe')).toEqual({ error: 'short' });
    expect(decodeProbe(new Uint8Array(0), 'probe')).toEqual({ error: 'short' });
    expect(decodeProbe(reply, 'probe')).toEqual({ error: 'unknown-type' });
    expect(decodeProbe(probe, 'reply')).toEqual({ error: 'unknown-type' });
    expect(decodeProbe(reply.slice(0, 5), 'reply')).toEqual({ error: 'short' });
    expect(decodeProbe(Uint8Array.of(...reply, 0), 'reply')).toEqual({ error: 'bad-length' });
    // Longer probes are more padding.
    expect(decodeProbe(Uint8Array.of(...probe, 0, 0), 'probe')).toEqual({
      version: 6,
      nonce: NONCE,
    });
  });

  it('never throws on random bytes (seeded)', () => {
    const seed = 2207;
    const rng = new Rng(seed);
    for (let i = 0; i < 5000; i++) {
      const b = new Uint8Array(rng.int(41));
      for (let j = 0; j < b.length; j++) b[j] = rng.int(256);
      if (rng.next() < 0.5) b[0] = rng.next() < 0.5 ? 0xc6 : 0xc7;
      for (const kind of ['probe', 'reply'] as const) {
        const r = decodeProbe(b, kind);
        if (!isProbeDecodeError(r)) expect(r.nonce.length, `seed ${seed}`).toBe(8);
      }
    }
  });
});
