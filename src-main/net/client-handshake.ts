// The client's side of the handshake: HELLO, then RESPONSE with its CPace share, retried until the host's ACCEPT
// confirms the same keys or the attempt times out. Sans-IO; knows nothing of sockets or connections.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { CpaceInputs } from './cpace';
import { cpaceIsk, cpaceShare } from './cpace';
import type { SessionKeys } from './crypto';
import { deriveSessionKeys, joinCodeSecret } from './crypto';
import type { HandshakePacket, RejectReason } from './handshake';
import { CLIENT_NONCE_SIZE, cpaceChannelId, cpaceSessionId, encodeHandshake } from './handshake';

export interface ClientHandshakeOptions {
  readonly joinCode: string;
  readonly version: number;
  /** CPace's channel label (see cpaceChannelId); the session's when absent. */
  readonly channel?: string;
  /** First retry interval (ms); it grows 1.5x per retry up to 1 s. */
  readonly retryMs: number;
  /** Give up (host unreachable) after this long without an ACCEPT. */
  readonly timeoutMs: number;
}

/**
 * How long (ms) a join keeps trying after a reply that would end it but proves nothing (a REJECT, or an ACCEPT whose
 * confirmation does not match): anyone who sees the HELLO can forge those, and the real host's answer may still
 * come.
 */
export const REJECT_GRACE_MS = 1_500;

export type ConnectFailure = RejectReason | 'wrong-code' | 'unreachable';

type Phase =
  | { readonly kind: 'hello'; readonly packet: Uint8Array }
  | {
      readonly kind: 'response';
      readonly packet: Uint8Array;
      readonly inputs: CpaceInputs;
      readonly scalar: bigint;
      readonly share: Uint8Array;
    }
  | { readonly kind: 'done'; readonly result: HandshakeResult };

export type HandshakeResult =
  | { readonly kind: 'accepted'; readonly keys: SessionKeys }
  | { readonly kind: 'failed'; readonly reason: ConnectFailure };

export class ClientHandshake {
  private readonly nonce = new Uint8Array(randomBytes(CLIENT_NONCE_SIZE));
  private readonly prs: Uint8Array;
  private phase: Phase;
  private readonly startedAt: number;
  private nextSendAt: number;
  private retryMs: number;
  /** A reply that would end the join, held until the grace runs out. */
  private pendingFailure: { readonly reason: ConnectFailure; readonly at: number } | undefined;
  private readonly outbox: Uint8Array[] = [];
  /** Replies that didn't fit this attempt (wrong nonce, out of phase, invalid share): dropped. */
  ignored = 0;

  constructor(
    private readonly options: ClientHandshakeOptions,
    now: number,
  ) {
    this.prs = joinCodeSecret(options.joinCode);
    const packet = encodeHandshake({
      type: 'hello',
      version: options.version,
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
    if (this.phase.kind === 'done') return Infinity;
    const t = Math.min(this.nextSendAt, this.startedAt + this.options.timeoutMs);
    return this.pendingFailure === undefined
      ? t
      : Math.min(t, this.pendingFailure.at + REJECT_GRACE_MS);
  }

  handleTimeout(now: number): void {
    if (this.phase.kind === 'done') return;
    const pending = this.pendingFailure;
    if (pending !== undefined && now >= pending.at + REJECT_GRACE_MS) {
      this.phase = { kind: 'done', result: { kind: 'failed', reason: pending.reason } };
      return;
    }
    if (now >= this.startedAt + this.options.timeoutMs) {
      const reason = pending?.reason ?? 'unreachable';
      this.phase = { kind: 'done', result: { kind: 'failed', reason } };
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
        this.onChallenge(now, p.cookie);
        return;
      case 'accept':
        this.onAccept(now, p);
        return;
      case 'reject':
        this.suspect(now, p.reason);
        return;
      case 'hello':
      case 'response':
        this.ignored++;
        return;
    }
  }

  private onChallenge(now: number, cookie: Uint8Array): void {
    // A repeated CHALLENGE (our HELLO was retried) is answered by the RESPONSE we already have.
    if (this.phase.kind !== 'hello') return;
    const inputs: CpaceInputs = {
      prs: this.prs,
      ci: cpaceChannelId(this.options.version, this.options.channel),
      sid: cpaceSessionId(this.nonce, cookie),
    };
    const { scalar, share } = cpaceShare(inputs);
    const packet = encodeHandshake({
      type: 'response',
      version: this.options.version,
      clientNonce: this.nonce,
      cookie,
      share,
    });
    this.phase = { kind: 'response', packet, inputs, scalar, share };
    this.retryMs = this.options.retryMs;
    this.nextSendAt = now;
    this.handleTimeout(now);
  }

  private onAccept(now: number, a: Extract<HandshakePacket, { type: 'accept' }>): void {
    const phase = this.phase;
    if (phase.kind !== 'response') {
      this.ignored++;
      return;
    }
    const isk = cpaceIsk(phase.inputs, phase.scalar, phase.share, a.share, true);
    if (isk === null) {
      this.ignored++;
      return;
    }
    const keys = deriveSessionKeys(isk);
    if (!timingSafeEqual(keys.hostConfirm, a.confirm)) {
      // The host (or whoever answered) ran CPace with another code; the real host may still answer.
      this.suspect(now, 'wrong-code');
      return;
    }
    this.phase = { kind: 'done', result: { kind: 'accepted', keys } };
  }

  /** Holds a failure for the grace period, trying on meanwhile; the latest reason is the one reported. */
  private suspect(now: number, reason: ConnectFailure): void {
    this.pendingFailure = { reason, at: this.pendingFailure?.at ?? now };
    this.handleTimeout(now);
  }
}
