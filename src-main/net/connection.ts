// One established, sealed connection: the notify protocol, keepalive, timeout, clean close and its stats.
// Sans-IO (time is passed in, datagrams are polled out); knows nothing of sockets, handshakes or stream managers.
import { BitReader, BitWriter, DecodeError } from './bitstream';
import type { CloseInfo, CloseReason } from './close-reason';
import { CLOSE_REASON_BITS, closeReasonCode, closeReasonFromCode } from './close-reason';
import { open, SEAL_OVERHEAD, seal } from './crypto';
import type { Notification } from './notify';
import { NotifyWindow } from './notify';
import type { NotifyHeader } from './packet-header';
import { ACK_MASK_MAX, PacketKind, readNotifyHeader, writeNotifyHeader } from './packet-header';
import type { ConnectionStats } from './stats';
import { LossWindow, RateMeter, RttEstimator, UDP_IPV4_OVERHEAD } from './stats';

/** What the layer above gives the connection: it reads payloads and learns each of its packets' fate. */
export interface ConnectionHandler<R> {
  /** The payload of a received, authenticated, in-order data packet. Throwing closes the connection as a protocol error. */
  onPayload(now: number, payload: BitReader): void;
  /** Every packet sent with a record is notified exactly once, in send order. */
  onNotify(now: number, record: R, delivered: boolean): void;
  onClosed?(now: number, info: CloseInfo): void;
  /**
   * When the layer above next wants to send (its packet scheduler's clock): the connection's timer includes
   * it, and calls onSendTime when it is due, before sending any ack-only packet so acks ride on data.
   */
  nextSendAt?(): number;
  onSendTime?(now: number): void;
  /** When the layer above should next see the time even with nothing to send (a periodic scope pass). */
  nextCheckAt?(): number;
  /** The time, whenever the connection's timer fires. */
  touch?(now: number): void;
}

/** Writes a packet's payload within `budgetBits` and returns its transmission record (undefined: nothing to track). */
export type PacketFiller<R> = (w: BitWriter, budgetBits: number) => R | undefined;

export interface ConnectionOptions {
  /** Data packets in flight before sending stops (TRIBES used 32; at least 32). */
  readonly windowSize: number;
  /** Largest datagram, bytes; stays below a safe path MTU. */
  readonly maxDatagramBytes: number;
  /** Send an empty, ack-eliciting packet after this long without sending. */
  readonly keepaliveMs: number;
  /** Close when nothing has been received for this long. */
  readonly timeoutMs: number;
  /**
   * Close when the peer is heard but acknowledges none of our packets for this long: a peer that keeps
   * talking without reading would otherwise hold the window (and everything queued behind it) forever.
   */
  readonly stallTimeoutMs: number;
  /** Longest we hold an owed ack hoping to piggyback it on data. */
  readonly maxAckDelayMs: number;
  /** First sequence number each side sends (tests start near a wrap). */
  readonly initialSeq: number;
}

export const DEFAULT_CONNECTION_OPTIONS: ConnectionOptions = {
  windowSize: 64,
  maxDatagramBytes: 1200,
  keepaliveMs: 1000,
  timeoutMs: 10_000,
  // Well past any loss burst a usable link has (at 20 % loss a round trip without an ack is already rare),
  // and half the silence timeout, so a reader that stopped is let go before it costs much.
  stallTimeoutMs: 5_000,
  // Long enough for an ack to ride on the next packet of a 30 Hz sender instead of costing a packet of its own.
  maxAckDelayMs: 40,
  initialSeq: 1,
};

/** Ack-only packets and probes may go past a full data window by this many packets, so acks can't deadlock. */
const CONTROL_HEADROOM = 8;
/** Probes may go further still (the receiver accepts up to 128 ahead); their backoff bounds how many. */
const PROBE_HEADROOM = 24;
/** Probe intervals double up to 16x the probe timeout while nothing is acked. */
const MAX_PROBE_BACKOFF_EXPONENT = 4;
const MAX_PROBE_INTERVAL_MS = 500;
/**
 * An owed ack waits at most this long for a data packet the layer above has scheduled (its rate holds it back):
 * a 30 packets/s tick is 33 ms, and on a starved link (16 kbit/s) data may leave only every 200 ms while the
 * peer's pointer packets come 30 a second. Acking each of those alone cost that link's downstream 12 packets a
 * second, 29 % of it, and the queue they made kept the adaptive rate at its floor. The peer learns its
 * packets' fates that much later; the ack delay is reported, so its RTT does not grow.
 */
