// CRIMP-style reliable many-to-many multicast among a session's mirrors (distributed-game-server paper §4.4,
// after SRM): each mirror numbers what it originates, a receiver that learns of a gap NAKs after a randomized
// delay scaled by its distance to the origin, any holder repairs after a randomized delay scaled by its distance
// to the requester, and hearing another's NAK or repair suppresses one's own. A small group (a few mirrors, where
// a loss is rarely shared and implosion cannot happen) repairs fast instead: a gap is asked of its likeliest
// holders the moment it is detected, in as many copies as the loss seen calls for, each holder answers at once,
// and a round unanswered a round trip later is asked again of another holder (crimp-ask.ts, crimp-repair.ts). Every payload is
// handed up as soon as it arrives (no ordering: TSS orders). Piggybacked "received up to" vectors make payloads
// stable, and stable payloads are released; a mirror too far behind or silent is declared out — alone, or (with
// `onSuspect`) by the group's agreement (membership.ts), which adds and removes members here and, before a member
// leaves, freezes its stream and fetches what any survivor holds of it. Sans-IO: time is passed in, datagrams go
// out through `send`; knows nothing of sockets, links, clocks of other mirrors or what payloads mean.
import { BitWriter } from '../net/bitstream';
import { OriginStream } from './crimp-origin';
import type { CrimpDecodeErrorCode, CrimpMessage, CrimpSeq, CrimpState } from './crimp-wire';
import {
  CRIMP_MAX_DATAGRAM_BYTES,
  CRIMP_MAX_HELD_MS,
  CRIMP_STAMP_BITS,
  decodeCrimpDatagram,
  isCrimpDecodeError,
  packCrimpDatagrams,
} from './crimp-wire';
import type { MirrorId } from './mirror-id';
import { assertMirrorId } from './mirror-id';
import type { AskCandidate } from './crimp-ask';
import { DEFAULT_CRIMP_CONFIG } from './crimp-config';
import type {
  CrimpConfig,
  DeliveryInfo,
  HeldSeqs,
  MirrorGroupOptions,
  OriginateResult,
} from './crimp-config';
import type { CrimpCounters, CrimpStats, MemberOutReason } from './crimp-stats';
import { newCrimpCounters } from './crimp-stats';
import { CrimpRepair } from './crimp-repair';

export { DEFAULT_CRIMP_CONFIG } from './crimp-config';
export type {
  CrimpConfig,
  DeliveryInfo,
  HeldSeqs,
  MirrorGroupOptions,
  OriginateResult,
} from './crimp-config';

interface Member {
  readonly id: MirrorId;
  out: MemberOutReason | 'left' | undefined;
  /** Suspected (agreed mode): nothing more goes to it or is taken from it until the group removes it. */
  suspected: boolean;
  heardAt: number;
  /** What it told us it holds, per origin (only ever raised). */
  readonly upTo: Map<MirrorId, CrimpSeq>;
  /** Smoothed RTT from echoed stamps, ms. */
  srtt: number | undefined;
  /** Its newest stamp and when we heard it: echoed in our next state block. */
  heard: { readonly stamp: number; readonly at: number } | undefined;
  stateSentAt: number;
  /** Our vector changed since the last state block it got. */
  stateChanged: boolean;
  readonly queue: CrimpMessage[];
  /** What each recent datagram to it carried of DATA, by tag (oldest first). */
  readonly sent: Map<number, readonly (readonly [MirrorId, CrimpSeq])[]>;
}

/** The sampling clock of stamps: whole ms mod 2^16. */
const stampOf = (now: number): number => Math.floor(now) % 2 ** CRIMP_STAMP_BITS;

export class MirrorGroup {
  readonly self: MirrorId;
  readonly config: CrimpConfig;
  private readonly counters: CrimpCounters = newCrimpCounters();
  private readonly members = new Map<MirrorId, Member>();
  private readonly origins = new Map<MirrorId, OriginStream>();
  /** What is missing here and what to send again: requests, repairs and their timers. */
  private readonly repair: CrimpRepair;
  private readonly toAll: CrimpMessage[] = [];
  private nextTag = 1;
  private bufferedBytes = 0;
  private readonly writer = new BitWriter(256);
  /** Origins frozen for a view change: only the listed seqs are still taken (none but held ones before target). */
  private readonly frozen = new Map<MirrorId, Set<CrimpSeq> | undefined>();

