// Byte codecs for the handshake packets; knows no keys, secrets, sockets or connection state.
import { COOKIE_SIZE, CONFIRM_SIZE } from './crypto.js';
import { CPACE_SHARE_SIZE } from './cpace.js';

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

/** Client nonce length in bytes: echoed in every reply, and half of CPace's session id with the cookie. */
export const CLIENT_NONCE_SIZE = 16;
/**
 * HELLO is padded to more than the largest unauthenticated reply (CHALLENGE, REJECT), so a spoofed source never
 * gets back more bytes than it sent (no amplification, DESIGN.md §3).
 */
export const HELLO_SIZE = 64;
export const CHALLENGE_SIZE = 1 + CLIENT_NONCE_SIZE + COOKIE_SIZE;
export const RESPONSE_SIZE = 1 + 2 + CLIENT_NONCE_SIZE + COOKIE_SIZE + CPACE_SHARE_SIZE;
export const ACCEPT_SIZE = 1 + CLIENT_NONCE_SIZE + CPACE_SHARE_SIZE + CONFIRM_SIZE;
export const REJECT_SIZE = 1 + CLIENT_NONCE_SIZE + 1;

/**
 * Why a host refused a handshake. Unauthenticated: anyone can send one, so a client treats it as a hint until the
 * handshake's grace runs out. A wrong code is not among them: the host cannot tell one (CPace gives it nothing to
 * check), the client finds out when the host's confirmation does not match.
 */
export type RejectReason = 'version-mismatch' | 'full' | 'rate-limited' | 'banned' | 'code-locked';

export const REJECT_REASON_CODES: Readonly<Record<RejectReason, number>> = {
  'version-mismatch': 1,
  // 2 was 'wrong-code' before protocol 4; not reused.
  full: 3,
  'rate-limited': 4,
  banned: 5,
  'code-locked': 6,
};

const REJECT_REASONS_BY_CODE: ReadonlyMap<number, RejectReason> = new Map(
  Object.entries(REJECT_REASON_CODES).map(([reason, code]) => [code, reason as RejectReason]),
);

export function rejectReasonFromCode(code: number): RejectReason | undefined {
  return REJECT_REASONS_BY_CODE.get(code);
}

// Field widths: version u16 BE, nonce 16 B, cookie 20 B, CPace shares 32 B, confirmation 16 B.
export type HandshakePacket =
  | { type: 'hello'; version: number; clientNonce: Uint8Array }
  | { type: 'challenge'; clientNonce: Uint8Array; cookie: Uint8Array }
  | {
      type: 'response';
      version: number;
      clientNonce: Uint8Array;
      cookie: Uint8Array;
      /** The client's CPace share Ya. */
      share: Uint8Array;
    }
  | {
      type: 'accept';
      clientNonce: Uint8Array;
      /** The host's CPace share Yb, from a scalar drawn for this RESPONSE alone. */
      share: Uint8Array;
      /** Key confirmation: proves the host derived the same keys (so knows the code). */
      confirm: Uint8Array;
    }
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
      // The rest stays zero: padding that only exists to make HELLO larger than any reply to it.
      return new ByteWriter(HELLO_SIZE)
        .u8(HANDSHAKE_MARKER | HandshakeType.Hello)
        .u16(p.version)
        .fixed(p.clientNonce, CLIENT_NONCE_SIZE).bytes;
    case 'challenge':
      return new ByteWriter(CHALLENGE_SIZE)
        .u8(HANDSHAKE_MARKER | HandshakeType.Challenge)
        .fixed(p.clientNonce, CLIENT_NONCE_SIZE)
        .fixed(p.cookie, COOKIE_SIZE).bytes;
    case 'response':
      return new ByteWriter(RESPONSE_SIZE)
        .u8(HANDSHAKE_MARKER | HandshakeType.Response)
        .u16(p.version)
        .fixed(p.clientNonce, CLIENT_NONCE_SIZE)
        .fixed(p.cookie, COOKIE_SIZE)
        .fixed(p.share, CPACE_SHARE_SIZE).bytes;
    case 'accept':
      return new ByteWriter(ACCEPT_SIZE)
        .u8(HANDSHAKE_MARKER | HandshakeType.Accept)
        .fixed(p.clientNonce, CLIENT_NONCE_SIZE)
        .fixed(p.share, CPACE_SHARE_SIZE)
        .fixed(p.confirm, CONFIRM_SIZE).bytes;
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
      return { type: 'hello', version: r.u16(), clientNonce: r.fixed(CLIENT_NONCE_SIZE) };
    case HandshakeType.Challenge:
      return {
        type: 'challenge',
        clientNonce: r.fixed(CLIENT_NONCE_SIZE),
        cookie: r.fixed(COOKIE_SIZE),
      };
    case HandshakeType.Response:
      return {
        type: 'response',
        version: r.u16(),
        clientNonce: r.fixed(CLIENT_NONCE_SIZE),
        cookie: r.fixed(COOKIE_SIZE),
        share: r.fixed(CPACE_SHARE_SIZE),
      };
    case HandshakeType.Accept:
      return {
        type: 'accept',
        clientNonce: r.fixed(CLIENT_NONCE_SIZE),
        share: r.fixed(CPACE_SHARE_SIZE),
        confirm: r.fixed(CONFIRM_SIZE),
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

/** What the cookie MACs besides the source address (18 bytes): version and client nonce. */
export function cookieBinding(version: number, clientNonce: Uint8Array): Uint8Array {
  return new ByteWriter(2 + CLIENT_NONCE_SIZE).u16(version).fixed(clientNonce, CLIENT_NONCE_SIZE)
    .bytes;
}

/** CPace's session id: the client's nonce and the host's cookie, so each side contributes fresh bytes. */
export function cpaceSessionId(clientNonce: Uint8Array, cookie: Uint8Array): Uint8Array {
  return new ByteWriter(CLIENT_NONCE_SIZE + COOKIE_SIZE)
    .fixed(clientNonce, CLIENT_NONCE_SIZE)
    .fixed(cookie, COOKIE_SIZE).bytes;
}

/** The channel label of a session's handshakes: a peer joining a host. */
export const SESSION_CHANNEL = 'ghostboard';

/**
 * CPace's channel id: the channel label, the protocol and its version, so no run of another version, nor of
 * another kind of channel (a mirror link's, keyed by a mirror secret), can be spliced in: the same secret under
 * two labels gives unrelated generators, so a join code never opens a mirror link.
 */
export function cpaceChannelId(version: number, channel = SESSION_CHANNEL): Uint8Array {
  const label = new TextEncoder().encode(channel);
  return new ByteWriter(label.length + 2).fixed(label, label.length).u16(version).bytes;
}
