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
  decodeHandshake,
  encodeHandshake,
  handshakeTranscript,
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

const clientPublic = fill(32, 1);
const hostPublic = fill(32, 101);
const clientNonce = fill(8, 200);
const cookie = fill(20, 50);

const samples: readonly HandshakePacket[] = [
  { type: 'hello', version: 0x0102, clientPublic, clientNonce },
  { type: 'challenge', clientNonce, epoch: 7, hostPublic, cookie },
  {
    type: 'response',
    version: 0xfffe,
    clientPublic,
    clientNonce,
    epoch: 255,
    cookie,
    clientProof: fill(16, 9),
  },
  { type: 'accept', clientNonce, hostProof: fill(16, 77) },
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

  it('pins the wire layout of a CHALLENGE', () => {
    const bytes = encodeHandshake(samples[1] as HandshakePacket);
    expect(bytes[0]).toBe(0xc2);
    expect(bytes.subarray(1, 9)).toEqual(clientNonce);
    expect(bytes[9]).toBe(7);
    expect(bytes.subarray(10, 42)).toEqual(hostPublic);
    expect(bytes.subarray(42, 62)).toEqual(cookie);
  });

  it('zero-pads HELLO and accepts extra padding', () => {
    const bytes = encodeHandshake(samples[0] as HandshakePacket);
    expect(bytes.subarray(43).every((b) => b === 0)).toBe(true);
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
    for (const code of [0, 6, 255]) {
      reject[9] = code;
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
    const bad = { type: 'hello', version: 1, clientPublic: fill(31, 0), clientNonce } as const;
    expect(() => encodeHandshake(bad)).toThrow(RangeError);
    expect(() => encodeHandshake({ ...bad, clientPublic, version: 0x10000 })).toThrow(RangeError);
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

describe('transcript and cookie binding', () => {
  const fields = { version: 1, clientPublic, clientNonce, epoch: 3, hostPublic, cookie };

  it('has fixed widths and depends on every field', () => {
    const t = handshakeTranscript(fields);
    expect(t).toHaveLength(95);
    const variants = [
      { ...fields, version: 2 },
      { ...fields, clientPublic: hostPublic },
      { ...fields, clientNonce: fill(8, 0) },
      { ...fields, epoch: 4 },
      { ...fields, hostPublic: clientPublic },
      { ...fields, cookie: fill(20, 0) },
    ];
    for (const v of variants) expect(handshakeTranscript(v)).not.toEqual(t);
  });

  it('binds version, client key, nonce and epoch', () => {
    const b = cookieBinding(1, clientPublic, clientNonce, 3);
    expect(b).toHaveLength(43);
    expect(cookieBinding(1, clientPublic, clientNonce, 4)).not.toEqual(b);
    expect(cookieBinding(2, clientPublic, clientNonce, 3)).not.toEqual(b);
  });
});
