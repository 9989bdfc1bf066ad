// Tests for the handshake packet codecs, including seeded hostile input; uses no network or clock.
import { describe, it, expect } from 'vitest';
import {
  ACCEPT_SIZE,
  CHALLENGE_SIZE,
  HELLO_SIZE,
  REJECT_REASON_CODES,
  REJECT_SIZE,
  RESPONSE_SIZE,
  cookieBinding,
  cpaceChannelId,
  cpaceSessionId,
  decodeHandshake,
  encodeHandshake,
  isHandshakeDecodeError,
  rejectReasonFromCode,
  type HandshakePacket,
  type RejectReason,
} from './handshake.js';

/** mulberry32: a tiny seeded PRNG so hostile-input runs are reproducible from the printed seed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const fill = (length: number, start: number): Uint8Array =>
  Uint8Array.from({ length }, (_, i) => (start + i) & 0xff);

const clientShare = fill(32, 1);
const hostShare = fill(32, 101);
const clientNonce = fill(16, 200);
const cookie = fill(20, 50);

const samples: readonly HandshakePacket[] = [
  { type: 'hello', version: 0x0102, clientNonce },
  { type: 'challenge', clientNonce, cookie },
  { type: 'response', version: 0xfffe, clientNonce, cookie, share: clientShare },
  { type: 'accept', clientNonce, share: hostShare, confirm: fill(16, 77) },
  ...(Object.keys(REJECT_REASON_CODES) as RejectReason[]).map((reason): HandshakePacket => ({
    type: 'reject',
    clientNonce,
    reason,
  })),
];

const sizes: Record<HandshakePacket['type'], number> = {
  hello: HELLO_SIZE,
  challenge: CHALLENGE_SIZE,
  response: RESPONSE_SIZE,
  accept: ACCEPT_SIZE,
  reject: REJECT_SIZE,
};

describe('handshake codecs', () => {
  it.each(samples.map((p) => [p.type, p] as const))('round-trips %s', (_, packet) => {
    const bytes = encodeHandshake(packet);
    expect(bytes).toHaveLength(sizes[packet.type]);
    expect(bytes[0]).toBeGreaterThanOrEqual(0xc0);
    expect(decodeHandshake(bytes)).toEqual(packet);
  });

  it('pins the wire layout of a CHALLENGE, a RESPONSE and an ACCEPT', () => {
    const c = encodeHandshake(samples[1] as HandshakePacket);
    expect(c[0]).toBe(0xc2);
    expect(c.subarray(1, 17)).toEqual(clientNonce);
    expect(c.subarray(17, 37)).toEqual(cookie);
    const r = encodeHandshake(samples[2] as HandshakePacket);
    expect([...r.subarray(0, 3)]).toEqual([0xc3, 0xff, 0xfe]);
    expect(r.subarray(3, 19)).toEqual(clientNonce);
    expect(r.subarray(19, 39)).toEqual(cookie);
    expect(r.subarray(39, 71)).toEqual(clientShare);
    const a = encodeHandshake(samples[3] as HandshakePacket);
    expect(a[0]).toBe(0xc4);
    expect(a.subarray(17, 49)).toEqual(hostShare);
    expect(a.subarray(49, 65)).toEqual(fill(16, 77));
  });

  it('zero-pads HELLO and accepts extra padding', () => {
    const bytes = encodeHandshake(samples[0] as HandshakePacket);
    expect(bytes.subarray(19).every((b) => b === 0)).toBe(true);
    const padded = new Uint8Array(HELLO_SIZE + 50);
    padded.set(bytes);
    expect(decodeHandshake(padded)).toEqual(samples[0]);
  });

  it('copies fields out of the datagram buffer', () => {
    const bytes = encodeHandshake(samples[1] as HandshakePacket);
    const decoded = decodeHandshake(bytes);
    bytes.fill(0);
    expect(decoded).toEqual(samples[1]);
  });

  it('decodes every truncation to an error, never a packet', () => {
    for (const packet of samples) {
      const bytes = encodeHandshake(packet);
      for (let n = 0; n < bytes.length; n++) {
        const r = decodeHandshake(bytes.subarray(0, n));
        expect(r, `${packet.type} cut to ${n}`).toEqual({ error: 'short' });
      }
    }
  });

  it('rejects trailing bytes on all but HELLO', () => {
    for (const packet of samples.filter((p) => p.type !== 'hello')) {
      const bytes = encodeHandshake(packet);
      const longer = new Uint8Array(bytes.length + 1);
      longer.set(bytes);
      expect(decodeHandshake(longer), packet.type).toEqual({ error: 'bad-length' });
    }
  });

  it('rejects unknown types and unknown reject reasons', () => {
    expect(decodeHandshake(Uint8Array.of(0xc0))).toEqual({ error: 'unknown-type' });
    expect(decodeHandshake(Uint8Array.of(0xc6))).toEqual({ error: 'unknown-type' });
    expect(decodeHandshake(Uint8Array.of(0x41, 0, 0))).toEqual({ error: 'unknown-type' });
    const reject = encodeHandshake({ type: 'reject', clientNonce, reason: 'full' });
    for (const code of [0, 2, 7, 255]) {
      reject[17] = code;
      expect(decodeHandshake(reject), `code ${code}`).toEqual({ error: 'bad-reason' });
    }
  });

  it('maps reject reasons both ways', () => {
    for (const [reason, code] of Object.entries(REJECT_REASON_CODES)) {
      expect(rejectReasonFromCode(code)).toBe(reason);
    }
    expect(rejectReasonFromCode(0)).toBeUndefined();
  });

  it('asserts field widths when encoding', () => {
    const bad = { type: 'hello', version: 1, clientNonce: fill(15, 0) } as const;
    expect(() => encodeHandshake(bad)).toThrow(RangeError);
    expect(() => encodeHandshake({ ...bad, clientNonce, version: 0x10000 })).toThrow(RangeError);
    expect(() =>
      encodeHandshake({ type: 'accept', clientNonce, share: hostShare, confirm: fill(15, 0) }),
    ).toThrow(RangeError);
  });

  it('never throws on 100,000 seeded random handshake-marked datagrams', () => {
    const seed = 0x9e3779b9;
    const next = mulberry32(seed);
    let packets = 0;
    for (let i = 0; i < 100_000; i++) {
      const bytes = new Uint8Array(next() % 130);
      for (let j = 0; j < bytes.length; j++) bytes[j] = next() & 0xff;
      if (bytes.length > 0) bytes[0] = 0xc0 | (bytes[0] ?? 0);
      let r;
      try {
        r = decodeHandshake(bytes);
      } catch (e) {
        expect.fail(`seed ${seed}, iteration ${i}: threw ${String(e)}`);
      }
      if (!isHandshakeDecodeError(r)) packets++;
    }
    // HELLO needs only its length and marker, so some random inputs decode; all must return.
    expect(packets, `seed ${seed}`).toBeGreaterThan(0);
  });
});

describe('anti-amplification', () => {
  it('never answers an unauthenticated packet with more bytes than it received', () => {
    // Replies to HELLO: CHALLENGE or REJECT. Replies to RESPONSE: ACCEPT or REJECT.
    expect(CHALLENGE_SIZE).toBeLessThanOrEqual(HELLO_SIZE);
    expect(REJECT_SIZE).toBeLessThanOrEqual(HELLO_SIZE);
    expect(ACCEPT_SIZE).toBeLessThanOrEqual(RESPONSE_SIZE);
    expect(REJECT_SIZE).toBeLessThanOrEqual(RESPONSE_SIZE);
  });
});

describe('cookie binding and CPace inputs', () => {
  it('binds the version and the nonce', () => {
    const b = cookieBinding(1, clientNonce);
    expect(b).toHaveLength(18);
    expect(cookieBinding(2, clientNonce)).not.toEqual(b);
    expect(cookieBinding(1, fill(16, 0))).not.toEqual(b);
  });

  it('makes the session id from the nonce and the cookie, and the channel id from the version', () => {
    const sid = cpaceSessionId(clientNonce, cookie);
    expect(sid).toHaveLength(36);
    expect(sid.subarray(0, 16)).toEqual(clientNonce);
    expect(sid.subarray(16)).toEqual(cookie);
    expect(Buffer.from(cpaceChannelId(4)).toString('latin1')).toBe('ghostboard\x00\x04');
    expect(cpaceChannelId(5)).not.toEqual(cpaceChannelId(4));
  });

  it('puts the channel label in the channel id: a mirror link never shares a session handshake generator', () => {
    expect(cpaceChannelId(4, 'ghostboard')).toEqual(cpaceChannelId(4));
    expect(Buffer.from(cpaceChannelId(4, 'ghostboard/mirror')).toString('latin1')).toBe(
      'ghostboard/mirror\x00\x04',
    );
    expect(cpaceChannelId(4, 'ghostboard/mirror')).not.toEqual(cpaceChannelId(4));
  });
});
