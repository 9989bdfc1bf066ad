// The event stream manager (TRIBES "Event Stream Manager", TNL message-level reliability): queues events per
// policy, packs them by priority, resends per message on drop, and reads, orders and dedupes on receipt.
// Knows nothing of what an event carries (the decoder does), of RPC names or of sockets.
import type { BitReader, BitWriter } from '../bitstream';
import { seqExpand } from '../seq';
import { OrderedInbox } from './event-inbox';
import type { Entry, Lane } from './event-lanes';
import { Lanes } from './event-lanes';
import type { EventDecoder, OutgoingEvent, PerPolicy, Policy } from './event-types';
import { isOrderedStream, isReliable, perPolicy } from './event-types';
import type { SendDemand, StreamManager } from './manager';
import { ProtocolError } from './manager';
import type { Checkpointable } from './tracker';

export interface EventManagerOptions {
  readonly decoder: EventDecoder;
  /**
   * Ordered-stream window per channel, a power of two in 2..1024; both ends must agree. The receiver buffers at
   * most this many early events per channel; sequences travel as log2(window) + 1 low bits.
   */
  readonly window?: number;
  /**
   * Most events, and bytes of their bodies, waiting to be sent (the app's memory choice). Past either, send()
   * refuses and calls onOverflow: reliable events are never dropped, so a peer that falls this far behind (it
   * stopped reading) must be let go rather than kept with a gap in what it was promised.
   */
  readonly maxQueued?: number;
  readonly maxQueuedBytes?: number;
  readonly onOverflow?: (detail: string) => void;
  /** Largest event (kind id, sequence and body), bits; must fit the smallest packet (RATE_PRESETS.modem). */
  readonly maxEventBits?: number;
  /** State written through event bodies (string tables) that a truncated write must roll back. */
  readonly checkpoints?: readonly Checkpointable[];
}

export const DEFAULT_EVENT_WINDOW = 128;
/** 150 bytes: fits a 200-byte modem packet after the seal, header, rate field and presence bits. */
export const DEFAULT_MAX_EVENT_BITS = 1200;

/** The event manager's part of a packet's transmission record: the events it carried, in write order. */
export interface EventRecord {
  readonly entries: readonly Entry[];
}

export interface EventCounters {
  /** Unreliable events that didn't fit the packet built while they waited (priority lost), dropped. */
  unreliableDropped: number;
  /** Unreliable events in packets notified dropped. */
  unreliableLost: number;
  /** Reliable-sequenced events not resent (or not sent) because a newer one of their channel exists. */
  superseded: number;
  /** Reliable events put back at the head of their queue after a drop. */
  resent: number;
  /** Extra copies of reliable-ordered events written ahead of any loss (kinds with copies > 1). */
  copies: number;
}

/** Bits the events of each policy took on the wire, for overhead figures. */
export interface EventBitCounts {
  /** Everything, every copy: continuation bits, kind ids, sequences, bodies. */
  readonly total: PerPolicy<number>;
  /** Kind id and body of each event's first copy: what a message "is", before framing and redundancy. */
  readonly payload: PerPolicy<number>;
  /** Distinct events written. */
  readonly events: PerPolicy<number>;
}

/** Per packet being built: where it must stop, and the last sequence written per channel. */
interface Build {
  readonly w: BitWriter;
  readonly limit: number;
  readonly prevSeq: Map<number, number>;
  readonly entries: Entry[];
}

export class EventManager implements StreamManager<EventRecord> {
  wake: (() => void) | undefined = undefined;
  readonly name = 'events';
  readonly window: number;
  readonly seqBits: number;
  readonly counters: EventCounters = {
    unreliableDropped: 0,
    unreliableLost: 0,
    superseded: 0,
    resent: 0,
    copies: 0,
  };
  readonly bits: EventBitCounts = {
    total: perPolicy(() => 0),
    payload: perPolicy(() => 0),
    events: perPolicy(() => 0),
  };
  readonly inbox: OrderedInbox;
  private readonly lanes: Lanes;
  private readonly decoder: EventDecoder;
  private readonly checkpoints: readonly Checkpointable[];
  private readonly maxQueued: number;
  private readonly maxQueuedBits: number;
  private readonly onOverflow: ((detail: string) => void) | undefined;
  /** Once a send overflowed, every later one is refused too: the connection is on its way out. */
  private overflowed = false;
  private readonly maxEventBits: number;
  private nextOrder = 0;
  /** Packets built (write() calls), so an event is never copied into the packet that carries its send. */
  private packets = 0;
  /** Sent events of kinds with copies > 1 whose extra copies haven't all gone, oldest first. */
  private readonly copying: Entry[] = [];
  private unsettledCount = 0;
  /** Quickest events in every stream's `quickest` list (sent, not yet known delivered): demand() runs per packet. */
  private quickestWaiting = 0;

