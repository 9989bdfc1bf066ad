// The host's side of the handshake: a stateless cookie challenge, then CPace on the client's share with a scalar
// drawn for that RESPONSE alone. Keeps no per-source state before a valid cookie comes back; knows nothing of
// sockets, connections or limits (the endpoint decides whether a RESPONSE is answered at all).
import { timingSafeEqual } from 'node:crypto';
import type { CpaceInputs } from './cpace';
import { cpaceIsk, cpaceShare } from './cpace';
import type { SessionKeys } from './crypto';
import { CookieMinter, deriveSessionKeys, joinCodeSecret } from './crypto';
import type { HandshakePacket, RejectReason } from './handshake';
import {
  cookieBinding,
  cpaceChannelId,
  cpaceSessionId,
  encodeHandshake,
  SESSION_CHANNEL,
} from './handshake';

type Hello = Extract<HandshakePacket, { type: 'hello' }>;
type Response = Extract<HandshakePacket, { type: 'response' }>;

/**
 * The cookie secret is replaced this often (ms); the one before stays valid until the next rotation, so every
 * cookie lives its full lifetime and a secret is in use for at most two periods.
 */
export const COOKIE_ROTATION_MS = 60_000;

/** What to do with a RESPONSE whose cookie checked out. */
export type ResponseOutcome =
  | { readonly kind: 'accept'; readonly keys: SessionKeys; readonly reply: Uint8Array }
  | { readonly kind: 'reject'; readonly reason: RejectReason; readonly reply: Uint8Array }
  /** Dropped without a reply: a share that is not a group element or leads to the identity. */
  | { readonly kind: 'drop'; readonly why: 'share' };

export class HostHandshake {
  private readonly cookies = new CookieMinter();
  private prs: Uint8Array;
  private rotatedAt: number;

  constructor(
    joinCode: string,
    private readonly version: number,
    now: number,
    /** CPace's channel label (see cpaceChannelId). */
    private readonly channel = SESSION_CHANNEL,
  ) {
    this.prs = joinCodeSecret(joinCode);
    this.rotatedAt = now;
  }

  /** A HELLO gets a CHALLENGE (or a version REJECT), both smaller than the padded HELLO. */
  onHello(now: number, source: string, hello: Hello): Uint8Array {
    if (hello.version !== this.version) return reject(hello.clientNonce, 'version-mismatch');
    const cookie = this.cookies.mint(now, source, cookieBinding(hello.version, hello.clientNonce));
    return encodeHandshake({ type: 'challenge', clientNonce: hello.clientNonce, cookie });
  }

  /** Whether a RESPONSE's cookie was minted here for this source, version and nonce, and is still fresh. Cheap. */
  cookieValid(now: number, source: string, res: Response): boolean {
    return this.cookies.verify(
      now,
      source,
      cookieBinding(res.version, res.clientNonce),
      res.cookie,
    );
  }

  /**
   * Runs CPace for a RESPONSE whose cookie is valid: a fresh scalar, the shared key, and an ACCEPT with the host's
   * share and confirmation. A replay of the same RESPONSE gets another scalar, so other keys: the host never
   * sends twice under one key and nonce.
   */
  onResponse(res: Response): ResponseOutcome {
    if (res.version !== this.version) {
      return {
        kind: 'reject',
        reason: 'version-mismatch',
        reply: reject(res.clientNonce, 'version-mismatch'),
      };
    }
    const inputs: CpaceInputs = {
      prs: this.prs,
      ci: cpaceChannelId(res.version, this.channel),
      sid: cpaceSessionId(res.clientNonce, res.cookie),
    };
    const own = cpaceShare(inputs);
    const isk = cpaceIsk(inputs, own.scalar, res.share, own.share, false);
    if (isk === null) return { kind: 'drop', why: 'share' };
    const keys = deriveSessionKeys(isk);
    const reply = encodeHandshake({
      type: 'accept',
      clientNonce: res.clientNonce,
      share: own.share,
      confirm: keys.hostConfirm,
    });
    return { kind: 'accept', keys, reply };
  }

  setJoinCode(code: string): void {
    this.prs = joinCodeSecret(code);
  }

  /** When the cookie secret is next replaced. */
  nextRotation(): number {
    return this.rotatedAt + COOKIE_ROTATION_MS;
  }

  /** Replaces the cookie secret once its period is over; call from the endpoint's timer. */
  rotate(now: number): void {
    if (now < this.nextRotation()) return;
    this.cookies.rotate();
    this.rotatedAt = now;
  }
}

export function reject(clientNonce: Uint8Array, reason: RejectReason): Uint8Array {
  return encodeHandshake({ type: 'reject', clientNonce, reason });
}

/** Constant-time equality of two byte strings of public length. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