  constructor(private readonly o: MirrorGroupOptions) {
    this.self = assertMirrorId(o.self);
    this.config = { ...DEFAULT_CRIMP_CONFIG, ...o.config };
    const c = this.config;
    this.repair = this.repairSide();
    if (c.maxDatagramBytes > CRIMP_MAX_DATAGRAM_BYTES)
      throw new RangeError(`maxDatagramBytes above ${CRIMP_MAX_DATAGRAM_BYTES}`);
    // A DATA message's header (kind, origin, seq, flag, length) needs at most 24 bytes with the state block's 0.
    if (c.maxPayloadBytes + 24 > c.maxDatagramBytes)
      throw new RangeError('maxPayloadBytes does not fit a datagram');
    if (!o.members.includes(o.self)) throw new RangeError('members must include self');
    for (const id of o.members) this.addMember(o.now, id, 0);
    for (const h of o.baseline ?? []) {
      const stream = this.origins.get(h.origin);
      if (stream === undefined) continue;
      stream.assume(h.upTo, h.above);
      this.repair.addOrigin(h.origin, stream.upTo);
    }
  }

  /**
   * A member joins (the group agreed): from now on it counts for stability, so nothing it has not confirmed is
   * released; it is not thought silent before `graceMs` (it is still taking the board).
   */
  addMember(now: number, id: MirrorId, graceMs: number): void {
    assertMirrorId(id);
    if (this.members.has(id) || (this.origins.has(id) && id !== this.self)) return;
    if (!this.origins.has(id)) {
      this.origins.set(id, new OriginStream());
      this.repair.addOrigin(id);
    }
    if (id === this.self) return;
    this.members.set(id, {
      id,
      out: undefined,
      suspected: false,
      heardAt: now + graceMs,
      upTo: new Map(),
      srtt: undefined,
      heard: undefined,
      // The first heartbeat goes out at once.
      stateSentAt: -Infinity,
      stateChanged: true,
      queue: [],
      sent: new Map(),
    });
  }

  /** A member leaves (the group agreed, every survivor holding the same of its stream): what it held back goes. */
  removeMember(now: number, id: MirrorId): void {
    const m = this.members.get(id);
    this.frozen.delete(id);
    if (m === undefined || m.out !== undefined) return;
    this.declareOut(now, m, 'left');
  }

  /** Stops taking new seqs of an origin (a view change removes it): `target` later says which to fetch. */
  freeze(origin: MirrorId): void {
    if (!this.frozen.has(origin)) this.frozen.set(origin, undefined);
  }

  /** The seqs of a frozen origin every survivor must hold: those missing here are asked for at once. */
  target(now: number, held: HeldSeqs): void {
    const stream = this.origins.get(held.origin);
    if (stream === undefined || !this.frozen.has(held.origin)) return;
    const want = new Set(held.above);
    this.frozen.set(held.origin, want);
    const missing = [...held.above];
    for (let seq = stream.upTo + 1; seq <= held.upTo; seq++) {
      want.add(seq);
      missing.push(seq);
    }
    this.repair.requestNow(now, held.origin, missing);
    this.repair.run(now);
    this.flush(now);
  }

  /** Whether every seq listed is held here. */
  holdsAll(held: HeldSeqs): boolean {
    const stream = this.origins.get(held.origin);
    if (stream === undefined) return false;
    if (stream.upTo < held.upTo) {
      for (let seq = stream.upTo + 1; seq <= held.upTo; seq++) if (!stream.has(seq)) return false;
    }
    return held.above.every((seq) => stream.has(seq));
  }

  /** What this mirror holds of an origin (the above list at most `maxAbove` long: the lowest ones). */
  held(origin: MirrorId, maxAbove = Infinity): HeldSeqs {
    const stream = this.origins.get(origin);
    if (stream === undefined) return { origin, upTo: 0, above: [] };
    return { origin, upTo: stream.upTo, above: stream.aboveSeqs().slice(0, maxAbove) };
  }

