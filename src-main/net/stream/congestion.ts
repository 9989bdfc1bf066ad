// Adaptive send rate (TRIBES' future-work item 5): from notify results (what was delivered, what was dropped)
// and RTT, estimate the bandwidth the path has and keep the sending rate under it. Pure arithmetic on times
// passed in; knows nothing of packets' contents or sockets.

/** What the controller needs of the connection's RTT estimate. */
export interface RttView {
  readonly smoothed: number;
  readonly latestMs: number;
  readonly min: number;
  readonly hasSample: boolean;
}

export interface RateControllerOptions {
  /** Never below this (bytes/s on the wire): a modem's worth keeps pointers and chat alive. */
  readonly floorBytesPerSecond: number;
  /** Start here (bytes/s); the fixed policy still caps it. */
  readonly initialBytesPerSecond: number;
}

/** Per-round figures, kept for tests and the bandwidth panel. */
export interface RoundFigures {
  readonly at: number;
  readonly deliveredBytesPerSecond: number;
  readonly lossFraction: number;
  readonly queueDelayMs: number;
  readonly rateBytesPerSecond: number;
  readonly congested: boolean;
  readonly limited: boolean;
}

const DECREASE = 0.85;
const INCREASE = 1.08;
const MIN_ROUND_MS = 50;
const BASE_RTT_WINDOW_MS = 10_000;
/** Queueing delay that counts as congestion: the larger of this and a quarter of the path's base RTT. */
const QUEUE_DELAY_MS = 25;
/** Drops in a round count as a loss burst only this many standard deviations above the path's usual loss. */
const LOSS_SIGMAS = 3;
/** Fewer notified packets than this in a round say nothing about a loss burst. */
const MIN_LOSS_SAMPLE = 8;

/**
 * A delay-first AIMD controller measured in rounds of about one RTT:
 * - congestion is queueing delay (RTT above the path's floor) or a loss burst well above the path's usual loss,
 *   so random wireless loss alone does not throttle the app;
 * - on congestion the rate drops to 85 % of what the path actually delivered in the round (below the
 *   bottleneck, so its queue drains), at most once per round and never below 85 % of half the rate;
 * - otherwise, when the sender was held back by the rate (not merely idle), the rate doubles per round up to the
 *   bandwidth the path delivered before (fast recovery after an outage), and grows 8 % per round beyond it;
 * - the bandwidth estimate is the highest delivery rate seen in rounds where the sender was rate-limited.
 */
export class RateController {
  private rate: number;
  private estimate: number | undefined;
  private roundStart = -Infinity;
  private roundDelivered = 0;
  private roundDropped = 0;
  private roundNotified = 0;
  private roundLimited = false;
  private usualLoss = 0;
  /** Lowest RTT sample this round: a queue that stays the whole round is a standing queue, not a burst. */
  private roundMinRtt = Infinity;
  /** Round minimums over the last BASE_RTT_WINDOW_MS: the path's floor, which may change with the route or rate. */
  private readonly baseRtts: { at: number; rtt: number }[] = [];
  private lastDecreaseAt = -Infinity;
  private readonly recent: RoundFigures[] = [];

  constructor(private readonly options: RateControllerOptions) {
    this.rate = Math.max(options.floorBytesPerSecond, options.initialBytesPerSecond);
  }

  /** The allowed sending rate, bytes/s on the wire. */
  get bytesPerSecond(): number {
    return this.rate;
  }

  /** The estimated available bandwidth (bytes/s), once a rate-limited round has measured it. */
  get estimatedBytesPerSecond(): number | undefined {
    return this.estimate;
  }

  /** The last rounds' figures (at most 64). */
  get rounds(): readonly RoundFigures[] {
    return this.recent;
  }

  /** The sender had data but the rate held it back. */
  markLimited(): void {
    this.roundLimited = true;
  }

  /** One packet's fate. `bytes` is its size on the wire. Returns true when the rate changed. */
  onNotify(now: number, bytes: number, delivered: boolean, rtt: RttView): boolean {
    if (this.roundStart === -Infinity) this.roundStart = now;
    this.roundNotified++;
    if (delivered) this.roundDelivered += bytes;
    else this.roundDropped++;
    if (rtt.hasSample) this.roundMinRtt = Math.min(this.roundMinRtt, rtt.latestMs);
    const length = Math.max(MIN_ROUND_MS, rtt.hasSample ? rtt.smoothed : 0);
    if (now - this.roundStart < length) return false;
    return this.endRound(now, now - this.roundStart);
  }

