// Fixed-policy rate control (TRIBES "Stream Layer", TNL's fixed rate policy): packet rate and size presets, the
// rate field a receiver sends, and the sender's credit. Pure arithmetic on times passed in; knows nothing of packets.
import type { BitReader, BitWriter } from '../bitstream';
import { SEAL_OVERHEAD } from '../crypto';
import { UDP_IPV4_OVERHEAD } from '../stats';
import type { BucketLimits } from './buckets';
import { ByteAndPacketBuckets } from './buckets';

/** What one side accepts (as a receiver) or allows itself (as a sender). */
export interface RatePolicy {
  /** Packets per second, 1..MAX_PACKET_RATE. */
  readonly packetsPerSecond: number;
  /** Datagram size in bytes (UDP payload: header, sealed payload and tag), MIN_PACKET_BYTES..MAX_PACKET_BYTES. */
  readonly packetBytes: number;
  /** Byte budget on the wire when lower than rate x size (set by the adaptive rate; never sent). */
  readonly bytesPerSecond?: number;
}

export const MIN_PACKET_RATE = 1;
/**
 * Up to 240 packets/s: the presets stay at or below 120, but a joiner asks for more while a board comes down
 * (session/join-rate.ts), the adaptive rate still bounding it by what the path carries. Above 120 only in steps of
 * 15 (isPacketRate), so the field keeps its 7 bits.
 */
export const MAX_PACKET_RATE = 240;
/** The modem preset's size: every event the event manager accepts fits one packet of this size. */
export const MIN_PACKET_BYTES = 200;
/** A datagram that fits an IPv4 Ethernet MTU with no fragmentation (1500 - 20 - 8). */
export const MAX_PACKET_BYTES = 1472;

/**
 * Presets in the spirit of TRIBES' settings:
 * - modem: 10 x 200 B = 2 KB/s, the paper's 28.8k modem figure;
 * - broadband: 30 x 1000 B = 30 KB/s (240 kbit/s), a home uplink shared with other traffic;
 * - lan: 60 x 1200 B = 72 KB/s, one packet per 60 Hz frame at the connection's default datagram size.
 */
export const RATE_PRESETS = {
  modem: { packetsPerSecond: 10, packetBytes: 200 },
  broadband: { packetsPerSecond: 30, packetBytes: 1000 },
  lan: { packetsPerSecond: 60, packetBytes: 1200 },
} as const satisfies Record<string, RatePolicy>;

/**
 * Bytes a datagram adds around the scheduler's payload, for budgeting and credit: the AEAD tag and a typical
 * notify header (3-4 bytes; the connection enforces the hard maximum itself).
 */
export const PACKET_OVERHEAD_BYTES = SEAL_OVERHEAD + 4;

export function assertRatePolicy(p: RatePolicy): void {
  const ok =
    isPacketRate(p.packetsPerSecond) &&
    Number.isInteger(p.packetBytes) &&
    p.packetBytes >= MIN_PACKET_BYTES &&
    p.packetBytes <= MAX_PACKET_BYTES;
  if (!ok) throw new RangeError(`bad rate policy ${p.packetsPerSecond}/s x ${p.packetBytes} B`);
}

export function minRate(a: RatePolicy, b: RatePolicy): RatePolicy {
  return {
    packetsPerSecond: Math.min(a.packetsPerSecond, b.packetsPerSecond),
    packetBytes: Math.min(a.packetBytes, b.packetBytes),
  };
}

/** Packets/s up to this are said exactly; above it in steps of FAST_RATE_STEP up to MAX_PACKET_RATE. */
const EXACT_PACKET_RATE = 120;
const FAST_RATE_STEP = 15;
const RATE_CODES = EXACT_PACKET_RATE + (MAX_PACKET_RATE - EXACT_PACKET_RATE) / FAST_RATE_STEP;

/** Whether the rate field can say this packet rate: 1..120, or 135, 150, … 240. */
export function isPacketRate(n: number): boolean {
  return (
    Number.isInteger(n) &&
    n >= MIN_PACKET_RATE &&
    n <= MAX_PACKET_RATE &&
    (n <= EXACT_PACKET_RATE || (n - EXACT_PACKET_RATE) % FAST_RATE_STEP === 0)
  );
}

/** The highest packet rate the field can say at or below `n` (n ≥ 1). */
export function packetRateAtMost(n: number): number {
  const m = Math.min(MAX_PACKET_RATE, Math.max(MIN_PACKET_RATE, Math.floor(n)));
  if (m <= EXACT_PACKET_RATE) return m;
  return m - ((m - EXACT_PACKET_RATE) % FAST_RATE_STEP);
}

/**
 * Rate field: packets/s in 7 bits (codes 0..119 say 1..120 exactly, 120..127 say 135..240 in steps of 15: a
 * board's download asks for more than the presets, and needs no finer steps), then datagram bytes ranged(200,
 * 1472) in 11 bits.
 */
export function writeRateField(w: BitWriter, p: RatePolicy): void {
  const n = p.packetsPerSecond;
  const code =
    n <= EXACT_PACKET_RATE
      ? n - MIN_PACKET_RATE
      : EXACT_PACKET_RATE - MIN_PACKET_RATE + (n - EXACT_PACKET_RATE) / FAST_RATE_STEP;
  w.writeRanged(code, 0, RATE_CODES - 1);
  w.writeRanged(p.packetBytes, MIN_PACKET_BYTES, MAX_PACKET_BYTES);
}

