// Connection measurements: smoothed RTT, recent loss, per-second rates. Pure arithmetic on times passed in.

/** Bytes of IPv4 + UDP headers added to every datagram on the wire. */
export const UDP_IPV4_OVERHEAD = 28;

/**
 * The smoothed gap between events that come in a rhythm (a pointer's writes, a stream's packets) after one
 * more `gap`: gaps longer than `maxGapMs` are pauses, not the rhythm, and leave it as it was.
 */
export function smoothedGap(
  mean: number | undefined,
  gap: number,
  maxGapMs: number,
  gain = 1 / 8,
): number | undefined {
  if (!(gap <= maxGapMs)) return mean;
  return mean === undefined ? gap : mean + gain * (gap - mean);
}

/** RFC 6298-style smoothed RTT and variance, with the peer's ack delay taken out. */
export class RttEstimator {
  private srtt: number | undefined;
  private rttvar = 0;
  private minRtt = Infinity;
  private latest = 0;

  constructor(private readonly initialMs = 250) {}

  sample(rttMs: number, ackDelayMs: number): void {
    this.minRtt = Math.min(this.minRtt, rttMs);
    // Take the peer's delay out, but never below the path's floor: the delay travels in whole ms, so on a
    // sub-millisecond path it can exceed the sample (QUIC keeps the raw sample there; we clamp to the floor).
    const adjusted = Math.max(this.minRtt, rttMs - ackDelayMs);
    this.latest = adjusted;
    if (this.srtt === undefined) {
      this.srtt = adjusted;
      this.rttvar = adjusted / 2;
      return;
    }
    this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - adjusted);
    this.srtt = 0.875 * this.srtt + 0.125 * adjusted;
  }

  get smoothed(): number {
    return this.srtt ?? this.initialMs;
  }

  get variance(): number {
    return this.srtt === undefined ? this.initialMs / 2 : this.rttvar;
  }

  get min(): number {
    return this.minRtt;
  }

  /** The latest sample with the peer's ack delay taken out. */
  get latestMs(): number {
    return this.latest;
  }

  get hasSample(): boolean {
    return this.srtt !== undefined;
  }
}

/** Fraction of packets notified dropped among the last `size` notified. */
export class LossWindow {
  private readonly bits: Uint8Array;
  private count = 0;
  private next = 0;
  private dropped = 0;

  constructor(readonly size = 256) {
    this.bits = new Uint8Array(size);
  }

  record(delivered: boolean): void {
    const drop = delivered ? 0 : 1;
    if (this.count === this.size) this.dropped -= this.bits[this.next] ?? 0;
    else this.count++;
    this.bits[this.next] = drop;
    this.dropped += drop;
    this.next = (this.next + 1) % this.size;
  }

  /** Loss in [0, 1]; 0 before anything was notified. */
  get rate(): number {
    return this.count === 0 ? 0 : this.dropped / this.count;
  }
}

/** Events per second over a sliding one-second window of ten 100 ms buckets. */
export class RateMeter {
  private readonly buckets = new Float64Array(10);
  private bucketStart = 0;
  /** The bucket bucketStart falls in. */
  private bucket = 0;
  private total = 0;

  /** Called several times per packet sent or received. */
  add(now: number, amount: number): void {
    if (now >= this.bucketStart + 100) this.roll(now);
    const i = this.bucket;
    this.buckets[i] = (this.buckets[i] as number) + amount;
    this.total += amount;
  }

  /** Sum over the last second. */
  perSecond(now: number): number {
    this.roll(now);
    let sum = 0;
    for (const b of this.buckets) sum += b;
    return sum;
  }

  get lifetimeTotal(): number {
    return this.total;
  }

  private roll(now: number): void {
    const start = Math.floor(now / 100) * 100;
    if (start <= this.bucketStart) return;
    const steps = Math.min(10, (start - this.bucketStart) / 100);
    for (let k = 1; k <= steps; k++) {
      this.buckets[(this.bucket + k) % 10] = 0;
    }
    this.bucketStart = start;
    this.bucket = Math.floor(start / 100) % 10;
  }
}

/** A connection's traffic figures, machine readable. */
export interface ConnectionStats {
  readonly rttMs: number;
  readonly rttVarMs: number;
  readonly minRttMs: number;
  /** Dropped fraction of the last 256 notified packets, in percent. */
  readonly lossPct: number;
  readonly packetsSent: number;
  readonly packetsReceived: number;
  /** Datagram bytes (header + ciphertext + tag), without IP/UDP. */
  readonly bytesSent: number;
  readonly bytesReceived: number;
  /** Stream-layer payload bytes carried (before sealing). */
  readonly payloadBytesSent: number;
  readonly payloadBytesReceived: number;
  readonly packetsPerSecondOut: number;
  readonly packetsPerSecondIn: number;
  /** On the wire, counting 28 B of IPv4/UDP per datagram. */
  readonly wireKbpsOut: number;
  readonly wireKbpsIn: number;
  readonly payloadKbpsOut: number;
  readonly payloadKbpsIn: number;
  readonly inFlight: number;
  readonly windowSize: number;
  readonly packetsDelivered: number;
  readonly packetsDropped: number;
  /** Received packets discarded: duplicates, late (out of order), failed authentication or decoding. */
  readonly packetsDiscarded: number;
}
