// CRIMP's repair side (SRM's): which payloads of each origin are missing here and when to ask for them, which of
// ours (or others') to send again and when, and how hearing another's NAK or repair holds ours back. Large groups
// ask after a randomized delay scaled by the distance to the origin and repair after one scaled by the distance to
// the asker; a small group asks its likeliest holders at once, in as many copies as the loss seen calls for, and
// they answer at once (crimp-ask.ts). Its timers run on the group's calls. Sans-IO; knows the group only through
// RepairGroup: what each origin's stream holds, distances, who is live, and the queues messages go out on.
import { DueHeap } from '../net/due-heap';
import type { Rng } from '../net/rng';
import type { AskCandidate } from './crimp-ask';
import { askCopies, askTargets } from './crimp-ask';
import type { CrimpConfig } from './crimp-config';
import type { OriginStream } from './crimp-origin';
import type { CrimpCounters } from './crimp-stats';
import { LatencyWindow } from './crimp-stats';
import type { CrimpMessage, CrimpSeq } from './crimp-wire';
import { CRIMP_MAX_NAK_RUN } from './crimp-wire';
import type { MirrorId } from './mirror-id';

/** Weight of one sample in the running loss estimate (about the last 32 seqs count). */
const LOSS_GAIN = 1 / 32;

interface Timer {
  readonly at: number;
  readonly order: number;
  readonly kind: 'request' | 'repair';
  readonly origin: MirrorId;
  readonly seq: CrimpSeq;
}

interface Request {
  at: number;
  round: number;
  /** Fast repair: copies of this round's NAK sent so far. */
  copy: number;
  /** When the gap was first known here: repair latency counts from it. */
  readonly detectedAt: number;
}

interface Repair {
  at: number;
  /** Scheduled (waiting for its timer) or holding down further NAKs until `at`. */
  phase: 'scheduled' | 'hold';
  /** Fast repair: the member the hold is for (another member's NAK is still answered). */
  to?: MirrorId;
}

/** What the repair side needs of its group (MirrorGroup). */
export interface RepairGroup {
  readonly self: MirrorId;
  readonly config: CrimpConfig;
  readonly counters: CrimpCounters;
  readonly rng: Rng;
  /** Messages to the whole group leave as one datagram: a fast repair to one asker goes to all. */
  readonly multicast: boolean;
  stream(origin: MirrorId): OriginStream;
  /** One-way distance to a member, ms. */
  distance(id: MirrorId): number;
  /** Live members, this one included. */
  liveCount(): number;
  /** The origin was declared out: its stream is given up. */
  isOut(origin: MirrorId): boolean;
  /** The origin is frozen for a view change: only what the change's target names is asked for. */
  isFrozen(origin: MirrorId): boolean;
  /** The live members, and whether each is known to hold the origin's seq. */
  askCandidates(origin: MirrorId, seq: CrimpSeq): AskCandidate[];
  toAll(msg: CrimpMessage): void;
  to(id: MirrorId, msg: CrimpMessage): void;
}

export class CrimpRepair {
  /** Repair latency from detection (crimp-stats.ts). */
  readonly latency: LatencyWindow;
  private readonly requests = new Map<MirrorId, Map<CrimpSeq, Request>>();
  private readonly repairs = new Map<MirrorId, Map<CrimpSeq, Repair>>();
  /** Per origin, the highest seq whose request has been considered (so a gap is scheduled once). */
  private readonly considered = new Map<MirrorId, CrimpSeq>();
  private readonly timers = new DueHeap<Timer>();
  private timerOrder = 0;
  /** Running chance that a first transmission to this mirror is lost: sizes fast repair's NAK copies. */
  private loss = 0;

  constructor(private readonly g: RepairGroup) {
    this.latency = new LatencyWindow(g.config.latencyWindow);
  }

  get lossEstimate(): number {
    return this.loss;
  }

  /** Requests waiting for their payload. */
  get pending(): number {
    let n = 0;
    for (const r of this.requests.values()) n += r.size;
    return n;
  }

  /** A new origin; `considered` is what a baseline already accounts for. */
  addOrigin(origin: MirrorId, considered = 0): void {
    this.requests.set(origin, new Map());
    this.repairs.set(origin, new Map());
    this.considered.set(origin, considered);
  }

