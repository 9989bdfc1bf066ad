// The nearest of a session's hosts (its mirrors), sans-IO: a few PROBEs to every candidate in parallel, each one's
// lowest RTT, and the choice — the lowest RTT among those that answered with our protocol version (the third paper's
// server selection). Knows nothing of sockets, timers, join codes or sessions.
import { randomBytes } from 'node:crypto';
import type { PeerAddress } from './address';
import { addressKey } from './address';
import type { Transmit } from './endpoint-types';
import { decodeProbe, encodeProbe, isProbeDecodeError, PROBE_NONCE_SIZE } from './probe-wire';

/** Candidates one probe may have: a join link or a directory names at most this many hosts of a session. */
export const MAX_PROBE_CANDIDATES = 8;

export interface NearestProbeOptions {
  /** PROBEs per candidate (its RTT is the lowest of their answers: queueing only ever adds). */
  readonly rounds: number;
  /** ms between rounds. */
  readonly spacingMs: number;
  /** ms from the first round after which a candidate that has not answered is skipped. */
  readonly timeoutMs: number;
}

export const DEFAULT_NEAREST_PROBE: NearestProbeOptions = {
  rounds: 3,
  spacingMs: 20,
  timeoutMs: 1_500,
};

export interface ProbedCandidate {
  readonly address: PeerAddress;
  /** The lowest RTT of its answered probes, ms; null: no answer within the bound (skipped). */
  readonly rttMs: number | null;
  /** Probes sent to it and answers received. */
  readonly sent: number;
  readonly replies: number;
  /** It answered with another protocol version: it cannot be joined. */
  readonly incompatible: boolean;
}

/** The choice: made as soon as waiting longer could not change it. */
export type ProbeChoice =
  | { readonly chosen: number; readonly at: number }
  | {
      readonly chosen: undefined;
      readonly at: number;
      readonly failure: 'unreachable' | 'version-mismatch';
    };

/** What was learnt: the choice, and every candidate's RTT (late answers after the choice still count here). */
export type ProbeOutcome = ProbeChoice & {
  /** In the order they were given. */
  readonly candidates: readonly ProbedCandidate[];
};

interface Candidate {
  readonly address: PeerAddress;
  readonly key: string;
  /** When each round's probe left; answered ones are taken out of `pending` below. */
  readonly sentAt: number[];
  readonly answered: boolean[];
  rtt: number | null;
  replies: number;
  incompatible: boolean;
}

export class NearestProbe {
  private readonly candidates: Candidate[];
  /** Outstanding probes by nonce (hex): which candidate and round. Bounded by rounds × candidates. */
  private readonly pending = new Map<
    string,
    { readonly candidate: number; readonly round: number }
  >();
  private readonly outbox: Transmit[] = [];
  private round = 0;
  private readonly startedAt: number;
  private readonly options: NearestProbeOptions;
  /** When the choice was last weighed: outstanding probes past the leader's RTT by then wake nobody. */
  private lastSettle = -Infinity;
  /** Dial `chosen` as soon as this is set; the report (`outcome`) waits for the other answers, up to the bound. */
  choice: ProbeChoice | undefined;
  outcome: ProbeOutcome | undefined;

  constructor(
    /** The session's hosts, in the order a link or directory gave them (a tie goes to the first). */
    readonly hosts: readonly PeerAddress[],
    private readonly version: number,
    now: number,
    options: Partial<NearestProbeOptions> = {},
    private readonly random: (n: number) => Uint8Array = (n) => new Uint8Array(randomBytes(n)),
  ) {
    if (hosts.length === 0 || hosts.length > MAX_PROBE_CANDIDATES)
      throw new RangeError(`probe 1..${MAX_PROBE_CANDIDATES} candidates, got ${hosts.length}`);
    this.options = { ...DEFAULT_NEAREST_PROBE, ...options };
    if (this.options.rounds < 1) throw new RangeError('probe at least one round');
    this.candidates = hosts.map((address) => ({
      address,
      key: addressKey(address),
      sentAt: [],
      answered: [],
      rtt: null,
      replies: 0,
      incompatible: false,
    }));
    this.startedAt = now;
    this.sendRound(now);
  }

  /** A PROBE-REPLY: true if it answered one of our outstanding probes (from the address it was sent to). */
  handleReply(now: number, from: PeerAddress, bytes: Uint8Array): boolean {
    if (this.outcome !== undefined) return false;
    const r = decodeProbe(bytes, 'reply');
    if (isProbeDecodeError(r)) return false;
    const id = hex(r.nonce);
    const p = this.pending.get(id);
    const c = p === undefined ? undefined : this.candidates[p.candidate];
    if (p === undefined || c === undefined || c.key !== addressKey(from)) return false;
    this.pending.delete(id);
    const rtt = Math.max(0, now - (c.sentAt[p.round] ?? now));
    c.answered[p.round] = true;
    c.replies++;
    c.rtt = c.rtt === null ? rtt : Math.min(c.rtt, rtt);
    if (r.version !== this.version) c.incompatible = true;
    if (this.choice === undefined) this.settle(now);
    this.report(now);
    return true;
  }

