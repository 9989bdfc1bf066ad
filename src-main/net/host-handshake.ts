// The host's side of the handshake: stateless cookie challenge, then proof of the join code and key agreement.
// Keeps no per-source state before a valid cookie comes back. Knows nothing of sockets or connections.
import type { KeyPair, SessionKeys } from './crypto';
import { CookieMinter, deriveSessionKeys, generateKeyPair, x25519 } from './crypto';
import type { HandshakePacket, RejectReason } from './handshake';
import {
  cookieBinding,
  encodeHandshake,
  handshakeTranscript,
  HOST_KEY_ROTATION_MS,
} from './handshake';
import { timingSafeEqual } from 'node:crypto';

type Hello = Extract<HandshakePacket, { type: 'hello' }>;
type Response = Extract<HandshakePacket, { type: 'response' }>;

/** What to do with a RESPONSE. */
export type ResponseOutcome =
  | { readonly kind: 'accept'; readonly keys: SessionKeys; readonly reply: Uint8Array }
  | { readonly kind: 'reject'; readonly reason: RejectReason; readonly reply: Uint8Array }
  /** Dropped without a reply: bad or stale cookie, unknown key epoch, invalid key. */
  | { readonly kind: 'drop'; readonly why: 'cookie' | 'epoch' | 'key' };

interface EpochKey {
  readonly epoch: number;
  readonly pair: KeyPair;
  readonly createdAt: number;
}

export class HostHandshake {
  private readonly cookies = new CookieMinter();
  private current: EpochKey;
  private previous: EpochKey | undefined;

  constructor(
    private joinCode: string,
    private readonly version: number,
    now: number,
  ) {
    this.current = { epoch: 0, pair: generateKeyPair(), createdAt: now };
  }

  /** A HELLO gets a CHALLENGE (or a version REJECT), both smaller than the padded HELLO. */
  onHello(now: number, source: string, hello: Hello): Uint8Array {
    if (hello.version !== this.version) return reject(hello.clientNonce, 'version-mismatch');
    this.rotate(now);
    const { epoch, pair } = this.current;
    const cookie = this.cookies.mint(
      now,
      source,
      cookieBinding(hello.version, hello.clientPublic, hello.clientNonce, epoch),
    );
    return encodeHandshake({
      type: 'challenge',
      clientNonce: hello.clientNonce,
      epoch,
      hostPublic: pair.publicKey,
      cookie,
    });
  }

  /**
   * Checks a RESPONSE: the cookie proves the client owns its address (only then
   * is any work or state spent on it), the proof shows it knows the join code.
   */
  onResponse(now: number, source: string, res: Response): ResponseOutcome {
    if (res.version !== this.version) {
      return {
        kind: 'reject',
        reason: 'version-mismatch',
        reply: reject(res.clientNonce, 'version-mismatch'),
      };
    }
    const binding = cookieBinding(res.version, res.clientPublic, res.clientNonce, res.epoch);
    if (!this.cookies.verify(now, source, binding, res.cookie))
      return { kind: 'drop', why: 'cookie' };
    const key = [this.current, this.previous].find((k) => k?.epoch === res.epoch);
    if (key === undefined) return { kind: 'drop', why: 'epoch' };
    const shared = x25519(key.pair.privateKey, res.clientPublic);
    if (shared === null) return { kind: 'drop', why: 'key' };
    const transcript = handshakeTranscript({
      version: res.version,
      clientPublic: res.clientPublic,
      clientNonce: res.clientNonce,
      epoch: res.epoch,
      hostPublic: key.pair.publicKey,
      cookie: res.cookie,
    });
    const keys = deriveSessionKeys(shared, this.joinCode, transcript);
    if (!timingSafeEqual(keys.clientProof, res.clientProof)) {
      return { kind: 'reject', reason: 'wrong-code', reply: reject(res.clientNonce, 'wrong-code') };
    }
    const reply = encodeHandshake({
      type: 'accept',
      clientNonce: res.clientNonce,
      hostProof: keys.hostProof,
    });
    return { kind: 'accept', keys, reply };
  }

  setJoinCode(code: string): void {
    this.joinCode = code;
  }

  /** A new host key every few minutes limits what one leaked key exposes; the previous one stays valid for late RESPONSEs. */
  private rotate(now: number): void {
    if (now - this.current.createdAt < HOST_KEY_ROTATION_MS) return;
    this.previous = this.current;
    this.current = {
      epoch: (this.current.epoch + 1) & 0xff,
      pair: generateKeyPair(),
      createdAt: now,
    };
  }
}

export function reject(clientNonce: Uint8Array, reason: RejectReason): Uint8Array {
  return encodeHandshake({ type: 'reject', clientNonce, reason });
}
