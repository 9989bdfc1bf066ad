// The packet scheduler (TRIBES "Stream Layer"): when to send, and each packet built from the stream managers in
// their fixed priority order, with the transmission-record FIFO and per-kind traffic figures. Knows nothing of
// sockets, crypto or what any manager carries.
import type { BitReader, BitWriter } from '../bitstream';
import type { CloseInfo, CloseReason } from '../close-reason';
import type { ConnectionHandler, PacketFiller } from '../connection';
import { RateMeter, smoothedGap, UDP_IPV4_OVERHEAD } from '../stats';
import type { SendDemand, StreamManager } from './manager';
import { ProtocolError } from './manager';
import type { RatePolicy } from './rate';
import {
  assertRatePolicy,
  minRate,
  PACKET_OVERHEAD_BYTES,
  RATE_PRESETS,
  readRateField,
  SendCredit,
  writeRateField,
} from './rate';
import type { PacketTracker } from './tracker';
import type { RoundFigures, RttView } from './congestion';
import { RateController } from './congestion';
import { ForwardQueue, readDelayField, writeDelayField } from './one-way-delay';

/** The part of a Connection the scheduler drives (a Connection<PacketRecord> is one). */
export interface SchedulerConnection {
  canSend(): boolean;
  send(now: number, fill: PacketFiller<PacketRecord>): boolean;
  /** The connection's RTT estimate; without it the rate stays fixed (no adaptive control). */
  readonly rtt?: RttView;
  /** Our send time may have moved earlier outside the connection's callbacks: work it out again. */
  wake?(): void;
  /** Ends the connection (a manager failed in a way the peer caused, e.g. its queue overflowed). */
  close?(now: number, reason: CloseReason, detail: string): void;
}

/** The transmission record of one packet (TRIBES Figure 4). */
export interface PacketRecord {
  /** 0-based count of packets this scheduler built before this one. */
  readonly id: number;
  /** Send time, ms. */
  readonly sentAt: number;
  /** Version of our rate field the packet carried; undefined when it carried none. */
  readonly rateVersion: number | undefined;
  /** Per manager, in manager order: what it wrote, or undefined for nothing. */
  readonly sections: readonly unknown[];
  /** Per tracker, in tracker order: what the packet carried, or undefined. */
  readonly tracked: readonly unknown[];
  /** Payload size, bits. */
  readonly bits: number;
}

export interface StreamConnectionOptions {
  /** Fixed order = priority: each gets what budget the ones before it left (TRIBES: move, event, ghost). */
  readonly managers: readonly StreamManager<unknown>[];
  readonly trackers?: readonly PacketTracker<unknown>[];
  /** What this side accepts as a receiver (told to the peer), and the cap on its own sending unless `sendRate`. */
  readonly rate: RatePolicy;
  /**
   * The cap on this side's own sending when it differs from what it accepts (TRIBES 2 set the rate to the
   * server and to the client apart: a relay that aggregates many sources sends more than each source).
   */
  readonly sendRate?: RatePolicy;
  /** Assumed of the peer until its rate field arrives; conservative by default. */
  readonly initialPeerRate?: RatePolicy;
  /** Most packets one timer call may send while urgent data keeps backing up. */
  readonly maxBurst?: number;
  /** Adapt the rate to loss and RTT under the fixed policy (default true when the connection reports RTT). */
  readonly adaptive?: boolean;
  /** Packets never shrink below this when the rate is shaped (the largest message must still fit). Default 200. */
  readonly minPacketBytes?: number;
  readonly onClosed?: (now: number, info: CloseInfo) => void;
}

export interface TrafficFigures {
  /** Running total, bits. */
  readonly bits: number;
  /** Over the last second. */
  readonly bitsPerSecond: number;
}