  /** Asks at once for the seqs listed that are neither held nor asked for (a view change's target). */
  requestNow(now: number, origin: MirrorId, seqs: readonly CrimpSeq[]): void {
    const stream = this.g.stream(origin);
    const requests = this.requests.get(origin);
    if (requests === undefined) return;
    for (const seq of seqs) {
      if (stream.has(seq) || requests.has(seq)) continue;
      this.g.counters.gaps++;
      requests.set(seq, { at: now, round: 0, copy: 0, detectedAt: now });
      this.schedule('request', origin, seq, now);
    }
  }

  /**
   * A payload arrived and was kept: its request is over (its latency counted when a repair brought it), a first
   * transmission is a loss sample, and a repair of ours is suppressed. Returns when its gap was found, if it was.
   */
  delivered(now: number, origin: MirrorId, seq: CrimpSeq, repaired: boolean): number | undefined {
    const requests = this.requests.get(origin);
    const request = requests?.get(seq);
    if (request !== undefined) {
      requests?.delete(seq);
      if (repaired) this.latency.record(now - request.detectedAt);
    } else if (!repaired) this.sampleLoss(0);
    this.overheard(now, origin, seq);
    return request?.detectedAt;
  }

  /** A DATA for a payload we meant to repair: someone did, so ours is suppressed (SRM). */
  overheard(now: number, origin: MirrorId, seq: CrimpSeq): void {
    const r = this.repairs.get(origin)?.get(seq);
    if (r?.phase !== 'scheduled') return;
    this.g.counters.repairsSuppressed++;
    r.phase = 'hold';
    r.at = now + this.holdDownMs(origin);
  }

  /** Schedules requests for seqs now known to exist and missing, within the window. */
  learnSeen(now: number, origin: MirrorId, maxSeen: CrimpSeq): void {
    // An origin declared out is given up on: others' vectors must not revive its requests; a frozen one's are only
    // what the view change's target names.
    if (this.g.isOut(origin) || this.g.isFrozen(origin)) return;
    const c = this.g.config;
    const stream = this.g.stream(origin);
    stream.maxSeen = Math.max(stream.maxSeen, maxSeen);
    const from = Math.max(this.considered.get(origin) ?? 0, stream.upTo);
    const to = Math.min(stream.maxSeen, stream.upTo + c.window);
    if (to <= from) return;
    this.considered.set(origin, to);
    const requests = this.requests.get(origin);
    if (requests === undefined) return;
    const d = this.g.distance(origin);
    const n = this.g.liveCount();
    const fast = this.isFast();
    for (let seq = from + 1; seq <= to; seq++) {
      if (stream.has(seq) || requests.has(seq)) continue;
      this.g.counters.gaps++;
      this.sampleLoss(1);
      const immediate = fast || (c.immediateNak && this.g.rng.bool(1 / n));
      const at = immediate ? now : now + this.requestDelay(d, 0);
      requests.set(seq, { at, round: 0, copy: 0, detectedAt: now });
      this.schedule('request', origin, seq, at);
    }
  }

  /** A member's NAK: what we hold is repaired (at once in a small group), what we miss too waits for the repair. */
  onNak(now: number, from: MirrorId, origin: MirrorId, first: CrimpSeq, count: number): void {
    this.g.counters.naksIn++;
    const stream = this.g.stream(origin);
    const requests = this.requests.get(origin);
    const repairs = this.repairs.get(origin);
    if (requests === undefined || repairs === undefined) return;
    for (let seq = first; seq < first + count; seq++) {
      if (!stream.has(seq)) {
        this.missingToo(now, origin, seq, requests);
        continue;
      }
      const payload = stream.payload(seq);
      if (payload === undefined) {
        this.g.counters.naksStale++;
        continue;
      }
      if (this.isFast()) {
        this.fastRepair(now, from, origin, seq, payload);
        continue;
      }
      const r = repairs.get(seq);
      if (r !== undefined && r.at > now) continue; // scheduled already, or holding down after a repair
      if (origin === this.g.self && this.g.config.originRepairsAtOnce) {
        this.g.counters.originRepairs++;
        this.sendRepair(now, origin, seq, payload);
        continue;
      }
      const c = this.g.config;
      const at = now + (c.repairD1 + this.g.rng.next() * c.repairD2) * this.g.distance(from);
      repairs.set(seq, { at, phase: 'scheduled' });
      this.schedule('repair', origin, seq, at);
    }
  }

