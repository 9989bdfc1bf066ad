// Session keys from CPace's ISK, ChaCha20-Poly1305 sealing, cookies; knows no packet layouts or clocks.
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { normalizeJoinCode } from './join-code.js';

/** Per-direction AEAD key length in bytes (ChaCha20-Poly1305). */
export const SESSION_KEY_SIZE = 32;
/** The host's key confirmation in ACCEPT, in bytes (a truncated HKDF output). */
export const CONFIRM_SIZE = 16;
/**
 * Poly1305 tag appended to every sealed packet, in bytes: the first 80 bits of the 128-bit tag, SRTP's default
 * for small real-time packets (RFC 3711's HMAC-SHA1-80). A forged packet passes with probability about 2^-80,
 * so an attacker must send some 2^79 of them for one to get through, and every failure is counted and dropped;
 * the 6 bytes saved are a tenth of a pointer packet on the wire (IP/UDP header included).
 */
export const SEAL_OVERHEAD = 10;
/** Cookie length in bytes: 4-byte timestamp (s) + 16-byte truncated HMAC. */
export const COOKIE_SIZE = 20;
/** How long a cookie stays valid after minting, in milliseconds. */
export const COOKIE_LIFETIME_MS = 10_000;
/** Clock skew tolerated for cookies stamped in the future, in milliseconds. */
const COOKIE_FUTURE_SKEW_MS = 2_000;
const COOKIE_MAC_SIZE = COOKIE_SIZE - 4;
const NONCE_SIZE = 12;
const TWO_POW_32 = 0x1_0000_0000;

export interface SessionKeys {
  /** AEAD key for packets the client sends, 32 bytes. */
  readonly clientToHost: Uint8Array;
  /** AEAD key for packets the host sends, 32 bytes. */
  readonly hostToClient: Uint8Array;
  /**
   * Sent by the host in ACCEPT so the client knows the host holds the same keys (so the same code) before it sends
   * anything sealed, 16 bytes. The client's confirmation is its first sealed packet: only a holder of the keys can
   * seal one that opens.
   */
  readonly hostConfirm: Uint8Array;
}

const SESSION_KEYS_SALT = new TextEncoder().encode('ghostboard/session-keys/v4');

/** The bytes CPace's generator is derived from: the join code in the form both sides normalize it to. */
export function joinCodeSecret(joinCode: string): Uint8Array {
  return new TextEncoder().encode(normalizeJoinCode(joinCode));
}

/** Expands CPace's intermediate session key (which already binds the code, both shares and the session id). */
export function deriveSessionKeys(isk: Uint8Array): SessionKeys {
  const expand = (label: string, length: number): Uint8Array =>
    new Uint8Array(hkdfSync('sha256', isk, SESSION_KEYS_SALT, label, length));
  return {
    clientToHost: expand('c2h key', SESSION_KEY_SIZE),
    hostToClient: expand('h2c key', SESSION_KEY_SIZE),
    hostConfirm: expand('host confirm', CONFIRM_SIZE),
  };
}

function isSeq(seq: number): boolean {
  return Number.isSafeInteger(seq) && seq >= 0;
}

/**
 * 96-bit nonce: 4 zero bytes || seq as u64 BE. Each key serves one direction only, so a nonce
 * never repeats under a key as long as the sender never reuses a sequence number. Written into one
 * shared buffer: createCipheriv / createDecipheriv copy the nonce before returning, and nothing here
 * yields in between.
 */
const nonce = Buffer.alloc(NONCE_SIZE);
function nonceFor(seq: number): Buffer {
  nonce.writeUInt32BE(Math.floor(seq / TWO_POW_32), 4);
  nonce.writeUInt32BE(seq >>> 0, 8);
  return nonce;
}

/** Returns header || ciphertext || tag; the header travels in clear but is authenticated. */
export function seal(
  key: Uint8Array,
  seq: number,
  header: Uint8Array,
  plaintext: Uint8Array,
): Uint8Array {
  if (!isSeq(seq)) {
    throw new RangeError(`seal: seq must be a non-negative safe integer, got ${seq}`);
  }
  const cipher = createCipheriv('chacha20-poly1305', key, nonceFor(seq), {
    authTagLength: SEAL_OVERHEAD,
  });
  cipher.setAAD(header, { plaintextLength: plaintext.length });
  // A plain Uint8Array (not a pooled Buffer) so `.buffer` holds only this packet.
  const out = new Uint8Array(header.length + plaintext.length + SEAL_OVERHEAD);
  out.set(header, 0);
  // A stream cipher emits exactly as many bytes as it is given, all from update().
  out.set(cipher.update(plaintext), header.length);
  cipher.final();
  out.set(cipher.getAuthTag(), header.length + plaintext.length);
  return out;
}

