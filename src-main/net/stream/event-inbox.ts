// The event receiver's ordered streams: per channel, the next sequence to deliver and a buffer of early arrivals
// bounded by the window. Knows nothing of bits, packets or what an event carries.
import { ProtocolError } from './manager';

type Deliver = (now: number) => void;

class OrderedStreamIn {
  next = 0;
  readonly early = new Map<number, Deliver>();
}

export class OrderedInbox {
  /** Most early arrivals held at once on any one channel (stays <= window). */
  maxBuffered = 0;
  /** Copies of events already delivered or buffered (quickest repeats), discarded. */
  duplicates = 0;
  private readonly streams = new Map<number, OrderedStreamIn>();

  constructor(readonly window: number) {}

  /** The sequence the channel delivers next: the reference its sequence numbers are expanded against. */
  nextSeq(channel: number): number {
    return this.streams.get(channel)?.next ?? 0;
  }

  /** Takes one arrival; delivers it and whatever it unblocks, in order. */
  accept(now: number, channel: number, seq: number, deliver: Deliver): void {
    let s = this.streams.get(channel);
    if (s === undefined) {
      s = new OrderedStreamIn();
      this.streams.set(channel, s);
    }
    if (seq < s.next || s.early.has(seq)) {
      this.duplicates++;
      return;
    }
    // A correct sender never assigns oldestUnacked + window or beyond, and oldestUnacked <= next here.
    if (seq >= s.next + this.window)
      throw new ProtocolError(`channel ${channel} sequence ${seq} beyond the window`);
    if (seq > s.next) {
      s.early.set(seq, deliver);
      this.maxBuffered = Math.max(this.maxBuffered, s.early.size);
      return;
    }
    deliver(now);
    s.next++;
    for (let d = s.early.get(s.next); d !== undefined; d = s.early.get(s.next)) {
      s.early.delete(s.next);
      s.next++;
      d(now);
    }
  }

  /** Early arrivals currently held, over all channels. */
  get buffered(): number {
    let n = 0;
    for (const s of this.streams.values()) n += s.early.size;
    return n;
  }
}
