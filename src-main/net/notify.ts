// The notify protocol's sliding window (TRIBES "Connection Layer"): which packets are in flight, which the peer
// still needs to hear we received, and in-order delivered/dropped notification. Knows nothing of crypto or sockets.
import type { NotifyHeader } from './packet-header';
import { ACK_MASK_MAX, maskBit, PacketKind, setMaskBit } from './packet-header';

/** What the window remembers of one sent packet until it is notified. */
interface SentPacket<R> {
  readonly seq: number;
  /** Send time, ms. */
  readonly sentAt: number;
  /** The `ack` field this packet carried: once it is delivered, the peer knows we saw everything up to it. */
  readonly ackCarried: number;
  /** Whether the peer owes us an ack for it (data and close packets; not ack-only ones). */
  readonly ackEliciting: boolean;
  /** The transmission record of whoever wrote the payload, handed back at notify time. */
  readonly record: R | undefined;
}

export interface Notification<R> {
  readonly seq: number;
  readonly delivered: boolean;
  readonly record: R | undefined;
  readonly ackEliciting: boolean;
}

/** An RTT sample taken when an ack advanced to a new packet. */
export interface RttSample {
  readonly rttMs: number;
  readonly ackDelayMs: number;
}

export interface AckResult<R> {
  readonly notifications: readonly Notification<R>[];
  readonly rtt: RttSample | undefined;
}

/** Why an authenticated packet's header can't be right. */
export type WindowError = 'ack-ahead-of-send';

const RECV_RING = 256;

export class NotifyWindow<R> {
  private nextSeq: number;
  private readonly sent: SentPacket<R>[] = [];
  private sentHead = 0;

  /** Highest sequence received (and processed) from the peer. */
  private highestRecv: number;
  private highestRecvAt = 0;
  /** received[seq % RECV_RING] = seq, for the last RECV_RING sequences: which ones we processed. */
  private readonly received = new Float64Array(RECV_RING).fill(-1);
  /** The peer knows we received everything up to here (it got a packet of ours carrying this ack). */
  private peerKnowsThrough: number;
  /** The `ack` value of the last packet we sent: an ack delay is written only when it changes. */
  private lastAckSent: number;
  /** Ack-eliciting packets received that no packet of ours has acknowledged yet. */
  private ackOwedSince: number | undefined;
  private elicitingInFlight = 0;

  constructor(
    /** Most packets in flight before sending stops. */
    readonly windowSize: number,
    initialSendSeq = 1,
    initialRecvSeq = 1,
  ) {
    if (windowSize < 1 || windowSize > ACK_MASK_MAX) throw new RangeError(`window ${windowSize}`);
    this.nextSeq = initialSendSeq;
    this.highestRecv = initialRecvSeq - 1;
    this.peerKnowsThrough = this.highestRecv;
    this.lastAckSent = this.highestRecv;
  }

  get inFlight(): number {
    return this.sent.length - this.sentHead;
  }

  /** In-flight packets the peer will ack promptly (ack-only packets wait for the peer's next packet). */
  get ackElicitingInFlight(): number {
    return this.elicitingInFlight;
  }

  /** The next sequence expected from the peer. */
  get expectedSeq(): number {
    return this.highestRecv + 1;
  }

  get lastSentSeq(): number {
    return this.nextSeq - 1;
  }

  get nextSendSeq(): number {
    return this.nextSeq;
  }

  /** Time (ms) the oldest unacknowledged ack-eliciting packet arrived, if we owe the peer an ack. */
  get ackOwedAt(): number | undefined {
    return this.ackOwedSince;
  }

  get oldestInFlightSentAt(): number | undefined {
    return this.sent[this.sentHead]?.sentAt;
  }

  /** Whether a packet may be sent now, given a limit on packets in flight. */
  hasRoom(limit = this.windowSize): boolean {
    return this.inFlight < limit;
  }