  /**
   * This mirror's own payloads that outlive it: every seq through the returned one is held by some other live
   * member (the highest prefix any of them told us of). With no other live member, all it sent: none could hold it.
   */
  heldElsewhere(): CrimpSeq {
    const sent = this.stream(this.self).upTo;
    let others = false;
    let held = 0;
    for (const m of this.members.values()) {
      if (m.id === this.self || m.out !== undefined) continue;
      others = true;
      // A suspected member may be gone with what it holds: until the group decides, its word does not count.
      if (!m.suspected) held = Math.max(held, m.upTo.get(this.self) ?? 0);
    }
    return others ? Math.min(held, sent) : sent;
  }

  /** Every live member has told us what it holds, and nothing any of them has is missing here. */
  caughtUp(): boolean {
    for (const m of this.members.values())
      if (m.out === undefined && !m.suspected && m.heard === undefined) return false;
    for (const [origin, s] of this.origins)
      if (this.members.get(origin)?.out === undefined && s.upTo < s.maxSeen) return false;
    return true;
  }

  /** Origins this mirror keeps a stream of (members, and those that left). */
  originIds(): MirrorId[] {
    return [...this.origins.keys()];
  }

  /** Numbers a payload of ours, keeps it for repairs and sends it to every member. */
  originate(now: number, payload: Uint8Array): OriginateResult {
    if (payload.length > this.config.maxPayloadBytes) return this.refuse('too-large');
    const own = this.stream(this.self);
    if (own.upTo - own.stable >= this.config.window) {
      this.evictBehind(now);
      if (own.upTo - own.stable >= this.config.window) return this.refuse('window-full');
    }
    if (this.bufferedBytes + payload.length > this.config.maxBufferedBytes) {
      this.evictHeaviest(now);
      if (this.bufferedBytes + payload.length > this.config.maxBufferedBytes)
        return this.refuse('buffer-full');
    }
    const seq = own.upTo + 1;
    const copy = payload.slice();
    own.add(seq, copy);
    this.bufferedBytes += copy.length;
    this.counters.originated++;
    this.vectorChanged();
    this.toAll.push({ kind: 'data', origin: this.self, seq, repair: false, payload: copy });
    this.releaseStable(this.self);
    this.flush(now);
    return { kind: 'sent', seq };
  }

  /** A datagram from member `from` (the link says who), or from the group (`undefined`: trust its sender field). */
  receive(now: number, from: MirrorId | undefined, bytes: Uint8Array): void {
    this.counters.datagramsIn++;
    const d = decodeCrimpDatagram(bytes, this.config.maxPayloadBytes);
    if (isCrimpDecodeError(d)) {
      this.countDecodeError(d.error);
      return;
    }
    if (from !== undefined && d.sender !== from) {
      this.counters.dropped.spoofed++;
      return;
    }
    if (d.sender === this.self) {
      this.counters.dropped.own++;
      return;
    }
    const m = this.members.get(d.sender);
    if (m === undefined) {
      this.counters.dropped.notMember++;
      return;
    }
    if (m.out !== undefined || m.suspected) {
      this.counters.dropped.fromOut++;
      return;
    }
    m.heardAt = now;
    if (d.state !== undefined) this.onState(now, m, d.state);
    for (const msg of d.messages) {
      if (!this.origins.has(msg.origin)) {
        this.counters.dropped.unknownOrigin++;
        continue;
      }
      if (msg.kind === 'data') this.onData(now, m, msg);
      else this.repair.onNak(now, m.id, msg.origin, msg.first, msg.count);
    }
    if (d.state !== undefined) this.learnVector(now, d.state);
    // Requests due now (a gap asked for at once) leave with this flush, not at the next tick.
    this.repair.run(now);
    this.flush(now);
  }

  /**
   * The link's word on a datagram we sent: a drop re-sends its payloads the member has not confirmed at once,
   * ahead of any NAK. Only an early hint: nothing depends on it.
   */
  linkNotify(now: number, to: MirrorId, tag: number, delivered: boolean): void {
    const m = this.members.get(to);
    const carried = m?.sent.get(tag);
    if (m === undefined || carried === undefined) return;
    m.sent.delete(tag);
    if (delivered || m.out !== undefined) return;
    for (const [origin, seq] of carried) {
      if ((m.upTo.get(origin) ?? 0) >= seq) continue;
      const payload = this.origins.get(origin)?.payload(seq);
      if (payload === undefined) continue;
      this.counters.earlyResends++;
      m.queue.push({ kind: 'data', origin, seq, repair: true, payload });
    }
    this.flush(now);
  }