const MAX_PIGGYBACK_WAIT_MS = 250;
const MAX_CLOSE_DETAIL_BYTES = 200;
/** Largest notify header: 2+8+8+3+7 bits, a 96-bit mask, a flag and a 15-bit ack delay. */
const MAX_HEADER_BYTES = 18;

type Phase =
  | { readonly kind: 'pending' } // host side: keys agreed, waiting for the client's first sealed packet
  | { readonly kind: 'open' }
  | { readonly kind: 'closed'; readonly info: CloseInfo };

export interface ConnectionKeys {
  readonly send: Uint8Array;
  readonly receive: Uint8Array;
}

/** Why received datagrams were thrown away, counted. */
export interface DiscardCounts {
  malformed: number;
  duplicateOrLate: number;
  authFailed: number;
  afterClose: number;
}

export class Connection<R> {
  handler: ConnectionHandler<R> | undefined;
  /** Called when a datagram is queued (the endpoint uses it to find connections with output). */
  onOutput: (() => void) | undefined;
  /** Called when the layer above says our next timeout may have moved earlier (see wake()). */
  onWake: (() => void) | undefined;
  /** Test hook: sees every notification, including packets with no record (acks, keepalives). */
  observer: ((n: Notification<R>) => void) | undefined;
  readonly discards: DiscardCounts = {
    malformed: 0,
    duplicateOrLate: 0,
    authFailed: 0,
    afterClose: 0,
  };

  private phase: Phase;
  private readonly window: NotifyWindow<R>;
  private readonly outbox: Uint8Array[] = [];
  /**
   * Writers for the packet being built, kept from packet to packet (a host builds thousands a second); seal()
   * copies what they hold into the datagram. Packets are built one at a time: one begun inside another's fill
   * would take the next sequence number first, and the notify window refuses the outer one then.
   */
  private readonly headerWriter = new BitWriter(24);
  private readonly payloadWriter = new BitWriter(256);
  private lastSentAt: number;
  private lastReceivedAt: number;
  /** Last time the window advanced or a probe went out: the probe timer runs from here. */
  private lastProgressAt: number;
  /**
   * Since when ack-eliciting packets have been in flight with no notification (the window stuck); reset by
   * every notification, whenever the window empties and when the peer is heard after a silence. Probes do not
   * reset it. A peer that reads nothing but still talks (a keepalive a second) keeps it running.
   */
  private stuckSince: number;
  private probesInARow = 0;

  /** Smoothed RTT, its variance, floor and latest sample (the adaptive rate reads it). */
  readonly rtt = new RttEstimator();
  private readonly loss = new LossWindow();
  private readonly packetsOut = new RateMeter();
  private readonly packetsIn = new RateMeter();
  private readonly wireOut = new RateMeter();
  private readonly wireIn = new RateMeter();
  private readonly payloadOut = new RateMeter();
  private readonly payloadIn = new RateMeter();
  private delivered = 0;
  private dropped = 0;
  /** Sum and count of notify-header bits on data packets (the wire benchmark reads these). */
  headerBitsTotal = 0;
  dataPacketsSent = 0;

  constructor(
    /** The peer's address key; it changes only when the endpoint moves the connection to a new path. */
    public peer: string,
    private readonly keys: ConnectionKeys,
    now: number,
    startOpen: boolean,
    readonly options: ConnectionOptions = DEFAULT_CONNECTION_OPTIONS,
  ) {
    // Everything that can be in flight (data, control, probes, two CLOSEs) must fit one ack mask.
    if (options.windowSize < 1 || options.windowSize + PROBE_HEADROOM + 2 > ACK_MASK_MAX) {
      throw new RangeError(
        `window ${options.windowSize} must be 1..${ACK_MASK_MAX - PROBE_HEADROOM - 2}`,
      );
    }
    this.window = new NotifyWindow<R>(ACK_MASK_MAX, options.initialSeq, options.initialSeq);
    this.phase = startOpen ? { kind: 'open' } : { kind: 'pending' };
    this.lastSentAt = now;
    this.lastReceivedAt = now;
    this.lastProgressAt = now;
    this.stuckSince = now;
  }