  /** Runs the request and repair timers that are due. */
  run(now: number): void {
    for (let t = this.timers.peek(); t !== undefined && t.at <= now; t = this.timers.peek()) {
      this.timers.pop();
      if (t.kind === 'request') this.onRequestTimer(now, t);
      else this.onRepairTimer(now, t);
    }
  }

  /** When run() next has work. */
  nextAt(): number {
    return this.timers.peek()?.at ?? Infinity;
  }

  /** Requests and repairs at or below a stable point are over: everyone has those payloads. */
  forget(origin: MirrorId, stable: CrimpSeq): void {
    for (const map of [this.requests.get(origin), this.repairs.get(origin)]) {
      if (map === undefined) continue;
      for (const seq of map.keys()) if (seq <= stable) map.delete(seq);
    }
  }

  /** An origin declared out: its requests are given up; returns how many. */
  abandon(origin: MirrorId): number {
    const requests = this.requests.get(origin);
    if (requests === undefined) return 0;
    const n = requests.size;
    requests.clear();
    return n;
  }

  /** We miss a NAKed seq too: a repair is on its way, so our own request waits a round's delay from now (SRM). */
  private missingToo(
    now: number,
    origin: MirrorId,
    seq: CrimpSeq,
    requests: Map<CrimpSeq, Request>,
  ): void {
    // The round does not grow: only our own unanswered NAKs back off.
    const r = requests.get(seq);
    if (r !== undefined && r.at > now && !this.isFast()) {
      this.g.counters.naksSuppressed++;
      r.at = now + this.requestDelay(this.g.distance(origin), r.round);
      this.schedule('request', origin, seq, r.at);
    } else if (r === undefined && origin !== this.g.self && !this.g.isFrozen(origin)) {
      this.learnSeen(now, origin, seq);
    }
  }

  /** Whether the group is small enough to ask and repair at once (fastRepairMaxMembers). */
  private isFast(): boolean {
    return this.g.liveCount() <= this.g.config.fastRepairMaxMembers;
  }

  /** One seq of another origin learned of: 1 if it was missing when learned, 0 if it came first-hand. */
  private sampleLoss(lost: 0 | 1): void {
    this.loss += (lost - this.loss) * LOSS_GAIN;
  }

  private requestDelay(d: number, round: number): number {
    const c = this.g.config;
    const u = c.requestC1 + this.g.rng.next() * c.requestC2;
    return 2 ** Math.min(round, c.maxBackoffExponent) * u * d;
  }

  private onRequestTimer(now: number, t: Timer): void {
    const requests = this.requests.get(t.origin);
    const first = requests?.get(t.seq);
    if (requests === undefined || first?.at !== t.at) return;
    if (this.isFast()) {
      this.onFastRequest(now, t, requests, first.round);
      return;
    }
    // Seqs just after this one that are missing too go in the same NAK (a burst loss costs one message).
    let count = 0;
    const d = this.g.distance(t.origin);
    for (let seq = t.seq; count < CRIMP_MAX_NAK_RUN; seq++) {
      const r = requests.get(seq);
      if (r === undefined) break;
      r.round++;
      r.at = now + this.requestDelay(d, r.round);
      this.schedule('request', t.origin, seq, r.at);
      count++;
    }
    this.g.counters.naksSent++;
    this.g.counters.nakSeqs += count;
    this.g.toAll({ kind: 'nak', origin: t.origin, first: t.seq, count });
  }

  private onRepairTimer(now: number, t: Timer): void {
    const repairs = this.repairs.get(t.origin);
    const r = repairs?.get(t.seq);
    if (repairs === undefined || r?.at !== t.at) return;
    if (r.phase === 'hold') {
      repairs.delete(t.seq);
      return;
    }
    const payload = this.g.stream(t.origin).payload(t.seq);
    if (payload === undefined) {
      repairs.delete(t.seq);
      return;
    }
    this.sendRepair(now, t.origin, t.seq, payload);
  }