  handleTimeout(now: number): void {
    if (this.outcome !== undefined) return;
    while (this.round < this.options.rounds && this.roundAt(this.round) <= now) this.sendRound(now);
    if (this.choice === undefined) this.settle(now);
    this.report(now);
  }

  nextTimeout(): number {
    if (this.outcome !== undefined) return Infinity;
    let t = this.startedAt + this.options.timeoutMs;
    if (this.choice !== undefined) return t;
    if (this.round < this.options.rounds) t = Math.min(t, this.roundAt(this.round));
    const lead = this.leader();
    // An outstanding probe stops mattering once it has been out longer than the leader's RTT.
    if (lead !== undefined)
      for (const p of this.pending.values()) {
        const at = (this.candidates[p.candidate]?.sentAt[p.round] ?? 0) + lead.rtt;
        if (at > this.lastSettle) t = Math.min(t, at);
      }
    return t;
  }

  pollTransmit(): Transmit | undefined {
    return this.outbox.shift();
  }

  /** The hosts that answered with our version, nearest first (the first given, on a tie): the order to try them. */
  ranked(): PeerAddress[] {
    return this.candidates
      .map((c, index) => ({ c, index }))
      .filter(({ c }) => c.rtt !== null && !c.incompatible)
      .sort((a, b) => (a.c.rtt ?? 0) - (b.c.rtt ?? 0) || a.index - b.index)
      .map(({ c }) => c.address);
  }

  /** The host at `index` (a choice's), or the first. */
  host(index = 0): PeerAddress {
    const h = this.hosts[index] ?? this.hosts[0];
    if (h === undefined) throw new Error('a probe always has a host');
    return h;
  }

  private roundAt(round: number): number {
    return this.startedAt + round * this.options.spacingMs;
  }

  private sendRound(now: number): void {
    const round = this.round++;
    this.candidates.forEach((c, i) => {
      const nonce = this.random(PROBE_NONCE_SIZE);
      this.pending.set(hex(nonce), { candidate: i, round });
      c.sentAt[round] = now;
      c.answered[round] = false;
      this.outbox.push({ to: c.address, bytes: encodeProbe({ version: this.version, nonce }) });
    });
  }

  /** The compatible candidate with the lowest RTT so far (the first given, on a tie). */
  private leader(): { readonly index: number; readonly rtt: number } | undefined {
    let best: { index: number; rtt: number } | undefined;
    this.candidates.forEach((c, index) => {
      if (c.rtt === null || c.incompatible) return;
      if (best === undefined || c.rtt < best.rtt) best = { index, rtt: c.rtt };
    });
    return best;
  }

  /**
   * Decides as soon as waiting longer cannot change the choice: every round is out, and no other candidate can
   * still beat the leader (each of its outstanding probes has been out at least the leader's RTT, and what it has
   * answered is no lower). Otherwise at the bound, with whoever answered.
   */
  private settle(now: number): void {
    this.lastSettle = now;
    const lead = this.leader();
    const atBound = now >= this.startedAt + this.options.timeoutMs;
    if (!atBound) {
      if (lead === undefined || this.round < this.options.rounds) return;
      const leadRtt = lead.rtt;
      for (const [i, c] of this.candidates.entries()) {
        if (i === lead.index || c.incompatible) continue;
        if (c.rtt !== null && c.rtt < leadRtt) return;
        for (let r = 0; r < c.sentAt.length; r++)
          if (c.answered[r] !== true && now - (c.sentAt[r] ?? now) < leadRtt) return;
      }
    }
    if (lead !== undefined) {
      this.choice = { chosen: lead.index, at: now };
      return;
    }
    const anyAnswered = this.candidates.some((c) => c.replies > 0);
    this.choice = {
      chosen: undefined,
      at: now,
      failure: anyAnswered ? 'version-mismatch' : 'unreachable',
    };
  }

  /** Once chosen, the report: when every probe is answered, or at the bound with what came. */
  private report(now: number): void {
    const choice = this.choice;
    if (choice === undefined || this.outcome !== undefined) return;
    if (this.pending.size > 0 && now < this.startedAt + this.options.timeoutMs) return;
    this.pending.clear();
    this.outbox.length = 0;
    const candidates = this.candidates.map((c) => ({
      address: c.address,
      rttMs: c.rtt,
      sent: c.sentAt.length,
      replies: c.replies,
      incompatible: c.incompatible,
    }));
    this.outcome = { ...choice, candidates };
  }
}

function hex(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}