  get state(): Phase['kind'] {
    return this.phase.kind;
  }

  get closeInfo(): CloseInfo | undefined {
    return this.phase.kind === 'closed' ? this.phase.info : undefined;
  }

  /** When the peer was last heard (any packet of this connection), on the clock the connection is driven by. */
  get heardAt(): number {
    return this.lastReceivedAt;
  }

  get isOpen(): boolean {
    return this.phase.kind === 'open';
  }

  /** Whether a data packet may be sent now: open and the window has room. */
  canSend(): boolean {
    return this.phase.kind === 'open' && this.window.hasRoom(this.options.windowSize);
  }

  get inFlight(): number {
    return this.window.inFlight;
  }

  /**
   * The layer above queued something outside the connection's callbacks, so nextTimeout() may be earlier than
   * whoever drives the timer last saw (the endpoint caches it per connection).
   */
  wake(): void {
    this.onWake?.();
  }

  /** A lower bound of one packet's payload budget in bits (the filler gets the exact one). */
  get payloadBudgetBits(): number {
    return (this.options.maxDatagramBytes - SEAL_OVERHEAD - MAX_HEADER_BYTES) * 8;
  }

  /** Sends an empty, ack-eliciting packet now (the client's first packet confirms the handshake). */
  ping(now: number): void {
    if (this.phase.kind === 'open' && this.hasControlRoom())
      this.emit(now, PacketKind.data, undefined);
  }

  /**
   * Builds, seals and queues one data packet whose payload `fill` writes.
   * Returns false (and calls nothing) when the window is full or the connection isn't open.
   */
  send(now: number, fill: PacketFiller<R>): boolean {
    if (!this.canSend()) return false;
    this.emit(now, PacketKind.data, fill);
    return true;
  }

  /** The next datagram to put on the wire, if any (polled by the endpoint). */
  pollTransmit(): Uint8Array | undefined {
    return this.outbox.shift();
  }

  get hasTransmit(): boolean {
    return this.outbox.length > 0;
  }

  /** A data-phase datagram from this connection's peer (handshake packets never reach here). */
  /**
   * Whether `bytes` is a new packet of this connection, sealed under its keys (what moving it to a new path
   * requires). No side effect: nothing is counted, acknowledged or delivered.
   */
  authenticates(bytes: Uint8Array): boolean {
    if (this.phase.kind !== 'open') return false;
    try {
      const r = new BitReader(bytes);
      const header = readNotifyHeader(r, {
        expectedSeq: this.window.expectedSeq,
        lastSentSeq: this.window.lastSentSeq,
      });
      if (!this.window.isNew(header.seq)) return false;
      return open(this.keys.receive, header.seq, bytes, Math.ceil(r.position / 8)) !== null;
    } catch (e) {
      if (e instanceof DecodeError) return false;
      throw e;
    }
  }

  handleDatagram(now: number, bytes: Uint8Array): void {
    if (this.phase.kind === 'closed') {
      this.discards.afterClose++;
      return;
    }
    let header: NotifyHeader;
    let headerBytes: number;
    try {
      const r = new BitReader(bytes);
      header = readNotifyHeader(r, {
        expectedSeq: this.window.expectedSeq,
        lastSentSeq: this.window.lastSentSeq,
      });
      headerBytes = Math.ceil(r.position / 8);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      this.discards.malformed++;
      return;
    }
    // Cheap checks first: duplicates, replays and out-of-order packets are never decrypted.
    if (!this.window.isNew(header.seq)) {
      this.discards.duplicateOrLate++;
      return;
    }
    const plaintext = open(this.keys.receive, header.seq, bytes, headerBytes);
    if (plaintext === null) {
      this.discards.authFailed++;
      return;
    }
    this.onAuthenticated(now, header, plaintext, bytes.length);
  }