export interface StreamStats {
  /** Per manager name, plus "scheduler" for presence bits and the rate field. */
  readonly sent: Readonly<Record<string, TrafficFigures>>;
  readonly received: Readonly<Record<string, TrafficFigures>>;
  readonly packetsBuilt: number;
  readonly packetsInFlight: number;
  readonly localRate: RatePolicy;
  /** The cap on our own sending. */
  readonly sendRate: RatePolicy;
  readonly peerRate: RatePolicy;
  readonly effectiveRate: RatePolicy;
  /** The adaptive controller's allowed rate and bandwidth estimate, bytes/s on the wire (undefined: fixed rate). */
  readonly adaptiveBytesPerSecond: number | undefined;
  readonly estimatedBytesPerSecond: number | undefined;
  /** A manual cap or the host's share of its uplink, bytes/s (Infinity: none). */
  readonly ceilingBytesPerSecond: number;
}

/** Gaps between urgent packets longer than this are pauses, not the stream's rhythm. */
const URGENT_STREAM_MAX_GAP_MS = 250;
/** Data that isn't urgent waits for the urgent stream's next packet until this many gaps after its last one. */
const URGENT_RIDE_WAIT = 1.25;
/** The urgent stream has stopped once this many gaps have passed without a packet. */
const URGENT_STREAM_LAPSE = 2;

/** A packet this full (of its budget) with data still waiting after it says the sender has a backlog. */
const BACKLOG_FULL = 0.9;
/**
 * A backlog's packets are paced at this many times the packet rate while the saved credit lasts: a paste leaves
 * in a fraction of the time one per tick takes, without a line-rate burst. Packets sent back to back are the
 * ones jitter reorders, and the notify protocol counts a reordered packet lost: in the paste simulation at 10 ms
 * of jitter, unpaced bursts took longer than one packet per tick (1.85 s against 1.49), 3x pacing 1.16 s.
 */
const BACKLOG_PACE = 3;

/** Packets of a sender whose rate is not shaped carry a send-time stamp one in this many (see fill). */
const UNSHAPED_STAMP_EVERY = 8;

/** Smallest packet the adaptive rate shapes to: every event the event manager accepts still fits. */
const MIN_SHAPED_PACKET_BYTES = 200;

/**
 * The adaptive rate never goes below this (bytes/s on the wire, 6.4 kbit/s): ten small packets a second keep a
 * pointer alive and chat moving. It must sit under the slowest link the app serves, or the rate can never come
 * down to it and the bottleneck's queue stays full (the modem preset's 2,280 B/s is above a 16 kbit/s link).
 */
export const ADAPTIVE_FLOOR_BYTES_PER_SECOND = 800;

/** Bytes/s on the wire a policy allows. */
export function policyBytesPerSecond(p: RatePolicy): number {
  return p.packetsPerSecond * (p.packetBytes + UDP_IPV4_OVERHEAD);
}

/**
 * A policy within `bytesPerSecond`: packets shrink (toward `minPacketBytes`) so every tick still has a slot and
 * pointers keep their rate; the send credit then holds the byte rate, so data waits and aggregates into fewer
 * packets when the rate is short.
 */
export function shapeRate(
  p: RatePolicy,
  bytesPerSecond: number,
  minPacketBytes = MIN_SHAPED_PACKET_BYTES,
): RatePolicy {
  if (bytesPerSecond >= policyBytesPerSecond(p)) return p;
  const perPacket = Math.floor(bytesPerSecond / p.packetsPerSecond - UDP_IPV4_OVERHEAD);
  const packetBytes = Math.min(p.packetBytes, Math.max(minPacketBytes, perPacket));
  return { packetsPerSecond: p.packetsPerSecond, packetBytes, bytesPerSecond };
}

const SCHEDULER = 'scheduler';
const DEMAND_RANK: Record<SendDemand, number> = { none: 0, normal: 1, urgent: 2 };

export class StreamConnection implements ConnectionHandler<PacketRecord> {
  /** Test hook: sees each packet right after the connection accepted it. */
  onPacketSent: ((now: number, record: PacketRecord) => void) | undefined;

