// CRIMP's counters and stats snapshot: what a mirror sent, repaired, suppressed, dropped and released, and a
// bounded window of recent repair latencies. Bookkeeping only: knows nothing of timers, peers or the wire.
import type { CrimpDecodeErrorCode } from './crimp-wire';
import type { MirrorId } from './mirror-id';

/** Why a member was declared out of the group. */
export type MemberOutReason = 'silent' | 'behind' | 'buffer';

export interface CrimpCounters {
  originated: number;
  /** Payloads handed up (each origin's each seq once). */
  delivered: number;
  /** …of which came as a repair or re-send. */
  deliveredRepaired: number;
  /** DATA for a payload already held. */
  duplicates: number;
  /** Missing seqs detected (each gets a request timer). */
  gaps: number;
  /** A repair or re-send for a payload already held: the price of asking more than one holder at once. */
  duplicateRepairs: number;
  /** NAK messages sent, and the seqs they asked for. */
  naksSent: number;
  nakSeqs: number;
  naksIn: number;
  /** Our request backed off because another mirror's NAK for the same payload was heard (SRM). */
  naksSuppressed: number;
  /** Small group: NAK rounds that re-asked (another holder first) because no repair came within a round trip. */
  fastRetries: number;
  /** NAKs for payloads already released as stable (a member asking for what it confirmed). */
  naksStale: number;
  /** Repairs sent (each to the whole group), and of those the origin's immediate answers. */
  repairsSent: number;
  originRepairs: number;
  /** Scheduled repairs cancelled because another mirror's repair was heard first (SRM). */
  repairsSuppressed: number;
  /** Payloads re-sent to one member on the link's drop notification. */
  earlyResends: number;
  /** Payloads released once every live member confirmed them. */
  released: number;
  /** Missing payloads of a member declared out, given up on. */
  abandoned: number;
  datagramsIn: number;
  datagramsOut: number;
  bytesOut: number;
  refused: { 'too-large': number; 'window-full': number; 'buffer-full': number };
  membersOut: Record<MemberOutReason, number>;
  /** Members suspected (agreed membership: the group then decides), and those the group removed. */
  suspected: Record<MemberOutReason, number>;
  membersLeft: number;
  decodeErrors: Partial<Record<CrimpDecodeErrorCode, number>>;
  dropped: {
    /** The datagram's sender field is not the link's member. */
    spoofed: number;
    notMember: number;
    /** A datagram of our own (IP multicast loops back). */
    own: number;
    fromOut: number;
    unknownOrigin: number;
    outOfWindow: number;
    bufferFull: number;
    /** A seq of an origin frozen for its removal that the view change did not name. */
    frozen: number;
  };
}

export function newCrimpCounters(): CrimpCounters {
  return {
    originated: 0,
    delivered: 0,
    deliveredRepaired: 0,
    duplicates: 0,
    gaps: 0,
    duplicateRepairs: 0,
    naksSent: 0,
    nakSeqs: 0,
    naksIn: 0,
    naksSuppressed: 0,
    fastRetries: 0,
    naksStale: 0,
    repairsSent: 0,
    originRepairs: 0,
    repairsSuppressed: 0,
    earlyResends: 0,
    released: 0,
    abandoned: 0,
    datagramsIn: 0,
    datagramsOut: 0,
    bytesOut: 0,
    refused: { 'too-large': 0, 'window-full': 0, 'buffer-full': 0 },
    membersOut: { silent: 0, behind: 0, buffer: 0 },
    suspected: { silent: 0, behind: 0, buffer: 0 },
    membersLeft: 0,
    decodeErrors: {},
    dropped: {
      spoofed: 0,
      notMember: 0,
      own: 0,
      fromOut: 0,
      unknownOrigin: 0,
      outOfWindow: 0,
      bufferFull: 0,
      frozen: 0,
    },
  };
}

/** Quantiles of the repair latencies in a LatencyWindow, ms. */
export interface LatencySummary {
  /** Samples summarized (at most the window's size). */
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

/**
 * The last `size` latency samples (ms) in a ring, so a long-running mirror's memory stays bounded while its
 * figures follow the current network; quantiles are computed when asked (a stats call), not per sample.
 */
export class LatencyWindow {
  private readonly ring: Float64Array;
  private next = 0;
  private count = 0;

  constructor(readonly size: number) {
    if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`window size ${size}`);
    this.ring = new Float64Array(size);
  }

  record(ms: number): void {
    this.ring[this.next] = ms;
    this.next = (this.next + 1) % this.size;
    this.count = Math.min(this.count + 1, this.size);
  }

  /** The samples held, oldest first (ms): for pooling several windows' samples before taking quantiles. */
  samples(): number[] {
    const held = Array.from(this.ring.subarray(0, this.count));
    if (this.count < this.size) return held;
    return [...held.slice(this.next), ...held.slice(0, this.next)];
  }

  summary(): LatencySummary | null {
    if (this.count === 0) return null;
    const sorted = this.ring.slice(0, this.count).sort();
    const q = (f: number): number =>
      sorted[Math.min(this.count - 1, Math.floor(f * this.count))] ?? NaN;
    return { n: this.count, p50: q(0.5), p95: q(0.95), p99: q(0.99), max: q(1) };
  }
}

export interface CrimpStats extends CrimpCounters {
  /**
   * Over the last repairs (config `latencyWindow`): from the moment this mirror could first know it lacked a
   * payload (a later seq of its origin, or a vector or NAK naming it) to its delivery here. Null before any.
   */
  repairLatencyMs: LatencySummary | null;
  /** The same window's samples, oldest first (ms, to 0.1): several mirrors' pooled give the group's quantiles. */
  repairLatenciesMs: number[];
  /** This mirror's running estimate of the chance a first transmission to it is lost (0..1). */
  lossEstimate: number;
  bufferedPayloads: number;
  bufferedBytes: number;
  pendingRequests: number;
  members: {
    readonly id: MirrorId;
    readonly out: MemberOutReason | 'left' | 'suspected' | null;
    readonly rttMs: number | null;
  }[];
}
