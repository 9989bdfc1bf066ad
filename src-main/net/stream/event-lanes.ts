// The event sender's queues: one lane per ordering constraint, each sorted by queue order so resent events
// go back at the head, plus each channel's ordered-stream window. Knows nothing of bits, packets or RPCs.
import type { EventKind, OutgoingEvent } from './event-types';

/** One queued event. */
export interface Entry {
  readonly ev: OutgoingEvent;
  /** Queue order, global and increasing: resent events sort before newer ones. */
  readonly order: number;
  /** Sequenced lanes: the event's position among its lane's events. */
  readonly laneSeq: number;
  /** Ordered-stream sequence, assigned when first written (TNL): the window counts only what left. */
  seq: number | undefined;
  /** Whether it has been written at least once. */
  written: boolean;
  /** Quickest, and reliable-ordered with copies: a packet carrying it was delivered. */
  acked: boolean;
  /** Packets carrying it that are in flight (not yet notified). */
  inFlight: number;
  /** Copies still to ride later packets after this send's first (kind.copies - 1 at each send). */
  copiesLeft: number;
  /** The packet (by the manager's count) it was last written into. */
  lastPacket: number;
}

/**
 * One channel's ordered stream (reliable-ordered and quickest events share it): sequences are assigned in
 * queue order, and none is assigned at or past oldestUnacked + window, which bounds the receiver's buffer.
 */
export class OrderedStreamOut {
  nextSeq = 0;
  oldestUnacked = 0;
  /** Quickest events written and not yet known delivered, by sequence: they go into every packet. */
  readonly quickest: Entry[] = [];
  /** Body bits (worst case) of the events in `quickest`. */
  quickestBits = 0;
  private readonly ackedAhead = new Set<number>();

  constructor(readonly window: number) {}

  get canAssign(): boolean {
    return this.nextSeq < this.oldestUnacked + this.window;
  }

  ack(seq: number): void {
    if (seq < this.oldestUnacked) return;
    this.ackedAhead.add(seq);
    while (this.ackedAhead.delete(this.oldestUnacked)) this.oldestUnacked++;
  }
}

type LaneKind = 'ordered' | 'sequenced' | 'unordered';

/** Events whose relative order matters (or a priority level's unordered ones), sorted by queue order. */
export class Lane {
  readonly queue: Entry[] = [];
  /** Urgent events queued here. */
  urgent = 0;
  /** Body bits (worst case) of the events queued here: what the lane holds in memory. */
  bits = 0;
  /** Events ever queued here (sequenced lanes: the next laneSeq). */
  enqueued = 0;
  /** Sequenced lanes: highest laneSeq written so far. */
  highestWritten = -1;
  /** Per packet: how far this packet's pass has got, and whether the lane is done for this packet. */
  private cursor = 0;
  private blocked = false;

  constructor(
    readonly kind: LaneKind,
    readonly stream: OrderedStreamOut | undefined,
  ) {}

  push(e: Entry): void {
    this.queue.push(e);
    this.bits += e.ev.maxBodyBits;
    if (e.ev.kind.urgent) this.urgent++;
  }

  /** Puts a dropped event back by queue order: at the head, before newer ones. */
  requeue(e: Entry): void {
    let lo = 0;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.queue[mid]?.order ?? Infinity) < e.order) lo = mid + 1;
      else hi = mid;
    }
    this.queue.splice(lo, 0, e);
    this.bits += e.ev.maxBodyBits;
    if (e.ev.kind.urgent) this.urgent++;
  }

  beginPacket(): void {
    this.cursor = 0;
    this.blocked = false;
  }

  /** The next event this packet may try; stale sequenced ones are removed and passed to `discard`. */
  head(discard: (e: Entry) => void): Entry | undefined {
    if (this.blocked) return undefined;
    for (;;) {
      const e = this.queue[this.cursor];
      if (e === undefined) return undefined;
      switch (this.kind) {
        case 'ordered':
          return e.seq !== undefined || this.stream?.canAssign === true ? e : undefined;
        case 'unordered':
          return e;
        case 'sequenced':
          // Written or not, an event older than one already written, or a resend a newer event overtook, is stale.
          // (A resend of the newest written one has laneSeq === highestWritten and may go again.)
          if (e.laneSeq >= this.highestWritten && !(e.written && e.laneSeq < this.enqueued - 1))
            return e;
          this.removeHead();
          discard(e);
      }
    }
  }

  /** Removes the event head() returned. */
  removeHead(): void {
    const [e] = this.queue.splice(this.cursor, 1);
    if (e === undefined) return;
    this.bits -= e.ev.maxBodyBits;
    if (e.ev.kind.urgent) this.urgent--;
  }

  /** The event head() returned doesn't fit this packet: later ones may (unordered) or must wait (ordered). */
  skip(): void {
    if (this.kind === 'unordered') this.cursor++;
    else this.blocked = true;
  }

  /** Removes every unreliable event (their one chance was the packet just built); returns how many. */
  dropUnreliable(): number {
    const before = this.queue.length;
    let urgent = 0;
    let bits = 0;
    const kept = this.queue.filter((e) => {
      const keep = e.ev.kind.policy !== 'unreliable' && e.ev.kind.policy !== 'unreliableSequenced';
      if (keep && e.ev.kind.urgent) urgent++;
      if (keep) bits += e.ev.maxBodyBits;
      return keep;
    });
    this.queue.length = 0;
    this.queue.push(...kept);
    this.urgent = urgent;
    this.bits = bits;
    return before - kept.length;
  }

  /** Whether this lane has something to send now, and whether it is urgent. */
  demand(): 'none' | 'normal' | 'urgent' {
    const e = this.queue[0];
    if (e === undefined) return 'none';
    if (this.kind === 'ordered' && e.seq === undefined && this.stream?.canAssign !== true)
      return 'none';
    const urgent = this.kind === 'unordered' ? this.urgent > 0 : e.ev.kind.urgent;
    return urgent ? 'urgent' : 'normal';
  }
}

/** Every lane of one connection's sender, created as kinds are first used. */
export class Lanes {
  readonly all: Lane[] = [];
  readonly streams = new Map<number, OrderedStreamOut>();
  private readonly byKey = new Map<string, Lane>();

  constructor(private readonly window: number) {}

  laneFor(kind: EventKind): Lane {
    const key = laneKey(kind);
    let lane = this.byKey.get(key);
    if (lane === undefined) {
      lane = this.makeLane(kind);
      this.byKey.set(key, lane);
      this.all.push(lane);
    }
    return lane;
  }

  streamFor(channel: number): OrderedStreamOut {
    let s = this.streams.get(channel);
    if (s === undefined) {
      s = new OrderedStreamOut(this.window);
      this.streams.set(channel, s);
    }
    return s;
  }

  private makeLane(kind: EventKind): Lane {
    switch (kind.policy) {
      case 'reliableOrdered':
      case 'quickest':
        return new Lane('ordered', this.streamFor(kind.channel));
      case 'unreliableSequenced':
      case 'reliableSequenced':
        return new Lane('sequenced', undefined);
      case 'unreliable':
      case 'reliableUnordered':
        return new Lane('unordered', undefined);
    }
  }
}

function laneKey(kind: EventKind): string {
  switch (kind.policy) {
    case 'reliableOrdered':
    case 'quickest':
      return `o${kind.channel}`;
    case 'unreliableSequenced':
      return `us${kind.channel}`;
    case 'reliableSequenced':
      return `rs${kind.channel}`;
    case 'unreliable':
    case 'reliableUnordered':
      return `u${kind.priority}`;
  }
}