  private onAuthenticated(now: number, h: NotifyHeader, plaintext: Uint8Array, size: number): void {
    if (this.phase.kind === 'pending') this.phase = { kind: 'open' };
    // Back after a silence (an outage, not a peer that talks without reading): the stall clock starts again,
    // giving our probes time to get through before the window is judged stuck.
    if (now - this.lastReceivedAt > 2 * this.options.keepaliveMs)
      this.stuckSince = Math.max(this.stuckSince, now);
    this.lastReceivedAt = now;
    this.packetsIn.add(now, 1);
    this.wireIn.add(now, size + UDP_IPV4_OVERHEAD);
    this.payloadIn.add(now, plaintext.length);
    const result = this.window.onReceived(h, now);
    if (result === 'ack-ahead-of-send') {
      this.close(now, 'protocol-error', 'ack for a packet never sent');
      return;
    }
    if (result.rtt) this.rtt.sample(result.rtt.rttMs, result.rtt.ackDelayMs);
    if (result.notifications.length > 0) {
      this.lastProgressAt = now;
      this.stuckSince = now;
      this.probesInARow = 0;
    } else if (
      this.probesInARow > 0 &&
      this.window.ackElicitingInFlight > 0 &&
      this.hasControlRoom()
    ) {
      // We were probing a silent path and the peer is back, but its packet acks nothing new: probe now rather
      // than at the end of the backoff, so a healed link resumes within a round trip.
      this.probesInARow = 0;
      this.lastProgressAt = now;
      this.emit(now, PacketKind.data, undefined);
    }
    for (const n of result.notifications) this.deliverNotification(now, n);
    if (h.kind === PacketKind.close) {
      this.finish(now, readCloseReason(plaintext), true);
      return;
    }
    if (h.kind === PacketKind.data && plaintext.length > 0 && this.handler) {
      try {
        this.handler.onPayload(now, new BitReader(plaintext));
      } catch (e) {
        // Hostile or buggy payloads end the connection, never the process.
        const detail = e instanceof Error ? e.message : String(e);
        this.close(now, 'protocol-error', detail.slice(0, MAX_CLOSE_DETAIL_BYTES));
      }
    }
  }

  private deliverNotification(now: number, n: Notification<R>): void {
    this.loss.record(n.delivered);
    if (n.delivered) this.delivered++;
    else this.dropped++;
    this.observer?.(n);
    if (n.record === undefined || this.handler === undefined) return;
    try {
      this.handler.onNotify(now, n.record, n.delivered);
    } catch (e) {
      // A bug above us must not escape a socket callback; it ends this connection instead.
      if (this.phase.kind === 'closed') return;
      this.close(
        now,
        'protocol-error',
        e instanceof Error ? e.message.slice(0, MAX_CLOSE_DETAIL_BYTES) : 'notify failed',
      );
    }
  }

  /** Runs the timers: timeout, owed acks, probes, keepalive. */
  handleTimeout(now: number): void {
    if (this.phase.kind === 'closed') return;
    if (now >= this.lastReceivedAt + this.options.timeoutMs) {
      this.finish(
        now,
        { reason: 'timeout', detail: `nothing heard for ${this.options.timeoutMs} ms` },
        false,
      );
      return;
    }
    if (this.phase.kind === 'pending') return;
    if (this.isStalled(now)) {
      this.close(now, 'stalled', `no packet acknowledged for ${this.options.stallTimeoutMs} ms`);
      return;
    }
    const h = this.handler;
    h?.touch?.(now);
    if (this.closedByCallback()) return; // a queue overflowed since the last timer
    if (h?.onSendTime && (h.nextSendAt?.() ?? Infinity) <= now) {
      h.onSendTime(now);
      if (this.closedByCallback()) return;
    }
    const ackOwedAt = this.window.ackOwedAt;
    if (
      ackOwedAt !== undefined &&
      now >= this.ackDeadline(ackOwedAt, h?.nextSendAt?.() ?? Infinity) &&
      this.hasControlRoom()
    ) {
      this.emit(now, PacketKind.ack, undefined);
    }
    // Only ack-eliciting packets are probed for: ack-only ones are acked by the peer's next packet, whenever
    // that is, and probing for them would make an idle pair ping-pong forever.
    if (this.window.ackElicitingInFlight > 0 && now >= this.probeDeadline()) {
      // Nothing acked for a probe timeout: an ack-eliciting packet makes the peer report (and unsticks a full window).
      this.probesInARow++;
      this.lastProgressAt = now;
      if (this.window.hasRoom(this.options.windowSize + PROBE_HEADROOM))
        this.emit(now, PacketKind.data, undefined);
    }
    if (now >= this.lastSentAt + this.options.keepaliveMs && this.hasControlRoom()) {
      this.emit(now, PacketKind.data, undefined);
    }
  }