/** Out-of-range values throw DecodeError('range'): only a hostile peer sends them. */
export function readRateField(r: BitReader): RatePolicy {
  const code = r.readRanged(0, RATE_CODES - 1);
  const exact = EXACT_PACKET_RATE - MIN_PACKET_RATE;
  const packetsPerSecond =
    code <= exact ? code + MIN_PACKET_RATE : EXACT_PACKET_RATE + (code - exact) * FAST_RATE_STEP;
  const packetBytes = r.readRanged(MIN_PACKET_BYTES, MAX_PACKET_BYTES);
  return { packetsPerSecond, packetBytes };
}

/** Credit saved while the rate is shaped to the path: this many seconds' worth. */
const SHAPED_BURST_SECONDS = 0.1;
/** Urgent events' own packets, as a share of the packet rate, and how many may be saved up. */
const EVENT_ALLOWANCE_SHARE = 0.1;
const EVENT_ALLOWANCE_BURST = 2;

/**
 * A byte bucket earning rate x size per second (IP/UDP overhead included, so small packets aren't free), capped
 * at one second's worth (TNL's fixed policy: idle time earns up to a second of credit for a burst), a tenth of
 * that while the adaptive rate shapes it (see limitsOf); beside it, packets earned at the policy's packet rate, a
 * second's worth at most. A packet may start while neither is overdrawn; its actual size is charged afterwards, so a
 * full packet may overdraw and the next one waits. The packet rate itself paces the scheduler's ticks; urgent
 * packets between ticks spend packets too, so the receiver's packet rate holds on average.
 *
 * Urgent events (a grab, a drop: StreamManager.urgentState) have a packet allowance of their own besides, a tenth of
 * the packet rate: when pointers use every packet the rate allows, a drop still leaves at once instead of a packet
 * interval later, and the pointers keep their packets (taking one from them spaced their packets unevenly, and a
 * pointer moving twice in a longer gap lost an update). Their bytes count like any packet's.
 */
export class SendCredit {
  private readonly buckets: ByteAndPacketBuckets;
  /** The urgent events' own packets (no bytes of its own: they are the main bucket's). */
  private readonly allowance: ByteAndPacketBuckets;

  constructor(
    now: number,
    private rate: RatePolicy,
  ) {
    this.buckets = new ByteAndPacketBuckets(now, limitsOf(rate));
    this.allowance = new ByteAndPacketBuckets(now, allowanceOf(rate));
  }

  get policy(): RatePolicy {
    return this.rate;
  }

  /** Bytes earned per second. */
  get perSecond(): number {
    return this.buckets.bytesPerSecond;
  }

  /** Changes the rate from now on; earned credit is kept, within the new cap. */
  setRate(now: number, rate: RatePolicy): void {
    this.rate = rate;
    this.buckets.setLimits(now, limitsOf(rate));
    this.allowance.setLimits(now, allowanceOf(rate));
  }

  canSend(now: number): boolean {
    return this.buckets.canSpend(now);
  }

  /**
   * The earliest time canSend holds (now if it already does); for a packet carrying an urgent event, the earlier of
   * that and the time its allowance has a packet and the bytes are there.
   */
  readyAt(now: number, urgentEvent = false): number {
    const main = this.buckets.readyAt(now);
    if (!urgentEvent || main <= now) return main;
    return Math.min(main, Math.max(this.buckets.bytesReadyAt(now), this.allowance.readyAt(now)));
  }

  /**
   * Charges one packet of `payloadBytes` plus its seal, header and IP/UDP overhead: to the packet rate, or, for an
   * urgent event's packet the rate had no packet for, to the allowance.
   */
  charge(now: number, payloadBytes: number, urgentEvent = false): void {
    const bytes = payloadBytes + PACKET_OVERHEAD_BYTES + UDP_IPV4_OVERHEAD;
    if (urgentEvent && !this.buckets.canSpend(now) && this.allowance.canSpend(now)) {
      this.buckets.charge(now, bytes, 0);
      this.allowance.charge(now, 0, 1);
    } else {
      this.buckets.charge(now, bytes, 1);
    }
  }
}

/**
 * A policy's buckets: a second's worth of bytes saved under the fixed policy; a fraction of a second's once the rate
 * is shaped to the path (bytesPerSecond set: the adaptive rate found a bottleneck), since whatever leaves in a burst
 * waits in that bottleneck's queue: a second saved on a 16 kbit/s link is a second of queue ahead of the next chat
 * line.
 */
function limitsOf(rate: RatePolicy): BucketLimits {
  const full = rate.packetsPerSecond * (rate.packetBytes + UDP_IPV4_OVERHEAD);
  const bytesPerSecond = Math.min(full, rate.bytesPerSecond ?? Infinity);
  return {
    bytesPerSecond,
    packetsPerSecond: rate.packetsPerSecond,
    maxBytes: bytesPerSecond * (rate.bytesPerSecond === undefined ? 1 : SHAPED_BURST_SECONDS),
    maxPackets: rate.packetsPerSecond,
  };
}

/** The urgent events' allowance at a policy: packets only (their bytes are the main bucket's). */
function allowanceOf(rate: RatePolicy): BucketLimits {
  return {
    bytesPerSecond: 1,
    packetsPerSecond: rate.packetsPerSecond * EVENT_ALLOWANCE_SHARE,
    maxBytes: 0,
    maxPackets: EVENT_ALLOWANCE_BURST,
  };
}