  /**
   * Fast repair, the asking side: this round's NAK (with the missing seqs after it) goes to the likeliest holders
   * directly, in as many copies as the loss seen calls for, a few ms apart; a round still unanswered a round trip
   * later asks again, another holder first.
   */
  private onFastRequest(
    now: number,
    t: Timer,
    requests: Map<CrimpSeq, Request>,
    round: number,
  ): void {
    const c = this.g.config;
    const targets = askTargets(
      this.g.askCandidates(t.origin, t.seq),
      t.origin,
      round,
      c.fastAskTargets,
    );
    const copies = askCopies(this.loss, targets.length, c.fastMissGoal, c.fastMaxCopies);
    let count = 0;
    for (let seq = t.seq; count < CRIMP_MAX_NAK_RUN; seq++) {
      const r = requests.get(seq);
      if (r === undefined) break;
      if (r.copy === 0 && r.round > 0) this.g.counters.fastRetries++;
      r.copy++;
      if (r.copy < copies) r.at = now + c.fastCopySpacingMs;
      else {
        r.at = now + this.retryDelayMs(targets, r.round);
        r.copy = 0;
        r.round++;
      }
      this.schedule('request', t.origin, seq, r.at);
      count++;
    }
    for (const id of targets) {
      this.g.counters.naksSent++;
      this.g.counters.nakSeqs += count;
      this.g.to(id, { kind: 'nak', origin: t.origin, first: t.seq, count });
    }
  }

  /** How long a fast round waits for its repair: the slowest asked member's round trip and a margin, backed off. */
  private retryDelayMs(targets: readonly MirrorId[], round: number): number {
    const c = this.g.config;
    let rtt = 2 * c.defaultDistanceMs;
    if (targets.length > 0) rtt = Math.max(...targets.map((id) => 2 * this.g.distance(id)));
    const backoff = 2 ** Math.min(round, c.maxBackoffExponent);
    return backoff * (rtt + c.fastRetryMarginMs);
  }

  /**
   * Fast repair, the holding side: every NAK is answered at once (each copy that arrives is one more chance for
   * the payload to get through); to the asker alone, or to the group where one datagram reaches it all.
   */
  private fastRepair(
    now: number,
    from: MirrorId,
    origin: MirrorId,
    seq: CrimpSeq,
    payload: Uint8Array,
  ): void {
    // A hold shorter than the asker's copy spacing: its copies each draw a repair, while one datagram naming a
    // seq many times (a hostile member's) draws one.
    const repairs = this.repairs.get(origin);
    const held = repairs?.get(seq);
    if (held !== undefined && held.at > now && (held.phase === 'scheduled' || held.to === from))
      return;
    const at = now + this.g.config.fastCopySpacingMs / 2;
    repairs?.set(seq, { at, phase: 'hold', to: from });
    this.schedule('repair', origin, seq, at);
    this.g.counters.repairsSent++;
    if (origin === this.g.self) this.g.counters.originRepairs++;
    const msg: CrimpMessage = { kind: 'data', origin, seq, repair: true, payload };
    if (this.g.multicast) this.g.toAll(msg);
    else this.g.to(from, msg);
  }

  /** Sends a repair to everyone (so other candidates hear it and hold theirs) and holds down further NAKs. */
  private sendRepair(now: number, origin: MirrorId, seq: CrimpSeq, payload: Uint8Array): void {
    this.g.counters.repairsSent++;
    this.g.toAll({ kind: 'data', origin, seq, repair: true, payload });
    const at = now + this.holdDownMs(origin);
    this.repairs.get(origin)?.set(seq, { at, phase: 'hold' });
    this.schedule('repair', origin, seq, at);
  }

  /** NAKs of one loss's wave arrive within about two one-way delays; a later one is a new loss of the repair. */
  private holdDownMs(origin: MirrorId): number {
    return 2 * this.g.distance(origin);
  }

  private schedule(kind: Timer['kind'], origin: MirrorId, seq: CrimpSeq, at: number): void {
    this.timers.push({ at, order: this.timerOrder++, kind, origin, seq });
  }
}
