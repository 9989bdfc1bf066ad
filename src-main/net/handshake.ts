// Byte codecs for the handshake packets; knows no keys, secrets, sockets or connection state.
import { COOKIE_SIZE, PROOF_SIZE, PUBLIC_KEY_SIZE } from './crypto.js';

/** First-byte marker: data packets use top bits 00/01/10, so a first byte ≥ 0xC0 is handshake. */
export const HANDSHAKE_MARKER = 0xc0;

export const HandshakeType = {
  Hello: 1,
  Challenge: 2,
  Response: 3,
  Accept: 4,
  Reject: 5,
} as const;
export type HandshakeType = (typeof HandshakeType)[keyof typeof HandshakeType];

/** Client nonce length in bytes; echoed by the host so the client can match replies. */
export const CLIENT_NONCE_SIZE = 8;
/**
 * HELLO is padded to the largest unauthenticated reply (CHALLENGE, REJECT) or more, so a spoofed
 * source never gets back more bytes than it sent (no amplification, DESIGN.md §3).
 */
export const HELLO_SIZE = 96;
export const CHALLENGE_SIZE = 62;
export const RESPONSE_SIZE = 80;
export const ACCEPT_SIZE = 25;
export const REJECT_SIZE = 10;
/** The host's ephemeral key lives this long (ms); the epoch byte says which key a RESPONSE used. */
export const HOST_KEY_ROTATION_MS = 300_000;

export type RejectReason = 'version-mismatch' | 'wrong-code' | 'full' | 'rate-limited' | 'banned';

export const REJECT_REASON_CODES: Readonly<Record<RejectReason, number>> = {
  'version-mismatch': 1,
  'wrong-code': 2,
  full: 3,
  'rate-limited': 4,
  banned: 5,
};

const REJECT_REASONS_BY_CODE: ReadonlyMap<number, RejectReason> = new Map(
  Object.entries(REJECT_REASON_CODES).map(([reason, code]) => [code, reason as RejectReason]),
);

export function rejectReasonFromCode(code: number): RejectReason | undefined {
  return REJECT_REASONS_BY_CODE.get(code);
}

// Field widths: version u16 BE, epoch u8, keys 32 B, nonce 8 B, cookie 20 B, proofs 16 B.
export type HandshakePacket =
  | { type: 'hello'; version: number; clientPublic: Uint8Array; clientNonce: Uint8Array }
  | {
      type: 'challenge';
      clientNonce: Uint8Array;
      epoch: number;
      hostPublic: Uint8Array;
      cookie: Uint8Array;
    }
  | {
      type: 'response';
      version: number;
      clientPublic: Uint8Array;
      clientNonce: Uint8Array;
      epoch: number;
      cookie: Uint8Array;
      clientProof: Uint8Array;
    }
  | { type: 'accept'; clientNonce: Uint8Array; hostProof: Uint8Array }
  | { type: 'reject'; clientNonce: Uint8Array; reason: RejectReason };

export interface HandshakeDecodeError {
  readonly error: 'short' | 'unknown-type' | 'bad-length' | 'bad-reason';
}

export function isHandshakeDecodeError(
  r: HandshakePacket | HandshakeDecodeError,
): r is HandshakeDecodeError {
  return 'error' in r;
}

/** Sequential fixed-width writer; a wrong field width is a programmer error, so it asserts. */
class ByteWriter {
  readonly bytes: Uint8Array;
  #at = 0;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
  }
  u8(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xff) throw new RangeError(`u8 out of range: ${v}`);
    this.bytes[this.#at++] = v;
    return this;
  }
  u16(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xffff) throw new RangeError(`u16 out of range: ${v}`);
    return this.u8(v >>> 8).u8(v & 0xff);
  }
  fixed(v: Uint8Array, width: number): this {
    if (v.length !== width) throw new RangeError(`field must be ${width} bytes, got ${v.length}`);
    this.bytes.set(v, this.#at);
    this.#at += width;
    return this;
  }
}

