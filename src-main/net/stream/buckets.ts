// Two token buckets side by side, bytes and packets, each earning at its own rate up to its own cap: what a sender
// may spend, and when it may next. A session's send credit (rate.ts) and a mirror link's stream budget
// (mirror/stream-budget.ts) are both this, with their own rates and caps. Pure arithmetic on times passed in; knows
// nothing of packets or policies.

export interface BucketLimits {
  /** Bytes earned per second (> 0). */
  readonly bytesPerSecond: number;
  /** Packets earned per second (> 0). */
  readonly packetsPerSecond: number;
  /** Most bytes saved up while the sender is idle. */
  readonly maxBytes: number;
  /** Most packets saved up. */
  readonly maxPackets: number;
}

/** Rounding room: a bucket that earned back to its mark at the time readyAt gave is ready then. */
const EPSILON = 1e-9;

export class ByteAndPacketBuckets {
  private bytes: number;
  private packets: number;
  /** The latest time the buckets were brought up to. */
  private at: number;

  /** Starts full (what an idle sender has saved), at `now` (-Infinity: as if idle for ever). */
  constructor(
    now: number,
    private limits: BucketLimits,
  ) {
    assertLimits(limits);
    this.bytes = limits.maxBytes;
    this.packets = limits.maxPackets;
    this.at = now;
  }

  get bytesPerSecond(): number {
    return this.limits.bytesPerSecond;
  }

  /** New rates and caps from `now` on: what was earned until then is kept, within the new caps. */
  setLimits(now: number, limits: BucketLimits): void {
    assertLimits(limits);
    this.accrue(now);
    this.limits = limits;
    this.bytes = Math.min(this.bytes, limits.maxBytes);
    this.packets = Math.min(this.packets, limits.maxPackets);
  }

  /** Whether a packet may start now: no bucket overdrawn, and a whole packet left over `reserve` more. */
  canSpend(now: number, reserve = 0): boolean {
    this.accrue(now);
    return this.bytes >= -EPSILON && this.packets >= 1 + reserve - EPSILON;
  }

  /**
   * The earliest time canSpend(·, reserve) holds: `now` if it already does. Without `now`, from the last time the
   * buckets were brought up to (a timer's question asked between calls that pass the time).
   */
  readyAt(now?: number, reserve = 0): number {
    const from = now === undefined ? this.at : Math.max(now, this.at);
    this.accrue(from);
    const byteWait = (Math.max(0, -this.bytes) / this.limits.bytesPerSecond) * 1000;
    const packetWait =
      (Math.max(0, 1 + reserve - this.packets) / this.limits.packetsPerSecond) * 1000;
    const wait = Math.max(byteWait, packetWait);
    return wait <= EPSILON ? from : from + wait;
  }

  /** The earliest time the byte bucket is not overdrawn, whatever the packets (see readyAt). */
  bytesReadyAt(now: number): number {
    return this.readyAt(now, -Infinity);
  }

  /** Spends `bytes` and `packets`; a bucket may go below empty (a full packet overdraws, and the next one waits). */
  charge(now: number, bytes: number, packets: number): void {
    this.accrue(now);
    this.bytes -= bytes;
    this.packets -= packets;
  }

  private accrue(now: number): void {
    if (!(now > this.at)) return;
    const dt = (now - this.at) / 1000;
    const l = this.limits;
    this.bytes = Math.min(l.maxBytes, this.bytes + dt * l.bytesPerSecond);
    this.packets = Math.min(l.maxPackets, this.packets + dt * l.packetsPerSecond);
    this.at = now;
  }
}

function assertLimits(l: BucketLimits): void {
  if (!(l.bytesPerSecond > 0) || !(l.packetsPerSecond > 0) || !(l.maxBytes >= 0))
    throw new RangeError(`bad buckets ${l.bytesPerSecond} B/s, ${l.packetsPerSecond}/s`);
  if (!(l.maxPackets >= 1)) throw new RangeError(`bad packet cap ${l.maxPackets}`);
}