  /** Runs what is due: request and repair timers, heartbeats, silence and lag checks. */
  tick(now: number): void {
    this.repair.run(now);
    for (const m of this.members.values()) {
      if (m.out === undefined && !m.suspected && now >= m.heardAt + this.config.memberTimeoutMs)
        this.declareOut(now, m, 'silent');
    }
    this.evictBehind(now);
    this.flush(now);
  }

  /** When tick() next has work. */
  nextTimeout(): number {
    let t = this.repair.nextAt();
    for (const m of this.members.values()) {
      if (m.out !== undefined || m.suspected) continue;
      t = Math.min(
        t,
        m.stateSentAt + this.config.heartbeatMs,
        m.heardAt + this.config.memberTimeoutMs,
      );
    }
    return t;
  }

  /** Live members, this one included. */
  private liveCount(): number {
    let n = 1;
    for (const m of this.members.values()) if (m.out === undefined && !m.suspected) n++;
    return n;
  }

  /** Members not declared out nor suspected, this one included. */
  liveMembers(): MirrorId[] {
    return [
      this.self,
      ...[...this.members.values()]
        .filter((m) => m.out === undefined && !m.suspected)
        .map((m) => m.id),
    ];
  }

  stats(): CrimpStats {
    let held = 0;
    for (const s of this.origins.values()) held += s.held;
    return {
      ...structuredClone(this.counters),
      bufferedPayloads: held,
      bufferedBytes: this.bufferedBytes,
      pendingRequests: this.repair.pending,
      repairLatencyMs: this.repair.latency.summary(),
      repairLatenciesMs: this.repair.latency.samples().map((ms) => Math.round(ms * 10) / 10),
      lossEstimate: this.repair.lossEstimate,
      members: [...this.members.values()].map((m) => ({
        id: m.id,
        out: m.out ?? (m.suspected ? 'suspected' : null),
        rttMs: m.srtt ?? null,
      })),
    };
  }

  /** The smoothed round trip to a member (ms), once measured. */
  rttTo(id: MirrorId): number | undefined {
    return this.members.get(id)?.srtt;
  }

  /** What this mirror holds of each origin: 1..upTo in full. */
  receivedUpTo(origin: MirrorId): CrimpSeq {
    return this.origins.get(origin)?.upTo ?? 0;
  }

  private refuse(reason: 'too-large' | 'window-full' | 'buffer-full'): OriginateResult {
    this.counters.refused[reason]++;
    return { kind: 'refused', reason };
  }

  private stream(origin: MirrorId): OriginStream {
    const s = this.origins.get(origin);
    if (s === undefined) throw new Error(`no stream for origin ${origin}`);
    return s;
  }

  /** One-way distance to a member, ms: half its smoothed RTT. */
  private distance(id: MirrorId): number {
    const rtt = this.members.get(id)?.srtt;
    return Math.max(0.5, rtt === undefined ? this.config.defaultDistanceMs : rtt / 2);
  }

  /** What the repair side sees of the group: streams, distances, who is live, and the queues. */
  private repairSide(): CrimpRepair {
    return new CrimpRepair({
      self: this.self,
      config: this.config,
      counters: this.counters,
      rng: this.o.rng,
      multicast: this.o.sendToGroup !== undefined,
      stream: (origin) => this.stream(origin),
      distance: (id) => this.distance(id),
      liveCount: () => this.liveCount(),
      isOut: (origin) => this.members.get(origin)?.out !== undefined,
      isFrozen: (origin) => this.frozen.has(origin),
      askCandidates: (origin, seq) => this.askCandidates(origin, seq),
      toAll: (msg) => this.toAll.push(msg),
      to: (id, msg) => this.members.get(id)?.queue.push(msg),
    });
  }

  /** Live members that may hold `origin`'s `seq`, for a fast round's targets. */
  private askCandidates(origin: MirrorId, seq: CrimpSeq): AskCandidate[] {
    const candidates: AskCandidate[] = [];
    for (const m of this.members.values()) {
      if (m.out !== undefined || m.suspected) continue;
      const holds = m.id === origin || (m.upTo.get(origin) ?? 0) >= seq;
      candidates.push({ id: m.id, holds, distanceMs: this.distance(m.id) });
    }
    return candidates;
  }