/** Reader over a buffer whose length the caller has already checked. */
class ByteReader {
  #at = 0;
  constructor(private readonly bytes: Uint8Array) {}
  u8(): number {
    return this.bytes[this.#at++] ?? 0;
  }
  u16(): number {
    return (this.u8() << 8) | this.u8();
  }
  /** Copies so callers never alias (and later see reuse of) the datagram buffer. */
  fixed(width: number): Uint8Array {
    this.#at += width;
    return this.bytes.slice(this.#at - width, this.#at);
  }
}

export function encodeHandshake(p: HandshakePacket): Uint8Array {
  switch (p.type) {
    case 'hello':
      // The rest stays zero: padding that only exists to make HELLO at least as large as a reply.
      return new ByteWriter(HELLO_SIZE)
        .u8(HANDSHAKE_MARKER | HandshakeType.Hello)
        .u16(p.version)
        .fixed(p.clientPublic, PUBLIC_KEY_SIZE)
        .fixed(p.clientNonce, CLIENT_NONCE_SIZE).bytes;
    case 'challenge':
      return new ByteWriter(CHALLENGE_SIZE)
        .u8(HANDSHAKE_MARKER | HandshakeType.Challenge)
        .fixed(p.clientNonce, CLIENT_NONCE_SIZE)
        .u8(p.epoch)
        .fixed(p.hostPublic, PUBLIC_KEY_SIZE)
        .fixed(p.cookie, COOKIE_SIZE).bytes;
    case 'response':
      return new ByteWriter(RESPONSE_SIZE)
        .u8(HANDSHAKE_MARKER | HandshakeType.Response)
        .u16(p.version)
        .fixed(p.clientPublic, PUBLIC_KEY_SIZE)
        .fixed(p.clientNonce, CLIENT_NONCE_SIZE)
        .u8(p.epoch)
        .fixed(p.cookie, COOKIE_SIZE)
        .fixed(p.clientProof, PROOF_SIZE).bytes;
    case 'accept':
      return new ByteWriter(ACCEPT_SIZE)
        .u8(HANDSHAKE_MARKER | HandshakeType.Accept)
        .fixed(p.clientNonce, CLIENT_NONCE_SIZE)
        .fixed(p.hostProof, PROOF_SIZE).bytes;
    case 'reject':
      return new ByteWriter(REJECT_SIZE)
        .u8(HANDSHAKE_MARKER | HandshakeType.Reject)
        .fixed(p.clientNonce, CLIENT_NONCE_SIZE)
        .u8(REJECT_REASON_CODES[p.reason]).bytes;
  }
}

const SIZE_BY_TYPE: ReadonlyMap<number, number> = new Map([
  [HandshakeType.Hello, HELLO_SIZE],
  [HandshakeType.Challenge, CHALLENGE_SIZE],
  [HandshakeType.Response, RESPONSE_SIZE],
  [HandshakeType.Accept, ACCEPT_SIZE],
  [HandshakeType.Reject, REJECT_SIZE],
]);

/** Hostile input returns a typed error and never throws. */
export function decodeHandshake(bytes: Uint8Array): HandshakePacket | HandshakeDecodeError {
  const first = bytes[0];
  if (first === undefined) return { error: 'short' };
  const type = first & ~HANDSHAKE_MARKER;
  const size = SIZE_BY_TYPE.get(type);
  if ((first & HANDSHAKE_MARKER) !== HANDSHAKE_MARKER || size === undefined) {
    return { error: 'unknown-type' };
  }
  if (bytes.length < size) return { error: 'short' };
  // HELLO may carry extra padding (the host replies with less either way); the rest are exact.
  if (bytes.length > size && type !== HandshakeType.Hello) return { error: 'bad-length' };
  const r = new ByteReader(bytes);
  r.u8();
  switch (type) {
    case HandshakeType.Hello:
      return {
        type: 'hello',
        version: r.u16(),
        clientPublic: r.fixed(PUBLIC_KEY_SIZE),
        clientNonce: r.fixed(CLIENT_NONCE_SIZE),
      };
    case HandshakeType.Challenge:
      return {
        type: 'challenge',
        clientNonce: r.fixed(CLIENT_NONCE_SIZE),
        epoch: r.u8(),
        hostPublic: r.fixed(PUBLIC_KEY_SIZE),
        cookie: r.fixed(COOKIE_SIZE),
      };
    case HandshakeType.Response:
      return {
        type: 'response',
        version: r.u16(),
        clientPublic: r.fixed(PUBLIC_KEY_SIZE),
        clientNonce: r.fixed(CLIENT_NONCE_SIZE),
        epoch: r.u8(),
        cookie: r.fixed(COOKIE_SIZE),
        clientProof: r.fixed(PROOF_SIZE),
      };
    case HandshakeType.Accept:
      return {
        type: 'accept',
        clientNonce: r.fixed(CLIENT_NONCE_SIZE),
        hostProof: r.fixed(PROOF_SIZE),
      };
    default: {
      const clientNonce = r.fixed(CLIENT_NONCE_SIZE);
      const reason = rejectReasonFromCode(r.u8());
      return reason === undefined
        ? { error: 'bad-reason' }
        : { type: 'reject', clientNonce, reason };
    }
  }
}

interface TranscriptFields {
  readonly version: number;
  readonly clientPublic: Uint8Array;
  readonly clientNonce: Uint8Array;
  readonly epoch: number;
  readonly hostPublic: Uint8Array;
  readonly cookie: Uint8Array;
}

/** Fixed order and widths (95 bytes) so host and client hash identical bytes. */
export function handshakeTranscript(p: TranscriptFields): Uint8Array {
  return new ByteWriter(2 + PUBLIC_KEY_SIZE + CLIENT_NONCE_SIZE + 1 + PUBLIC_KEY_SIZE + COOKIE_SIZE)
    .u16(p.version)
    .fixed(p.clientPublic, PUBLIC_KEY_SIZE)
    .fixed(p.clientNonce, CLIENT_NONCE_SIZE)
    .u8(p.epoch)
    .fixed(p.hostPublic, PUBLIC_KEY_SIZE)
    .fixed(p.cookie, COOKIE_SIZE).bytes;
}

/**
 * What the cookie MACs besides the source address (43 bytes): a cookie minted for one HELLO
 * cannot be replayed with another client key, nonce, version or host key epoch.
 */
export function cookieBinding(
  version: number,
  clientPublic: Uint8Array,
  clientNonce: Uint8Array,
  epoch: number,
): Uint8Array {
  return new ByteWriter(2 + PUBLIC_KEY_SIZE + CLIENT_NONCE_SIZE + 1)
    .u16(version)
    .fixed(clientPublic, PUBLIC_KEY_SIZE)
    .fixed(clientNonce, CLIENT_NONCE_SIZE)
    .u8(epoch).bytes;
}