  /** The earliest time handleTimeout has something to do. */
  nextTimeout(): number {
    if (this.phase.kind === 'closed') return Infinity;
    let t = this.lastReceivedAt + this.options.timeoutMs;
    if (this.phase.kind === 'pending') return t;
    const send = this.handler?.nextSendAt?.() ?? Infinity;
    t = Math.min(t, send, this.handler?.nextCheckAt?.() ?? Infinity);
    if (this.window.ackElicitingInFlight > 0) {
      t = Math.min(t, this.probeDeadline());
      // Only a heard peer can stall (a silent one times out); hearing it later brings this deadline back.
      if (this.lastReceivedAt > this.stuckSince)
        t = Math.min(t, this.stuckSince + this.options.stallTimeoutMs);
    }
    // Acks and keepalives wait while even the control headroom is used up; the probe timer runs regardless.
    if (!this.hasControlRoom()) return t;
    const ackOwedAt = this.window.ackOwedAt;
    if (ackOwedAt !== undefined) t = Math.min(t, this.ackDeadline(ackOwedAt, send));
    return Math.min(t, this.lastSentAt + this.options.keepaliveMs);
  }

  /**
   * When an owed ack goes out alone: after maxAckDelayMs, unless the layer above will send a packet a little
   * later anyway (its next tick), in which case the ack rides on it instead of costing a packet of its own.
   */
  private ackDeadline(ackOwedAt: number, send: number): number {
    const base = ackOwedAt + this.options.maxAckDelayMs;
    return send > base && send <= ackOwedAt + MAX_PIGGYBACK_WAIT_MS ? send : base;
  }

  /** Whether the layer above closed us from inside a callback (a method, so no narrowing hides the change). */
  private closedByCallback(): boolean {
    return this.phase.kind !== 'open';
  }

  /**
   * The peer talks (its packets arrive after the window got stuck) but has acknowledged nothing for
   * stallTimeoutMs. A silent peer is the timeout's business: an outage shorter than it must not end the call.
   */
  private isStalled(now: number): boolean {
    return (
      this.window.ackElicitingInFlight > 0 &&
      this.lastReceivedAt > this.stuckSince &&
      now >= this.stuckSince + this.options.stallTimeoutMs
    );
  }

  private hasControlRoom(): boolean {
    return this.window.hasRoom(this.options.windowSize + CONTROL_HEADROOM);
  }

  private probeDeadline(): number {
    const pto = this.rtt.smoothed + Math.max(4 * this.rtt.variance, 1) + this.options.maxAckDelayMs;
    const backoff = pto * 2 ** Math.min(this.probesInARow, MAX_PROBE_BACKOFF_EXPONENT);
    // Capped so a healed path is noticed within half a second (at ~2 small packets/s during an outage).
    return this.lastProgressAt + Math.min(backoff, Math.max(pto, MAX_PROBE_INTERVAL_MS));
  }

  /** Closes and tells the peer why (a few sealed CLOSE packets; they aren't retransmitted). */
  close(now: number, reason: CloseReason, detail = ''): void {
    if (this.phase.kind === 'closed') return;
    if (this.phase.kind === 'open') {
      for (let i = 0; i < 2; i++) {
        this.emit(now, PacketKind.close, (w) => {
          w.writeUint(closeReasonCode(reason), CLOSE_REASON_BITS);
          w.writeString(detail.slice(0, MAX_CLOSE_DETAIL_BYTES));
          return undefined;
        });
      }
    }
    this.finish(now, { reason, detail }, false);
  }