  constructor(options: EventManagerOptions) {
    this.window = options.window ?? DEFAULT_EVENT_WINDOW;
    if (!Number.isInteger(Math.log2(this.window)) || this.window < 2 || this.window > 1024) {
      throw new RangeError(`event window must be a power of two in 2..1024, got ${this.window}`);
    }
    this.seqBits = Math.log2(this.window) + 1;
    this.decoder = options.decoder;
    this.checkpoints = options.checkpoints ?? [];
    this.maxQueued = options.maxQueued ?? Infinity;
    this.maxQueuedBits = (options.maxQueuedBytes ?? Infinity) * 8;
    this.onOverflow = options.onOverflow;
    this.maxEventBits = options.maxEventBits ?? DEFAULT_MAX_EVENT_BITS;
    this.lanes = new Lanes(this.window);
    this.inbox = new OrderedInbox(this.window);
  }

  /**
   * Queues an event. Returns false, queuing nothing, when it would take the queue past maxQueued events or
   * maxQueuedBytes (and reports the overflow). An event that could never fit a packet is a programmer error
   * (RangeError).
   */
  send(ev: OutgoingEvent): boolean {
    const kind = ev.kind;
    const bits =
      1 +
      this.decoder.idBits +
      (isOrderedStream(kind.policy) ? 1 + this.seqBits : 0) +
      ev.maxBodyBits;
    if (bits > this.maxEventBits)
      throw new RangeError(`event ${kind.name} may take ${bits} bits > ${this.maxEventBits}`);
    if (this.overflowed) return false;
    const queued = this.queueLength;
    if (queued >= this.maxQueued || this.queuedBits + ev.maxBodyBits > this.maxQueuedBits) {
      this.overflowed = true;
      const bytes = Math.ceil(this.queuedBits / 8);
      this.onOverflow?.(`too much was waiting to be sent: ${queued} events, ${bytes} bytes`);
      return false;
    }
    const lane = this.lanes.laneFor(kind);
    if (isReliable(kind.policy)) this.unsettledCount++;
    lane.push({
      ev,
      order: this.nextOrder++,
      laneSeq: lane.enqueued++,
      seq: undefined,
      written: false,
      acked: false,
      inFlight: 0,
      copiesLeft: 0,
      lastPacket: -1,
    });
    this.wake?.();
    return true;
  }

  /** Events waiting to be sent or resent, including quickest ones not yet known delivered. */
  get queueLength(): number {
    let n = 0;
    for (const lane of this.lanes.all) n += lane.queue.length;
    for (const s of this.lanes.streams.values()) n += s.quickest.length;
    return n;
  }

  /** Worst-case body bits of the events waiting to be sent or resent (what queueLength holds in memory). */
  get queuedBits(): number {
    let n = 0;
    for (const lane of this.lanes.all) n += lane.bits;
    for (const s of this.lanes.streams.values()) n += s.quickestBits;
    return n;
  }

  /**
   * Events the other side may still need: every reliable or quickest event queued or in flight and not yet known
   * delivered, less reliable-sequenced ones a newer event of their lane made stale. At zero, everything this
   * side has sent that must arrive has arrived (a barrier for "all my edits are in").
   */
  get unsettled(): number {
    return this.unsettledCount;
  }

  demand(_now: number): SendDemand {
    let d: SendDemand = this.copying.length > 0 || this.quickestWaiting > 0 ? 'normal' : 'none';
    for (const lane of this.lanes.all) {
      const ld = lane.demand();
      if (ld === 'urgent') return 'urgent';
      if (ld === 'normal') d = 'normal';
    }
    return d;
  }