  private onState(now: number, m: Member, s: CrimpState): void {
    m.heard = { stamp: s.stamp, at: now };
    if (s.echo !== undefined) {
      const span = 2 ** CRIMP_STAMP_BITS;
      const rtt = ((stampOf(now) - s.echo.stamp + span) % span) - s.echo.heldMs;
      if (rtt >= 0 && rtt <= CRIMP_MAX_HELD_MS) {
        m.srtt = m.srtt === undefined ? rtt : m.srtt + (rtt - m.srtt) / 8;
      }
    }
    for (const e of s.vector) {
      const stream = this.origins.get(e.origin);
      if (stream === undefined) {
        this.counters.dropped.unknownOrigin++;
        continue;
      }
      if (e.upTo > (m.upTo.get(e.origin) ?? 0)) {
        m.upTo.set(e.origin, e.upTo);
        this.releaseStable(e.origin);
      }
    }
  }

  /**
   * What a vector says exists: gaps to ask for. Read after the datagram's messages, since the sender's own entry
   * names the payloads the same datagram carries (they are no gap).
   */
  private learnVector(now: number, s: CrimpState): void {
    for (const e of s.vector)
      if (e.origin !== this.self && this.origins.has(e.origin))
        this.repair.learnSeen(now, e.origin, e.maxSeen);
  }

  private onData(now: number, from: Member, msg: Extract<CrimpMessage, { kind: 'data' }>): void {
    const { origin, seq } = msg;
    const stream = this.stream(origin);
    const repaired = msg.repair || from.id !== origin;
    if (stream.has(seq)) {
      this.counters.duplicates++;
      if (repaired) this.counters.duplicateRepairs++;
      this.repair.overheard(now, origin, seq);
      return;
    }
    if (origin === this.self) {
      // Ours, yet not held: nobody else can have it.
      this.counters.dropped.unknownOrigin++;
      return;
    }
    if (seq > stream.upTo + this.config.window) {
      this.counters.dropped.outOfWindow++;
      return;
    }
    if (this.members.get(origin)?.out !== undefined) {
      this.counters.dropped.fromOut++;
      return;
    }
    if (this.frozen.has(origin) && this.frozen.get(origin)?.has(seq) !== true) {
      this.counters.dropped.frozen++;
      return;
    }
    if (this.bufferedBytes + msg.payload.length > this.config.maxBufferedBytes) {
      this.evictHeaviest(now);
      if (this.bufferedBytes + msg.payload.length > this.config.maxBufferedBytes) {
        this.counters.dropped.bufferFull++;
        return;
      }
    }
    stream.add(seq, msg.payload);
    this.bufferedBytes += msg.payload.length;
    this.vectorChanged();
    const detectedAt = this.repair.delivered(now, origin, seq, repaired);
    this.counters.delivered++;
    if (repaired) this.counters.deliveredRepaired++;
    this.repair.learnSeen(now, origin, seq);
    this.releaseStable(origin);
    const info: DeliveryInfo = detectedAt === undefined ? { repaired } : { repaired, detectedAt };
    this.o.deliver(origin, seq, msg.payload, info);
  }

  /** Releases an origin's payloads every live member has confirmed. */
  private releaseStable(origin: MirrorId): void {
    const stream = this.stream(origin);
    let stable = stream.upTo;
    // A suspected member still counts: what it lacks may be what a survivor must fetch before it is removed.
    for (const m of this.members.values()) {
      if (m.out === undefined) stable = Math.min(stable, m.upTo.get(origin) ?? 0);
    }
    if (stable <= stream.stable) return;
    const before = stream.bytes;
    const released = stream.release(stable);
    this.bufferedBytes -= before - stream.bytes;
    this.counters.released += released;
    this.repair.forget(origin, stable);
  }

  private vectorChanged(): void {
    for (const m of this.members.values()) m.stateChanged = true;
  }

  /** Declares out every live member a full window behind us on some origin. */
  private evictBehind(now: number): void {
    for (const m of this.members.values()) {
      if (m.out !== undefined || m.suspected) continue;
      for (const [origin, stream] of this.origins) {
        if (origin === m.id) continue;
        if (stream.upTo - (m.upTo.get(origin) ?? 0) >= this.config.window) {
          this.declareOut(now, m, 'behind');
          break;
        }
      }
    }
  }

