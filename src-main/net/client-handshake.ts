// The client's side of the handshake: HELLO, then RESPONSE with a proof of the join code, retried until
// the host answers or the attempt times out. Sans-IO; knows nothing of sockets or connections.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyPair, SessionKeys } from './crypto';
import { deriveSessionKeys, generateKeyPair, x25519 } from './crypto';
import type { HandshakePacket, RejectReason } from './handshake';
import { CLIENT_NONCE_SIZE, encodeHandshake, handshakeTranscript } from './handshake';

export interface ClientHandshakeOptions {
  readonly joinCode: string;
  readonly version: number;
  /** First retry interval (ms); it grows 1.5x per retry up to 1 s. */
  readonly retryMs: number;
  /** Give up (host unreachable) after this long without an ACCEPT. */
  readonly timeoutMs: number;
}

export type ConnectFailure = RejectReason | 'unreachable';

type Phase =
  | { readonly kind: 'hello'; readonly packet: Uint8Array }
  | { readonly kind: 'response'; readonly packet: Uint8Array; readonly keys: SessionKeys }
  | { readonly kind: 'done'; readonly result: HandshakeResult };

export type HandshakeResult =
  | { readonly kind: 'accepted'; readonly keys: SessionKeys }
  | { readonly kind: 'failed'; readonly reason: ConnectFailure };

export class ClientHandshake {
  private readonly pair: KeyPair = generateKeyPair();
  private readonly nonce = new Uint8Array(randomBytes(CLIENT_NONCE_SIZE));
  private phase: Phase;
  private readonly startedAt: number;
  private nextSendAt: number;
  private retryMs: number;
  private readonly outbox: Uint8Array[] = [];
  /** Replies that didn't fit this attempt (wrong nonce, bad proof, out of phase): dropped. */
  ignored = 0;

  constructor(
    private readonly options: ClientHandshakeOptions,
    now: number,
  ) {
    const packet = encodeHandshake({
      type: 'hello',
      version: options.version,
      clientPublic: this.pair.publicKey,
      clientNonce: this.nonce,
    });
    this.phase = { kind: 'hello', packet };
    this.startedAt = now;
    this.retryMs = options.retryMs;
    this.nextSendAt = now;
    this.handleTimeout(now);
  }

  get result(): HandshakeResult | undefined {
    return this.phase.kind === 'done' ? this.phase.result : undefined;
  }

  pollTransmit(): Uint8Array | undefined {
    return this.outbox.shift();
  }

  nextTimeout(): number {
    return this.phase.kind === 'done'
      ? Infinity
      : Math.min(this.nextSendAt, this.startedAt + this.options.timeoutMs);
  }

  handleTimeout(now: number): void {
    if (this.phase.kind === 'done') return;
    if (now >= this.startedAt + this.options.timeoutMs) {
      this.phase = { kind: 'done', result: { kind: 'failed', reason: 'unreachable' } };
      return;
    }
    if (now < this.nextSendAt) return;
    this.outbox.push(this.phase.packet);
    this.nextSendAt = now + this.retryMs;
    this.retryMs = Math.min(1000, this.retryMs * 1.5);
  }

  /** A handshake packet from the host. */
  handlePacket(now: number, p: HandshakePacket): void {
    if (
      this.phase.kind === 'done' ||
      !('clientNonce' in p) ||
      !timingSafeEqual(p.clientNonce, this.nonce)
    ) {
      this.ignored++;
      return;
    }
    switch (p.type) {
      case 'challenge':
        this.onChallenge(now, p);
        return;
      case 'accept':
        if (
          this.phase.kind !== 'response' ||
          !timingSafeEqual(p.hostProof, this.phase.keys.hostProof)
        ) {
          this.ignored++;
          return;
        }
        this.phase = { kind: 'done', result: { kind: 'accepted', keys: this.phase.keys } };
        return;
      case 'reject':
        this.phase = { kind: 'done', result: { kind: 'failed', reason: p.reason } };
        return;
      case 'hello':
      case 'response':
        this.ignored++;
        return;
    }
  }

  private onChallenge(now: number, c: Extract<HandshakePacket, { type: 'challenge' }>): void {
    // A repeated CHALLENGE (our HELLO was retried) is answered by the RESPONSE we already have.
    if (this.phase.kind !== 'hello') return;
    const shared = x25519(this.pair.privateKey, c.hostPublic);
    if (shared === null) {
      this.ignored++;
      return;
    }
    const transcript = handshakeTranscript({
      version: this.options.version,
      clientPublic: this.pair.publicKey,
      clientNonce: this.nonce,
      epoch: c.epoch,
      hostPublic: c.hostPublic,
      cookie: c.cookie,
    });
    const keys = deriveSessionKeys(shared, this.options.joinCode, transcript);
    const packet = encodeHandshake({
      type: 'response',
      version: this.options.version,
      clientPublic: this.pair.publicKey,
      clientNonce: this.nonce,
      epoch: c.epoch,
      cookie: c.cookie,
      clientProof: keys.clientProof,
    });
    this.phase = { kind: 'response', packet, keys };
    this.retryMs = this.options.retryMs;
    this.nextSendAt = now;
    this.handleTimeout(now);
  }
}