  private finish(now: number, reason: Omit<CloseInfo, 'byPeer'>, byPeer: boolean): void {
    if (this.phase.kind === 'closed') return;
    const info: CloseInfo = { ...reason, byPeer };
    this.phase = { kind: 'closed', info };
    for (const n of this.window.flushAsDropped()) this.deliverNotification(now, n);
    this.handler?.onClosed?.(now, info);
  }

  private emit(now: number, kind: PacketKind, fill: PacketFiller<R> | undefined): void {
    const header = this.window.nextHeader(kind, now);
    const hw = this.headerWriter;
    hw.truncate(0);
    writeNotifyHeader(hw, header);
    const headerBits = hw.bitLength;
    const headerBytes = hw.view();
    let record: R | undefined;
    let plaintext: Uint8Array = EMPTY;
    if (fill) {
      const budgetBits = (this.options.maxDatagramBytes - headerBytes.length - SEAL_OVERHEAD) * 8;
      const pw = this.payloadWriter;
      pw.truncate(0);
      record = fill(pw, budgetBits);
      if (pw.bitLength > budgetBits)
        throw new Error(`payload ${pw.bitLength} bits > budget ${budgetBits}`);
      plaintext = pw.view();
    }
    const datagram = seal(this.keys.send, header.seq, headerBytes, plaintext);
    // The probe timer runs from the oldest unacknowledged ack-eliciting packet: one sent after a quiet spell
    // starts it afresh (else a stale last-progress time makes every such packet drag a probe behind it).
    if (kind === PacketKind.data && this.window.ackElicitingInFlight === 0) {
      this.lastProgressAt = now;
      this.stuckSince = now;
    }
    this.window.onSent(header, now, record);
    if (kind === PacketKind.data) {
      this.headerBitsTotal += headerBits;
      this.dataPacketsSent++;
    }
    this.outbox.push(datagram);
    this.onOutput?.();
    this.lastSentAt = now;
    this.packetsOut.add(now, 1);
    this.wireOut.add(now, datagram.length + UDP_IPV4_OVERHEAD);
    this.payloadOut.add(now, plaintext.length);
  }

  stats(now: number): ConnectionStats {
    const kbps = (m: RateMeter): number => (m.perSecond(now) * 8) / 1000;
    return {
      rttMs: this.rtt.smoothed,
      rttVarMs: this.rtt.variance,
      minRttMs: Number.isFinite(this.rtt.min) ? this.rtt.min : 0,
      lossPct: this.loss.rate * 100,
      packetsSent: this.packetsOut.lifetimeTotal,
      packetsReceived: this.packetsIn.lifetimeTotal,
      bytesSent: this.wireOut.lifetimeTotal - UDP_IPV4_OVERHEAD * this.packetsOut.lifetimeTotal,
      bytesReceived: this.wireIn.lifetimeTotal - UDP_IPV4_OVERHEAD * this.packetsIn.lifetimeTotal,
      payloadBytesSent: this.payloadOut.lifetimeTotal,
      payloadBytesReceived: this.payloadIn.lifetimeTotal,
      packetsPerSecondOut: this.packetsOut.perSecond(now),
      packetsPerSecondIn: this.packetsIn.perSecond(now),
      wireKbpsOut: kbps(this.wireOut),
      wireKbpsIn: kbps(this.wireIn),
      payloadKbpsOut: kbps(this.payloadOut),
      payloadKbpsIn: kbps(this.payloadIn),
      inFlight: this.window.inFlight,
      windowSize: this.options.windowSize,
      packetsDelivered: this.delivered,
      packetsDropped: this.dropped,
      packetsDiscarded:
        this.discards.malformed +
        this.discards.duplicateOrLate +
        this.discards.authFailed +
        this.discards.afterClose,
    };
  }
}

const EMPTY = new Uint8Array(0);

function readCloseReason(plaintext: Uint8Array): Omit<CloseInfo, 'byPeer'> {
  try {
    const r = new BitReader(plaintext);
    const reason = closeReasonFromCode(r.readUint(CLOSE_REASON_BITS)) ?? 'closed';
    return { reason, detail: r.readString(MAX_CLOSE_DETAIL_BYTES) };
  } catch {
    return { reason: 'closed', detail: '' };
  }
}
