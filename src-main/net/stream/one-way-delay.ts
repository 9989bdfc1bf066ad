// One-way queueing delay (LEDBAT's measure, RFC 6817): every packet carries its send time's low bits; the
// receiver sees each packet's delay up to the clocks' constant offset, and its rise over the lowest of the last
// seconds is the queue on that direction alone. The receiver reports it back, so each sender backs off for its
// own bottleneck, not for the other direction's queue that its RTT also carries. Pure arithmetic on times and
// wire values passed in; knows nothing of packets, managers or the rate controller.
import type { BitReader, BitWriter } from '../bitstream';

/** Send-time stamp: ms modulo 2^11 (2.048 s, four times the deepest queue worth measuring). */
export const STAMP_BITS = 11;
const STAMP_MOD = 1 << STAMP_BITS;
/** Queue report: ms in 4 ms steps, 7 bits (0-508 ms; deeper reads as the top). */
export const REPORT_BITS = 7;
export const REPORT_STEP_MS = 4;
const REPORT_MAX = (1 << REPORT_BITS) - 1;
/** The path's floor is the lowest delay over this long (it may change with the route). */
const BASE_WINDOW_MS = 10_000;
const BASE_BUCKET_MS = 1000;

/** The stamp a packet sent at `now` carries. */
export function stampOf(now: number): number {
  return ((Math.floor(now) % STAMP_MOD) + STAMP_MOD) % STAMP_MOD;
}

/**
 * A presence bit and the send-time stamp (packets of a sender whose rate is shaped to the path carry it, others
 * now and then, so the receiver keeps the path's floor), then a presence bit and the report (the queue this side
 * sees on the peer's stamped packets since its last report).
 */
export function writeDelayField(
  w: BitWriter,
  stampAt: number | undefined,
  reportMs: number | undefined,
): void {
  w.writeBool(stampAt !== undefined);
  if (stampAt !== undefined) w.writeUint(stampOf(stampAt), STAMP_BITS);
  w.writeBool(reportMs !== undefined);
  if (reportMs !== undefined)
    w.writeUint(Math.min(REPORT_MAX, Math.round(reportMs / REPORT_STEP_MS)), REPORT_BITS);
}

/** Every value of either field is valid: a hostile peer can only lie about its own queue. */
export function readDelayField(r: BitReader): {
  stamp: number | undefined;
  reportMs: number | undefined;
} {
  const stamp = r.readBool() ? r.readUint(STAMP_BITS) : undefined;
  const reportMs = r.readBool() ? r.readUint(REPORT_BITS) * REPORT_STEP_MS : undefined;
  return { stamp, reportMs };
}

const mod = (x: number): number => ((x % STAMP_MOD) + STAMP_MOD) % STAMP_MOD;

/** The receiving side: the queue on the peer's packets, from their stamps. */
export class ForwardQueue {
  /** The last packet's delay modulo the stamp's period, and unwrapped (ms, offset by the clocks' difference). */
  private lastRaw = 0;
  private last: number | undefined;
  /** Lowest delay per BASE_BUCKET_MS, over BASE_WINDOW_MS. */
  private readonly buckets: { at: number; min: number }[] = [];
  /** Lowest queue seen since the last report was taken. */
  private pending: number | undefined;

  /** A packet stamped `stamp` arrived at `now`; returns the queue it saw (ms). */
  onStamp(now: number, stamp: number): number {
    const raw = mod(stampOf(now) - stamp);
    let delay = raw;
    if (this.last !== undefined) {
      // Consecutive delays differ by far less than half the stamp's period: unwrap against the last one.
      let step = mod(raw - this.lastRaw);
      if (step >= STAMP_MOD / 2) step -= STAMP_MOD;
      delay = this.last + step;
    }
    this.lastRaw = raw;
    this.last = delay;
    const bucket = this.buckets[this.buckets.length - 1];
    if (bucket !== undefined && now - bucket.at < BASE_BUCKET_MS)
      bucket.min = Math.min(bucket.min, delay);
    else this.buckets.push({ at: now, min: delay });
    while ((this.buckets[0]?.at ?? now) < now - BASE_WINDOW_MS) this.buckets.shift();
    let base = Infinity;
    for (const b of this.buckets) base = Math.min(base, b.min);
    const queue = Math.max(0, delay - base);
    this.pending = Math.min(this.pending ?? Infinity, queue);
    return queue;
  }

  /** The lowest queue seen since the last call (undefined when no packet came). */
  takeReport(): number | undefined {
    const p = this.pending;
    this.pending = undefined;
    return p;
  }
}