  /**
   * The header for the next packet and its bookkeeping. The caller must send
   * it (or nothing else with this sequence): sequences are AEAD nonces.
   */
  nextHeader(kind: PacketKind, now: number): NotifyHeader {
    const ack = this.highestRecv;
    // Describe only what the peer doesn't yet know we received.
    const ackMaskLength = Math.max(0, Math.min(ACK_MASK_MAX, ack - this.peerKnowsThrough - 1));
    const ackMask = new Array<number>(Math.ceil(ackMaskLength / 32)).fill(0);
    for (let i = 0; i < ackMaskLength; i++) {
      const s = ack - 1 - i;
      if (this.received[s % RECV_RING] === s) setMaskBit(ackMask, i);
    }
    const ackDelayMs = ack !== this.lastAckSent ? now - this.highestRecvAt : undefined;
    return {
      kind,
      seq: this.nextSeq,
      ack,
      ackMaskLength,
      ackMask,
      ackDelayMs,
    };
  }

  /** Records a packet built from `nextHeader` as sent. */
  onSent(header: NotifyHeader, now: number, record: R | undefined): void {
    if (header.seq !== this.nextSeq)
      throw new Error(`sent ${header.seq}, expected ${this.nextSeq}`);
    this.nextSeq++;
    this.lastAckSent = header.ack;
    this.ackOwedSince = undefined;
    if (header.kind !== PacketKind.ack) this.elicitingInFlight++;
    this.sent.push({
      seq: header.seq,
      sentAt: now,
      ackCarried: header.ack,
      ackEliciting: header.kind !== PacketKind.ack,
      record,
    });
  }

  /**
   * Whether a packet with this (expanded) sequence is worth decrypting:
   * anything not newer than the highest received is a duplicate, a replay or
   * arrived out of order, and the notify protocol discards it.
   */
  isNew(seq: number): boolean {
    return seq > this.highestRecv && seq - this.highestRecv <= RECV_RING / 2;
  }

  /**
   * Processes the header of an authenticated, new packet: records its receipt
   * and turns its ack into in-order notifications.
   */
  onReceived(h: NotifyHeader, now: number): AckResult<R> | WindowError {
    if (h.ack > this.lastSentSeq) return 'ack-ahead-of-send';
    this.highestRecv = h.seq;
    this.highestRecvAt = now;
    this.received[h.seq % RECV_RING] = h.seq;
    if (h.kind !== PacketKind.ack) this.ackOwedSince ??= now;
    return this.applyAck(h, now);
  }

  private applyAck(h: NotifyHeader, now: number): AckResult<R> {
    const notifications: Notification<R>[] = [];
    let rtt: RttSample | undefined;
    while (this.sentHead < this.sent.length) {
      const p = this.sent[this.sentHead];
      if (p === undefined || p.seq > h.ack) break;
      this.sentHead++;
      if (p.ackEliciting) this.elicitingInFlight--;
      const delivered = p.seq === h.ack || maskSays(h, p.seq);
      if (delivered && p.ackCarried > this.peerKnowsThrough) this.peerKnowsThrough = p.ackCarried;
      if (p.seq === h.ack && h.ackDelayMs !== undefined) {
        rtt = { rttMs: now - p.sentAt, ackDelayMs: h.ackDelayMs };
      }
      notifications.push({
        seq: p.seq,
        delivered,
        record: p.record,
        ackEliciting: p.ackEliciting,
      });
    }
    this.compact();
    return { notifications, rtt };
  }

  /** Everything still in flight, notified as dropped (the connection is closing). */
  flushAsDropped(): Notification<R>[] {
    const out: Notification<R>[] = [];
    for (let i = this.sentHead; i < this.sent.length; i++) {
      const p = this.sent[i];
      if (p !== undefined) {
        out.push({ seq: p.seq, delivered: false, record: p.record, ackEliciting: p.ackEliciting });
      }
    }
    this.sent.length = 0;
    this.sentHead = 0;
    this.elicitingInFlight = 0;
    return out;
  }

  private compact(): void {
    if (this.sentHead > 64 && this.sentHead * 2 > this.sent.length) {
      this.sent.splice(0, this.sentHead);
      this.sentHead = 0;
    }
  }
}

/** Whether the ack mask says the peer received `seq` (< ack). Anything older than the mask is taken as dropped. */
function maskSays(h: NotifyHeader, seq: number): boolean {
  const i = h.ack - 1 - seq;
  return i >= 0 && i < h.ackMaskLength && maskBit(h.ackMask, i);
}