  /**
   * Section layout: events, each after the first preceded by a 1 bit, then a 0 bit. Quickest events still
   * unacknowledged go first, then the rest by priority (higher first), oldest first within a priority, then
   * extra copies of earlier sends in whatever room is left.
   */
  write(_now: number, w: BitWriter, budgetBits: number): EventRecord | undefined {
    this.packets++;
    const b: Build = { w, limit: w.bitLength + budgetBits - 1, prevSeq: new Map(), entries: [] };
    for (const s of this.lanes.streams.values()) for (const e of s.quickest) this.tryWrite(b, e);
    for (const lane of this.lanes.all) lane.beginPacket();
    while (b.limit - w.bitLength >= (b.entries.length === 0 ? 0 : 1) + this.decoder.idBits) {
      const next = this.pickNext();
      if (next === undefined) break;
      this.writeFromLane(b, next.lane, next.e);
    }
    this.writeCopies(b);
    for (const lane of this.lanes.all) this.counters.unreliableDropped += lane.dropUnreliable();
    if (b.entries.length === 0) return undefined;
    w.writeBool(false);
    return { entries: b.entries };
  }

  read(now: number, r: BitReader): void {
    const prevSeq = new Map<number, number>();
    do {
      const id = r.readUint(this.decoder.idBits);
      const kind = this.decoder.kindById(id);
      if (kind === undefined) throw new ProtocolError(`unknown event id ${id}`);
      let seq: number | undefined;
      if (isOrderedStream(kind.policy)) {
        const prev = prevSeq.get(kind.channel);
        seq =
          prev !== undefined && r.readBool()
            ? prev + 1
            : seqExpand(r.readUint(this.seqBits), this.seqBits, this.inbox.nextSeq(kind.channel));
        prevSeq.set(kind.channel, seq);
      }
      const deliver = this.decoder.readBody(kind, r);
      // Packets are processed strictly in send order (the connection discards late ones) and every event is
      // written at most once per in-flight packet, so only the ordered streams need sequence numbers.
      if (seq === undefined) deliver(now);
      else this.inbox.accept(now, kind.channel, seq, deliver);
    } while (r.readBool());
  }

  notify(_now: number, record: EventRecord, delivered: boolean): void {
    for (const e of record.entries) this.notifyEntry(e, delivered);
  }

  /** Copies of earlier sends, into the room the packet has left; a copy never shares a packet with its send. */
  private writeCopies(b: Build): void {
    let kept = 0;
    for (const e of this.copying) {
      if (
        e.lastPacket !== this.packets &&
        b.limit - b.w.bitLength >= 1 + this.decoder.idBits &&
        this.tryWrite(b, e)
      ) {
        e.copiesLeft--;
        this.counters.copies++;
      }
      if (e.copiesLeft > 0) this.copying[kept++] = e;
    }
    this.copying.length = kept;
  }

  /** Keeps the invariant: `copying` holds exactly the entries with copies left to write. */
  private stopCopies(e: Entry): void {
    if (e.copiesLeft === 0) return;
    this.copying.splice(this.copying.indexOf(e), 1);
    e.copiesLeft = 0;
  }

  private notifyEntry(e: Entry, delivered: boolean): void {
    const kind = e.ev.kind;
    e.inFlight--;
    switch (kind.policy) {
      case 'unreliable':
      case 'unreliableSequenced':
        if (!delivered) this.counters.unreliableLost++;
        return;
      case 'reliableUnordered':
      case 'reliableOrdered':
        if (e.acked) return;
        if (delivered) {
          e.acked = true;
          this.unsettledCount--;
          this.stopCopies(e);
          if (e.seq !== undefined) this.lanes.streamFor(kind.channel).ack(e.seq);
        } else if (e.inFlight === 0) {
          // Every copy in flight is lost. A copy still waiting for room goes back as the resend.
          this.stopCopies(e);
          this.lanes.laneFor(kind).requeue(e);
          this.counters.resent++;
        }
        return;
      case 'reliableSequenced': {
        if (delivered) {
          this.unsettledCount--;
          return;
        }
        const lane = this.lanes.laneFor(kind);
        if (e.laneSeq === lane.enqueued - 1) {
          lane.requeue(e);
          this.counters.resent++;
        } else {
          this.counters.superseded++;
          this.unsettledCount--;
        }
        return;
      }
      case 'quickest': {
        if (!delivered || e.acked || e.seq === undefined) return;
        e.acked = true;
        this.unsettledCount--;
        const s = this.lanes.streamFor(kind.channel);
        const i = s.quickest.indexOf(e);
        if (i >= 0) {
          s.quickest.splice(i, 1);
          s.quickestBits -= e.ev.maxBodyBits;
          this.quickestWaiting--;
        }
        s.ack(e.seq);
        return;
      }
    }
  }