  private readonly managers: readonly StreamManager<unknown>[];
  private readonly trackers: readonly PacketTracker<unknown>[];
  /** Records of packets awaiting their notify; the connection notifies in send order, so a FIFO. */
  private readonly inFlight: PacketRecord[] = [];
  private readonly credit: SendCredit;
  private readonly maxBurst: number;
  private localRate: RatePolicy;
  private sendCap: RatePolicy;
  private peerRate: RatePolicy;
  private rateVersion = 1;
  private rateDeliveredVersion = 0;
  private lastNow: number;
  private lastSendAt = -Infinity;
  /** The urgent stream (packets sent for urgent data): when the last left, and the smoothed gap between them. */
  private lastUrgentSendAt = -Infinity;
  private urgentGapMs: number | undefined;
  /** The demand nextSendAt() last found (onSendTime asks it right before each packet). */
  private demandAtCheck: SendDemand = 'none';
  /** demand() last found an urgent event (not urgent state): it may spend the events' allowance (SendCredit). */
  private urgentAction = false;
  /**
   * The last packet went out full and data still waited: a backlog (a paste) that may spend the credit saved up
   * while idle at BACKLOG_PACE times the packet rate instead of a packet per tick. Cleared by the first packet
   * that takes everything.
   */
  private backlogged = false;
  /** No packet before this (set only when a timer call could not satisfy the demand, so the timer can't spin). */
  private holdUntil = -Infinity;
  private packetsBuilt = 0;
  private closed = false;
  /** Why the connection must close at the next timer call (set outside one: a queue overflowed on send). */
  private failure: { readonly reason: CloseReason; readonly detail: string } | undefined;
  /** Bits sent and received per manager, by manager index, the scheduler's own last (every packet adds to them). */
  private readonly sentBy: RateMeter[] = [];
  private readonly receivedBy: RateMeter[] = [];
  private readonly controller: RateController | undefined;
  /** The queue on the peer's packets to us, measured from their stamps and reported back in ours. */
  private readonly forwardQueue = new ForwardQueue();
  private ceiling = Infinity;
  /** The fixed policy's bytes/s when the rate last changed (rateChanged), to tell a raised policy. */
  private fixedBytes: number;
  /** effectiveRate, worked out again whenever one of its inputs changes (rateChanged). */
  private effective: RatePolicy;

  constructor(
    private readonly conn: SchedulerConnection,
    private readonly options: StreamConnectionOptions,
  ) {
    assertRatePolicy(options.rate);
    if (options.sendRate) assertRatePolicy(options.sendRate);
    const names = new Set([SCHEDULER, ...options.managers.map((m) => m.name)]);
    if (names.size !== options.managers.length + 1)
      throw new Error('stream manager names must be unique');
    this.managers = options.managers;
    for (const m of this.managers) m.wake = () => this.conn.wake?.();
    this.trackers = options.trackers ?? [];
    this.maxBurst = options.maxBurst ?? 8;
    this.localRate = options.rate;
    this.sendCap = options.sendRate ?? options.rate;
    this.peerRate = options.initialPeerRate ?? RATE_PRESETS.modem;
    this.lastNow = 0;
    if ((options.adaptive ?? true) && conn.rtt !== undefined) {
      // Start at what we accept ourselves: the peer's (conservative until heard) policy caps it anyway.
      this.controller = new RateController({
        floorBytesPerSecond: ADAPTIVE_FLOOR_BYTES_PER_SECOND,
        initialBytesPerSecond: policyBytesPerSecond(this.sendCap),
      });
    }
    this.fixedBytes = policyBytesPerSecond(minRate(this.sendCap, this.peerRate));
    this.effective = this.workOutRate();
    // Credit starts full: a new connection may burst its first second.
    this.credit = new SendCredit(-Infinity, this.effective);
    for (let i = 0; i <= this.managers.length; i++) {
      this.sentBy.push(new RateMeter());
      this.receivedBy.push(new RateMeter());
    }
  }

  /** The fixed policy (min of ours and the peer's), shaped to the adaptive rate and any ceiling. */
  get effectiveRate(): RatePolicy {
    return this.effective;
  }

  private workOutRate(): RatePolicy {
    const fixed = minRate(this.sendCap, this.peerRate);
    return shapeRate(
      fixed,
      Math.min(this.controller?.bytesPerSecond ?? Infinity, this.ceiling),
      this.options.minPacketBytes,
    );
  }

  /** The adaptive controller's recent rounds (empty with a fixed rate). */
  get adaptiveRounds(): readonly RoundFigures[] {
    return this.controller?.rounds ?? [];
  }

  /** What the peer last said it accepts (its rate field; conservative until heard). */
  get peerAccepts(): RatePolicy {
    return this.peerRate;
  }

