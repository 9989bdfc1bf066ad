// CRIMP's configuration and the public shapes of a MirrorGroup: its options, what it says of a delivery, of what
// a mirror holds and of an originate call. Types and defaults only: knows nothing of timers or the wire.
import type { Rng } from '../net/rng';
import type { MemberOutReason } from './crimp-stats';
import type { CrimpSeq } from './crimp-wire';
import type { MirrorId } from './mirror-id';

export interface CrimpConfig {
  /** Largest payload originate() takes and a receiver accepts, bytes. */
  readonly maxPayloadBytes: number;
  /** Largest datagram built, bytes (a link's payload budget). */
  readonly maxDatagramBytes: number;
  /**
   * Seqs of one origin a mirror keeps track of beyond what it has in order; the unconfirmed payloads of one origin
   * it holds; and how far behind a member may fall before it is declared out.
   */
  readonly window: number;
  /** Payload bytes held for repair, all origins together: past it the member holding most back is declared out. */
  readonly maxBufferedBytes: number;
  /** A state block goes to each member at least this often (ms): tail losses and stability need it. */
  readonly heartbeatMs: number;
  /** A changed vector rides on data at most this often per member (ms). */
  readonly stateMinIntervalMs: number;
  /** A member heard from for no longer than this (ms) is declared out. */
  readonly memberTimeoutMs: number;
  /** SRM's request interval [C1·d, (C1+C2)·d] for d the one-way distance to the origin (paper: 1.5 and 1). */
  readonly requestC1: number;
  readonly requestC2: number;
  /** SRM's repair interval [D1·d, (D1+D2)·d] for d the one-way distance to the requester (paper: 2 and 1). */
  readonly repairD1: number;
  readonly repairD2: number;
  /** A request not answered backs off by 2^round, round capped here. */
  readonly maxBackoffExponent: number;
  /** CRIMP's enhancement: a receiver NAKs at once with probability 1/n (so a loss nobody got is asked at once). */
  readonly immediateNak: boolean;
  /** CRIMP's enhancement: the origin answers a NAK at once instead of after a repair delay. */
  readonly originRepairsAtOnce: boolean;
  /** One-way distance assumed for a member before its first RTT sample (ms). */
  readonly defaultDistanceMs: number;
  /** Datagram records kept per member for the link's drop notifications (early re-send). */
  readonly maxSentRecords: number;
  /**
   * Groups of at most this many live members (this one included) repair fast: a gap is asked for at once, of a
   * few likely holders directly, and a holder answers at once; larger groups keep SRM's timers and suppression,
   * which bound the NAKs and repairs of a loss many mirrors share.
   */
  readonly fastRepairMaxMembers: number;
  /** Fast repair: members asked per round (the origin and the nearest other likely holder). */
  readonly fastAskTargets: number;
  /** Fast repair: the chance a round brings nothing back that a round's NAK copies aim at, given the loss seen. */
  readonly fastMissGoal: number;
  /** Fast repair: most copies of a NAK one member gets in a round. */
  readonly fastMaxCopies: number;
  /** Fast repair: ms between a round's copies, so one burst of loss does not take them all. */
  readonly fastCopySpacingMs: number;
  /** Fast repair: a round unanswered after the asked members' round trip plus this (ms) asks again. */
  readonly fastRetryMarginMs: number;
  /** Recent repair latencies kept for stats() (a ring: memory stays bounded). */
  readonly latencyWindow: number;
}

export const DEFAULT_CRIMP_CONFIG: CrimpConfig = {
  maxPayloadBytes: 1024,
  maxDatagramBytes: 1100,
  window: 1024,
  maxBufferedBytes: 8 * 1024 * 1024,
  heartbeatMs: 50,
  stateMinIntervalMs: 10,
  memberTimeoutMs: 5_000,
  requestC1: 1.5,
  requestC2: 1,
  repairD1: 2,
  repairD2: 1,
  // 4x: at 20 % loss a payload may need several rounds, and each is a few one-way delays already.
  maxBackoffExponent: 2,
  immediateNak: true,
  originRepairsAtOnce: true,
  defaultDistanceMs: 50,
  maxSentRecords: 256,
  fastRepairMaxMembers: 4,
  fastAskTargets: 2,
  fastMissGoal: 0.02,
  fastMaxCopies: 3,
  fastCopySpacingMs: 2,
  fastRetryMarginMs: 10,
  latencyWindow: 1024,
};

/** How a payload reached this mirror. */
export interface DeliveryInfo {
  /** It came as a repair or re-send, not its origin's first transmission. */
  readonly repaired: boolean;
  /** When this mirror first could know it lacked it (absent: it was never missed here). */
  readonly detectedAt?: number;
}

export interface MirrorGroupOptions {
  readonly self: MirrorId;
  /** Every mirror of the group, this one included. */
  readonly members: readonly MirrorId[];
  readonly rng: Rng;
  readonly now: number;
  /** One datagram to one member; `tag` names it in linkNotify() if the link learns its fate. */
  readonly send: (to: MirrorId, bytes: Uint8Array, tag: number) => void;
  /**
   * IP multicast where the network has it: one datagram to every member. Absent: fan-out over `send`. Messages
   * for all (originals, NAKs, repairs) go this way; each member's state block still goes to it alone.
   */
  readonly sendToGroup?: (bytes: Uint8Array) => void;
  readonly deliver: (
    origin: MirrorId,
    seq: CrimpSeq,
    payload: Uint8Array,
    info: DeliveryInfo,
  ) => void;
  readonly onMemberOut?: (id: MirrorId, reason: MemberOutReason, now: number) => void;
  /**
   * Given: a member silent, behind or holding the buffer is only suspected here (no more is sent to it or taken
   * from it, its payloads stay held) and the group decides (removeMember); absent, it is declared out at once.
   */
  readonly onSuspect?: (id: MirrorId, reason: MemberOutReason, now: number) => void;
  /** A joiner's start: what it holds of each origin already (the board it took has them). */
  readonly baseline?: readonly HeldSeqs[];
  readonly config?: Partial<CrimpConfig>;
}

/** What a mirror holds of one origin: every seq 1..upTo and those listed above. */
export interface HeldSeqs {
  readonly origin: MirrorId;
  readonly upTo: CrimpSeq;
  readonly above: readonly CrimpSeq[];
}

export type OriginateResult =
  | { readonly kind: 'sent'; readonly seq: CrimpSeq }
  | { readonly kind: 'refused'; readonly reason: 'too-large' | 'window-full' | 'buffer-full' };
