// Test kit: a deterministic simulated network for tests and benchmarks, each direction of each path impaired
// (loss, delay, jitter, reordering, duplication, a bandwidth cap), driven by one seeded RNG and a virtual clock.
// Knows nothing of protocols.
import type { PeerAddress } from '../address';
import { addressKey } from '../address';
import type { Rng } from '../rng';
import { UDP_IPV4_OVERHEAD } from '../stats';
import type { Bottleneck, Impairment } from '../impairment';
import { NO_IMPAIRMENT, shapeDatagram } from '../impairment';
import { DueHeap } from '../due-heap';

export interface Datagram {
  readonly from: PeerAddress;
  readonly to: PeerAddress;
  readonly bytes: Uint8Array;
}

/** What happened to each datagram, for tests that check against the network's own record. */
export interface DatagramLogEntry {
  readonly id: number;
  readonly from: string;
  readonly to: string;
  readonly sentAt: number;
  readonly size: number;
  /** Delivery times (two for a duplicate); empty when lost. */
  readonly deliveredAt: number[];
}

interface InFlight {
  readonly at: number;
  readonly order: number;
  readonly datagram: Datagram;
  readonly logId: number;
}

type Direction = Bottleneck;

export class SimNetwork {
  private readonly queue = new DueHeap<InFlight>();
  private order = 0;
  private readonly directions = new Map<string, Direction>();
  readonly log: DatagramLogEntry[] = [];
  /** Keep a log of every datagram (off for long benchmarks). */
  logging = true;
  /** Bytes offered to and delivered by the network, per `from>to`, 28 B per datagram included. */
  readonly wireBytes = new Map<string, { offered: number; delivered: number }>();

  constructor(
    private readonly rng: Rng,
    private defaults: Impairment = NO_IMPAIRMENT,
  ) {}

  /** Sets the conditions for every direction without its own. */
  setDefaults(c: Impairment): void {
    this.defaults = c;
    for (const d of this.directions.values()) d.conditions = c;
  }

  /** Sets one direction's conditions. */
  setConditions(from: PeerAddress, to: PeerAddress, c: Impairment): void {
    this.direction(from, to).conditions = c;
  }

  send(now: number, datagram: Datagram): void {
    const key = `${addressKey(datagram.from)}>${addressKey(datagram.to)}`;
    const dir = this.direction(datagram.from, datagram.to);
    const size = datagram.bytes.length + UDP_IPV4_OVERHEAD;
    const counts = this.wireBytes.get(key) ?? { offered: 0, delivered: 0 };
    this.wireBytes.set(key, counts);
    counts.offered += size;
    const entry: DatagramLogEntry = {
      id: this.log.length,
      from: addressKey(datagram.from),
      to: addressKey(datagram.to),
      sentAt: now,
      size,
      deliveredAt: [],
    };
    if (this.logging) this.log.push(entry);
    const verdict = shapeDatagram(dir, this.rng, now, size);
    if (verdict.kind !== 'deliver') return;
    counts.delivered += size;
    for (const at of verdict.at) {
      entry.deliveredAt.push(at);
      this.queue.push({
        at,
        order: this.order++,
        datagram: { ...datagram, bytes: datagram.bytes.slice() },
        logId: entry.id,
      });
    }
  }

  /** When the next datagram arrives, or Infinity. */
  nextDeliveryAt(): number {
    return this.queue.peek()?.at ?? Infinity;
  }

  /** Removes and returns the next datagram due at or before `now`, in arrival order. */
  popDue(now: number): (Datagram & { readonly logId: number }) | undefined {
    const head = this.queue.peek();
    if (head === undefined || head.at > now) return undefined;
    this.queue.pop();
    return { ...head.datagram, logId: head.logId };
  }

  private direction(from: PeerAddress, to: PeerAddress): Direction {
    const key = `${addressKey(from)}>${addressKey(to)}`;
    let d = this.directions.get(key);
    if (d === undefined) {
      d = { conditions: this.defaults, busyUntil: 0 };
      this.directions.set(key, d);
    }
    return d;
  }
}