/** Returns the plaintext, or null for anything forged, truncated or keyed wrongly; never throws. */
export function open(
  key: Uint8Array,
  seq: number,
  packet: Uint8Array,
  headerLength: number,
): Uint8Array | null {
  if (!isSeq(seq) || !Number.isInteger(headerLength) || headerLength < 0) return null;
  const tagStart = packet.length - SEAL_OVERHEAD;
  if (tagStart < headerLength) return null;
  try {
    const decipher = createDecipheriv('chacha20-poly1305', key, nonceFor(seq), {
      authTagLength: SEAL_OVERHEAD,
    });
    decipher.setAAD(packet.subarray(0, headerLength), { plaintextLength: tagStart - headerLength });
    decipher.setAuthTag(packet.subarray(tagStart));
    const plaintext = decipher.update(packet.subarray(headerLength, tagStart));
    decipher.final(); // throws on a bad tag; the plaintext is released only after this passes
    return new Uint8Array(plaintext.buffer, plaintext.byteOffset, plaintext.length);
  } catch {
    return null;
  }
}

/**
 * Stateless return-routability cookie (DTLS HelloVerifyRequest, netcode.io challenge tokens):
 * the host keeps nothing per source until a client echoes a cookie minted for its address.
 */
export class CookieMinter {
  #secret: Uint8Array;
  /** The secret before the last rotation: cookies minted just before it stay valid for their lifetime. */
  #previous: Uint8Array | undefined;

  constructor(secret: Uint8Array = randomBytes(32)) {
    this.#secret = Uint8Array.from(secret);
  }

  /** A fresh secret; the old one still verifies until the next rotation (rotate less often than the lifetime). */
  rotate(secret: Uint8Array = randomBytes(32)): void {
    this.#previous = this.#secret;
    this.#secret = Uint8Array.from(secret);
  }

  /** `now` in ms; `source` is the peer address as the transport names it; `bound` fixed-width. */
  mint(now: number, source: string, bound: Uint8Array): Uint8Array {
    const seconds = Math.floor(now / 1000) >>> 0;
    const cookie = new Uint8Array(COOKIE_SIZE);
    new DataView(cookie.buffer).setUint32(0, seconds);
    cookie.set(this.#mac(this.#secret, cookie.subarray(0, 4), source, bound), 4);
    return cookie;
  }

  verify(now: number, source: string, bound: Uint8Array, cookie: Uint8Array): boolean {
    if (cookie.length !== COOKIE_SIZE) return false;
    const stamp = new DataView(cookie.buffer, cookie.byteOffset, 4).getUint32(0);
    const nowSeconds = Math.floor(now / 1000);
    // The stamp is u32 seconds; read it relative to now so the wrap in 2106 is harmless.
    const stampMs = (nowSeconds - (((nowSeconds >>> 0) - stamp) | 0)) * 1000;
    const ageMs = now - stampMs;
    if (ageMs > COOKIE_LIFETIME_MS || ageMs < -COOKIE_FUTURE_SKEW_MS) return false;
    const stampBytes = cookie.subarray(0, 4);
    const mac = cookie.subarray(4);
    if (timingSafeEqual(this.#mac(this.#secret, stampBytes, source, bound), mac)) return true;
    const previous = this.#previous;
    return (
      previous !== undefined && timingSafeEqual(this.#mac(previous, stampBytes, source, bound), mac)
    );
  }

  #mac(secret: Uint8Array, stamp: Uint8Array, source: string, bound: Uint8Array): Buffer {
    // Addresses hold no NUL, so the 0 byte ends the source and no other (source, bound) pair
    // can produce the same MAC input.
    return createHmac('sha256', secret)
      .update(stamp)
      .update(source, 'utf8')
      .update(new Uint8Array(1))
      .update(bound)
      .digest()
      .subarray(0, COOKIE_MAC_SIZE);
  }
}