  /** The best head over all lanes: highest priority, then oldest. */
  /** A stale sequenced event a lane's head() dropped (made once: pickNext runs for every event written). */
  private readonly discard = (): void => {
    this.counters.superseded++;
    this.unsettledCount--;
  };

  private pickNext(): { lane: Lane; e: Entry } | undefined {
    let best: { lane: Lane; e: Entry } | undefined;
    for (const lane of this.lanes.all) {
      const e = lane.head(this.discard);
      if (e === undefined) continue;
      const p = e.ev.kind.priority;
      const bp = best?.e.ev.kind.priority ?? -1;
      if (best === undefined || p > bp || (p === bp && e.order < best.e.order)) best = { lane, e };
    }
    return best;
  }

  private writeFromLane(b: Build, lane: Lane, e: Entry): void {
    const policy = e.ev.kind.policy;
    const stream = isOrderedStream(policy) ? this.lanes.streamFor(e.ev.kind.channel) : undefined;
    const seq = e.seq ?? stream?.nextSeq;
    if (!this.tryWrite(b, e, seq)) {
      if (isReliable(policy)) {
        lane.skip();
      } else {
        lane.removeHead();
        this.counters.unreliableDropped++;
      }
      return;
    }
    lane.removeHead();
    if (e.ev.kind.copies > 1) {
      this.copying.push(e);
      e.copiesLeft = e.ev.kind.copies - 1;
    }
    if (stream !== undefined && e.seq === undefined) {
      e.seq = stream.nextSeq++;
      if (policy === 'quickest') {
        stream.quickest.push(e);
        stream.quickestBits += e.ev.maxBodyBits;
        this.quickestWaiting++;
      }
    }
    if (lane.kind === 'sequenced') lane.highestWritten = e.laneSeq;
  }

  /** Writes one event; if it overruns the limit, rolls it back (bits and string-table state) and says so. */
  private tryWrite(b: Build, e: Entry, seq: number | undefined = e.seq): boolean {
    const w = b.w;
    const mark = w.bitLength;
    const marks = this.checkpoints.map((c) => c.mark());
    if (b.entries.length > 0) w.writeBool(true);
    const bodyStart = w.bitLength;
    w.writeUint(e.ev.kind.id, this.decoder.idBits);
    let seqBits = 0;
    if (seq !== undefined) seqBits = this.writeSeq(b, e.ev.kind.channel, seq);
    e.ev.writeBody(w);
    if (w.bitLength > b.limit) {
      w.truncate(mark);
      this.checkpoints.forEach((c, i) => {
        c.rollback(marks[i] ?? 0);
      });
      return false;
    }
    if (seq !== undefined) b.prevSeq.set(e.ev.kind.channel, seq);
    b.entries.push(e);
    e.inFlight++;
    e.lastPacket = this.packets;
    this.countBits(
      e.ev.kind.policy,
      w.bitLength - mark,
      w.bitLength - bodyStart - seqBits,
      !e.written,
    );
    e.written = true;
    return true;
  }

  /** First of its channel in the packet: the low seqBits bits; later: 1 bit if previous + 1, else 0 and the low bits. */
  private writeSeq(b: Build, channel: number, seq: number): number {
    const prev = b.prevSeq.get(channel);
    let bits = 0;
    if (prev !== undefined) {
      bits++;
      b.w.writeBool(seq === prev + 1);
      if (seq === prev + 1) return bits;
    }
    b.w.writeUint(seq % 2 ** this.seqBits, this.seqBits);
    return bits + this.seqBits;
  }

  private countBits(policy: Policy, total: number, payload: number, first: boolean): void {
    this.bits.total[policy] += total;
    if (!first) return;
    this.bits.payload[policy] += payload;
    this.bits.events[policy]++;
  }
}