  /** Caps this connection's sending (a manual --kbps cap, or the host's share of its uplink); Infinity lifts it. */
  setCeiling(now: number, bytesPerSecond: number): void {
    if (!(bytesPerSecond > 0)) throw new RangeError(`bad ceiling ${bytesPerSecond}`);
    this.ceiling = bytesPerSecond;
    this.rateChanged(now);
  }

  private rateChanged(now: number): void {
    const fixed = policyBytesPerSecond(minRate(this.sendCap, this.peerRate));
    this.controller?.policyRaised(
      Math.min(this.fixedBytes, this.ceiling),
      Math.min(fixed, this.ceiling),
    );
    this.fixedBytes = fixed;
    this.controller?.clamp(Math.min(fixed, this.ceiling));
    this.effective = this.workOutRate();
    this.credit.setRate(now, this.effective);
    this.conn.wake?.();
  }

  get packetsInFlight(): number {
    return this.inFlight.length;
  }

  /**
   * Changes what we accept, and the cap on our own sending (`sendRate`, else the same); the peer hears the
   * accepted rate in the next packets until one is delivered.
   */
  setLocalRate(now: number, rate: RatePolicy, sendRate: RatePolicy = rate): void {
    assertRatePolicy(rate);
    assertRatePolicy(sendRate);
    this.localRate = rate;
    this.sendCap = sendRate;
    this.rateVersion++;
    this.rateChanged(now);
  }

  /** Sets the most this side sends (its cap; the peer's accepted rate binds too), telling the peer nothing. */
  setSendCap(now: number, sendRate: RatePolicy): void {
    assertRatePolicy(sendRate);
    this.sendCap = sendRate;
    this.rateChanged(now);
  }

  /**
   * Tells the scheduler the time after the app queued data outside a callback (optional: it only sharpens
   * timing); on the connection's timer, also closes it if a manager failed since.
   */
  touch(now: number): void {
    this.lastNow = Math.max(this.lastNow, now);
    const f = this.failure;
    if (f !== undefined && !this.closed) this.conn.close?.(now, f.reason, f.detail);
  }

  /**
   * Closes the connection at its next timer call. For failures found outside the connection's callbacks (the
   * app's send overflowed a queue), where closing at once would pull the connection out from under the caller.
   */
  fail(reason: CloseReason, detail: string): void {
    if (this.failure !== undefined) return;
    this.failure = { reason, detail };
    this.conn.wake?.();
  }

  /**
   * The earliest time a manager's demand may rise by itself (the connection's timer wakes us then). Never
   * while the window is full: nothing could be sent, and a check that changes nothing stays due, so the timer
   * would fire again at once, forever; the ack that opens the window brings the send time back.
   */
  nextCheckAt(): number {
    if (this.closed) return Infinity;
    if (this.failure !== undefined) return this.lastNow;
    if (!this.conn.canSend()) return Infinity;
    let t = Infinity;
    for (const m of this.managers) t = Math.min(t, m.nextCheckAt?.() ?? Infinity);
    return t;
  }

  nextSendAt(): number {
    if (this.closed || !this.conn.canSend()) return Infinity;
    const demand = this.demand(this.lastNow);
    this.demandAtCheck = demand;
    if (demand === 'none') return Infinity;
    const interval = 1000 / this.effectiveRate.packetsPerSecond;
    const tick =
      demand === 'urgent'
        ? this.lastNow
        : this.backlogged
          ? this.lastSendAt + interval / BACKLOG_PACE
          : this.normalTick(interval);
    const ready = this.credit.readyAt(this.lastNow, this.urgentAction);
    // Data waiting on credit, not on the tick: the rate is what holds the sender back.
    if (ready > tick) this.controller?.markLimited();
    return Math.max(tick, ready, this.holdUntil);
  }