  private endRound(now: number, lengthMs: number): boolean {
    const delivered = (this.roundDelivered * 1000) / lengthMs;
    const loss = this.roundNotified > 0 ? this.roundDropped / this.roundNotified : 0;
    const queueDelay = this.queueDelay(now);
    // Binomial test against the usual loss, so a few random drops in a short round are not a burst.
    const expected = this.usualLoss * this.roundNotified;
    const lossBurst =
      this.roundNotified >= MIN_LOSS_SAMPLE &&
      this.roundDropped > expected + LOSS_SIGMAS * Math.sqrt(expected) + 2;
    const delayed = queueDelay > Math.max(QUEUE_DELAY_MS, this.baseRtt() / 4);
    const congested = lossBurst || delayed;
    const before = this.rate;
    if (congested && now - this.lastDecreaseAt >= lengthMs) {
      // To what the round delivered, but never below half the rate in one round: a receiver whose process
      // stalled acks a round's packets late, all at once, and that round's trickle and high RTT are no measure
      // of the path (a paste on a busy machine fell to the floor and took seconds to climb back). A standing
      // queue keeps cutting once a round, so a real bottleneck is still reached within a few rounds.
      this.rate = Math.max(
        this.options.floorBytesPerSecond,
        Math.max(Math.min(this.rate, delivered), this.rate / 2) * DECREASE,
      );
      this.lastDecreaseAt = now;
    } else if (!congested && this.roundLimited) {
      // Below a rate the path delivered before (e.g. after an outage): recover fast, then probe gently.
      const known = this.estimate ?? 0;
      this.rate = this.rate < known ? Math.min(known, this.rate * 2) : this.rate * INCREASE;
    }
    if (this.roundLimited)
      this.estimate = Math.max(delivered, congested ? 0 : (this.estimate ?? 0));
    if (!lossBurst) this.usualLoss = 0.9 * this.usualLoss + 0.1 * loss;
    this.recent.push({
      at: now,
      deliveredBytesPerSecond: delivered,
      lossFraction: loss,
      queueDelayMs: queueDelay,
      rateBytesPerSecond: this.rate,
      congested,
      limited: this.roundLimited,
    });
    if (this.recent.length > 64) this.recent.shift();
    this.roundStart = now;
    this.roundDelivered = 0;
    this.roundDropped = 0;
    this.roundNotified = 0;
    this.roundLimited = false;
    this.roundMinRtt = Infinity;
    return this.rate !== before;
  }

  /** This round's standing queue: its lowest RTT above the path's recent floor. */
  private queueDelay(now: number): number {
    if (!Number.isFinite(this.roundMinRtt)) return 0;
    this.baseRtts.push({ at: now, rtt: this.roundMinRtt });
    while ((this.baseRtts[0]?.at ?? now) < now - BASE_RTT_WINDOW_MS) this.baseRtts.shift();
    return Math.max(0, this.roundMinRtt - this.baseRtt());
  }

  private baseRtt(): number {
    let m = Infinity;
    for (const b of this.baseRtts) m = Math.min(m, b.rtt);
    return Number.isFinite(m) ? m : 0;
  }

  /**
   * The fixed policy rose from `from` to `to` bytes/s (a receiver now accepts more, as a joiner does while its
   * board comes down). A rate the old policy held (it sat at the cap: the path had not pushed it below) starts at
   * the new one, as TRIBES starts at the full rate, rather than probing up 8 % a round; congestion still cuts it.
   */
  policyRaised(from: number, to: number): void {
    if (to > from && this.rate >= from * 0.999) this.rate = to;
  }

  /** Keeps the rate within a ceiling (the fixed policy, a manual cap or the host's share). */
  clamp(ceilingBytesPerSecond: number): void {
    this.rate = Math.max(
      this.options.floorBytesPerSecond,
      Math.min(this.rate, ceilingBytesPerSecond),
    );
  }
}

/**
 * Max-min fair shares of a host's uplink (TRIBES' future-work item 4): each connection gets what it asks for
 * if that is under an equal share, and the rest is split evenly among those that want more.
 */
export function fairShares(total: number, demands: readonly number[]): number[] {
  const shares = demands.map(() => 0);
  let left = total;
  let open = demands.map((_, i) => i);
  while (open.length > 0 && left > 1e-9) {
    const equal = left / open.length;
    const satisfied = open.filter((i) => (demands[i] ?? 0) - (shares[i] ?? 0) <= equal);
    if (satisfied.length === 0) {
      for (const i of open) shares[i] = (shares[i] ?? 0) + equal;
      break;
    }
    for (const i of satisfied) {
      const want = (demands[i] ?? 0) - (shares[i] ?? 0);
      shares[i] = (shares[i] ?? 0) + want;
      left -= want;
    }
    open = open.filter((i) => !satisfied.includes(i));
  }
  return shares;
}