  /** Over the byte cap: the member whose missing confirmations hold the most bytes is declared out. */
  private evictHeaviest(now: number): void {
    let worst: Member | undefined;
    let worstBytes = 0;
    for (const m of this.members.values()) {
      if (m.out !== undefined || m.suspected) continue;
      let bytes = 0;
      for (const [origin, stream] of this.origins)
        bytes += stream.bytesAbove(m.upTo.get(origin) ?? 0);
      if (bytes > worstBytes) {
        worst = m;
        worstBytes = bytes;
      }
    }
    if (worst !== undefined) this.declareOut(now, worst, 'buffer');
  }

  private declareOut(now: number, m: Member, reason: MemberOutReason | 'left'): void {
    if (reason !== 'left' && this.o.onSuspect !== undefined) {
      // The group decides; until then nothing goes to it, and what it holds back stays held.
      m.suspected = true;
      m.queue.length = 0;
      m.sent.clear();
      this.counters.suspected[reason]++;
      this.o.onSuspect(m.id, reason, now);
      return;
    }
    m.out = reason;
    m.suspected = false;
    m.queue.length = 0;
    m.sent.clear();
    if (reason === 'left') this.counters.membersLeft++;
    else this.counters.membersOut[reason]++;
    // What it originated and we lack can still come from others; what nobody has is lost with it.
    const stream = this.stream(m.id);
    this.counters.abandoned += this.repair.abandon(m.id);
    this.bufferedBytes -= stream.bytes;
    stream.clear();
    for (const origin of this.origins.keys()) this.releaseStable(origin);
    if (reason !== 'left') this.o.onMemberOut?.(m.id, reason, now);
  }

  private countDecodeError(code: CrimpDecodeErrorCode): void {
    this.counters.decodeErrors[code] = (this.counters.decodeErrors[code] ?? 0) + 1;
  }

  private vector(): CrimpState['vector'] {
    return [...this.origins].map(([origin, s]) => ({ origin, upTo: s.upTo, maxSeen: s.maxSeen }));
  }

  private stateFor(now: number, m: Member): CrimpState {
    const heard = m.heard;
    const vector = this.vector();
    m.stateSentAt = now;
    m.stateChanged = false;
    if (heard === undefined || now - heard.at > CRIMP_MAX_HELD_MS)
      return { stamp: stampOf(now), vector };
    return { stamp: stampOf(now), echo: { stamp: heard.stamp, heldMs: now - heard.at }, vector };
  }

  private pack(
    state: CrimpState | undefined,
    messages: readonly CrimpMessage[],
    emit: (bytes: Uint8Array, carried: readonly (readonly [MirrorId, CrimpSeq])[]) => void,
  ): void {
    packCrimpDatagrams(this.writer, this.self, state, messages, this.config.maxDatagramBytes, emit);
  }

  /** Sends what is queued: group messages once (multicast) or to each member, state blocks where due. */
  private flush(now: number): void {
    const group = this.o.sendToGroup;
    const live = [...this.members.values()].filter((m) => m.out === undefined && !m.suspected);
    if (this.toAll.length > 0) {
      if (group !== undefined) {
        this.pack(undefined, this.toAll, (bytes) => {
          this.counters.datagramsOut++;
          this.counters.bytesOut += bytes.length;
          group(bytes);
        });
      } else {
        for (const m of live) m.queue.push(...this.toAll);
      }
      this.toAll.length = 0;
    }
    for (const m of live) {
      // Compared as nextTimeout() adds, so the instant it names is the instant the heartbeat is due.
      const heartbeat = now >= m.stateSentAt + this.config.heartbeatMs;
      const piggyback =
        m.queue.length > 0 &&
        m.stateChanged &&
        now - m.stateSentAt >= this.config.stateMinIntervalMs;
      if (m.queue.length === 0 && !heartbeat) continue;
      const state = heartbeat || piggyback ? this.stateFor(now, m) : undefined;
      this.pack(state, m.queue, (bytes, carried) => {
        const tag = this.nextTag++;
        if (carried.length > 0) {
          m.sent.set(tag, carried);
          if (m.sent.size > this.config.maxSentRecords) {
            const oldest = m.sent.keys().next().value;
            if (oldest !== undefined) m.sent.delete(oldest);
          }
        }
        this.counters.datagramsOut++;
        this.counters.bytesOut += bytes.length;
        this.o.send(m.id, bytes, tag);
      });
      m.queue.length = 0;
    }
  }
}