  /**
   * When data that isn't urgent (events, board ghosts) may start a packet of its own: one packet interval after
   * the last. While an urgent stream flows (a pointer at the mouse's rate, below our packet rate), it waits for
   * the stream's next packet instead, a little past when that is due, and rides it: otherwise a tick that falls
   * between two pointer packets costs a packet of its own.
   */
  private normalTick(interval: number): number {
    const tick = this.lastSendAt + interval;
    const gap = this.urgentGapMs;
    if (gap === undefined || this.lastNow - this.lastUrgentSendAt > URGENT_STREAM_LAPSE * gap)
      return tick;
    return Math.max(tick, this.lastUrgentSendAt + URGENT_RIDE_WAIT * gap);
  }

  onSendTime(now: number): void {
    this.touch(now);
    // One look at the send time per packet, and one to stop: each asks every manager's demand.
    for (let sent = 0; this.nextSendAt() <= now; sent++) {
      if (sent === this.maxBurst) {
        this.holdUntil = now + 1000 / this.effectiveRate.packetsPerSecond;
        return;
      }
      this.sendPacket(now);
    }
  }

  onPayload(now: number, r: BitReader): void {
    this.touch(now);
    let at = r.position;
    if (r.readBool()) {
      this.peerRate = readRateField(r);
      this.rateChanged(now);
    }
    const delay = readDelayField(r);
    if (delay.stamp !== undefined) this.forwardQueue.onStamp(now, delay.stamp);
    if (delay.reportMs !== undefined) this.controller?.onQueueReport(delay.reportMs);
    const managers = this.managers;
    const own = this.receivedBy[managers.length] as RateMeter;
    for (let i = 0; i < managers.length; i++) {
      const present = r.readBool();
      own.add(now, r.position - at);
      at = r.position;
      if (!present) continue;
      (managers[i] as StreamManager<unknown>).read(now, r);
      (this.receivedBy[i] as RateMeter).add(now, r.position - at);
      at = r.position;
    }
    if (r.bitsLeft >= 8) throw new ProtocolError(`${r.bitsLeft} bits after the last section`);
  }

  onNotify(now: number, record: PacketRecord, delivered: boolean): void {
    this.touch(now);
    const head = this.inFlight.shift();
    if (head !== record) throw new Error('scheduler: packet notified out of send order');
    if (delivered && record.rateVersion === this.rateVersion)
      this.rateDeliveredVersion = record.rateVersion;
    const rtt = this.conn.rtt;
    if (this.controller && rtt) {
      const wireBytes = Math.ceil(record.bits / 8) + PACKET_OVERHEAD_BYTES + UDP_IPV4_OVERHEAD;
      if (this.controller.onNotify(now, wireBytes, delivered, rtt)) this.rateChanged(now);
    }
    record.sections.forEach((rec, i) => {
      if (rec !== undefined) this.managers[i]?.notify(now, rec, delivered);
    });
    record.tracked.forEach((rec, i) => {
      if (rec !== undefined) this.trackers[i]?.notify(now, rec, delivered);
    });
  }

  onClosed(now: number, info: CloseInfo): void {
    this.closed = true;
    this.options.onClosed?.(now, info);
  }

  stats(now: number): StreamStats {
    const figures = (meters: readonly RateMeter[]): Record<string, TrafficFigures> => {
      const out: Record<string, TrafficFigures> = {};
      const put = (name: string, m: RateMeter | undefined): void => {
        if (m) out[name] = { bits: m.lifetimeTotal, bitsPerSecond: m.perSecond(now) };
      };
      put(SCHEDULER, meters[this.managers.length]);
      this.managers.forEach((mgr, i) => put(mgr.name, meters[i]));
      return out;
    };
    return {
      sent: figures(this.sentBy),
      received: figures(this.receivedBy),
      packetsBuilt: this.packetsBuilt,
      packetsInFlight: this.inFlight.length,
      localRate: this.localRate,
      sendRate: this.sendCap,
      peerRate: this.peerRate,
      effectiveRate: this.effectiveRate,
      adaptiveBytesPerSecond: this.controller?.bytesPerSecond,
      estimatedBytesPerSecond: this.controller?.estimatedBytesPerSecond,
      ceilingBytesPerSecond: this.ceiling,
    };
  }

  private get ratePending(): boolean {
    return this.rateDeliveredVersion !== this.rateVersion;
  }

  private demand(now: number): SendDemand {
    let d: SendDemand = this.ratePending ? 'normal' : 'none';
    let action = false;
    for (const m of this.managers) {
      const md = m.demand(now);
      if (md === 'urgent' && m.urgentState !== true) action = true;
      if (DEMAND_RANK[md] > DEMAND_RANK[d]) d = md;
    }
    this.urgentAction = action;
    return d;
  }

  private sendPacket(now: number): void {
    // What nextSendAt() found just before this call (onSendTime asks it before every packet).
    const urgent = this.demandAtCheck === 'urgent';
    const urgentEvent = this.urgentAction;
    const capBits = (this.effectiveRate.packetBytes - PACKET_OVERHEAD_BYTES) * 8;
    let built: PacketRecord | undefined;
    const sent = this.conn.send(now, (w, budgetBits) => {
      built = this.fill(now, w, Math.min(budgetBits, capBits));
      return built;
    });
    if (!sent || built === undefined) return;
    this.packetsBuilt++;
    this.inFlight.push(built);
    // Data still waiting after a packet took what fit: the rate, not the app, limits this sender.
    const waiting = this.demand(now) !== 'none';
    if (waiting) this.controller?.markLimited();
    this.backlogged = waiting && built.bits >= capBits * BACKLOG_FULL;
    this.lastSendAt = now;
    if (urgent) {
      this.urgentGapMs = smoothedGap(
        this.urgentGapMs,
        now - this.lastUrgentSendAt,
        URGENT_STREAM_MAX_GAP_MS,
      );
      this.lastUrgentSendAt = now;
    }
    this.credit.charge(now, Math.ceil(built.bits / 8), urgentEvent);
    this.onPacketSent?.(now, built);
  }

  private laterHaveDemand(now: number, i: number): boolean {
    for (let j = i + 1; j < this.managers.length; j++)
      if (this.managers[j]?.demand(now) !== 'none') return true;
    return false;
  }

  /**
   * Rate field (1 bit, then 18 while undelivered), the delay field (1 bit, then the 11-bit send-time stamp when
   * stamped; 1 bit, then 7 when there is a report of the queue seen on the peer's packets), then per manager a
   * presence bit and its section.
   */
  private fill(now: number, w: BitWriter, budgetBits: number): PacketRecord {
    const rateVersion = this.ratePending ? this.rateVersion : undefined;
    w.writeBool(rateVersion !== undefined);
    if (rateVersion !== undefined) writeRateField(w, this.localRate);
    // Stamped while the rate is shaped (the path, not the policy, holds us back: the queue matters), and every
    // UNSHAPED_STAMP_EVERY-th packet otherwise, so the peer knows the path's floor before a queue forms.
    const stamp =
      this.controller !== undefined &&
      (this.effective.bytesPerSecond !== undefined ||
        this.packetsBuilt % UNSHAPED_STAMP_EVERY === 0);
    writeDelayField(w, stamp ? now : undefined, this.forwardQueue.takeReport());
    let overhead = w.bitLength;
    const sections: unknown[] = [];
    const managers = this.managers;
    for (let i = 0; i < managers.length; i++) {
      const m = managers[i] as StreamManager<unknown>;
      const at = w.bitLength;
      // Room left once this and every later manager's presence bit is accounted for.
      let room = budgetBits - at - (managers.length - i);
      const share = m.maxShare;
      if (share !== undefined && share < 1 && this.laterHaveDemand(now, i))
        room = Math.min(room, Math.floor((budgetBits - overhead) * share));
      w.writeBool(true);
      const rec = room > 0 && m.demand(now) !== 'none' ? m.write(now, w, room) : undefined;
      if (w.bitLength > budgetBits) throw new Error(`stream manager ${m.name} overran its budget`);
      if (rec === undefined) {
        w.truncate(at);
        w.writeBool(false);
      } else {
        (this.sentBy[i] as RateMeter).add(now, w.bitLength - at - 1);
      }
      overhead++;
      sections.push(rec);
    }
    (this.sentBy[managers.length] as RateMeter).add(now, overhead);
    const tracked = this.trackers.map((t) => t.takeRecord());
    return {
      id: this.packetsBuilt,
      sentAt: now,
      rateVersion,
      sections,
      tracked,
      bits: w.bitLength,
    };
  }
}
