// Adaptive send rate (TRIBES' future-work item 5): from notify results (what was delivered, what was dropped)
// and RTT, estimate the bandwidth the path has and keep the sending rate under it. Pure arithmetic on times
// passed in; knows nothing of packets' contents or sockets.
import { WindowMin } from './window-min';

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

/** A cut takes at least 5 % off, and at most half (a deep queue against a short path). */
const DECREASE_MIN = 0.95;
const DECREASE_MAX = 0.5;
/** A round lasts an RTT, at most this many times the path's lowest RTT. */
const ROUND_MAX_OF_MIN = 2;
/** Growth per round well below the rate the path last congested at, and near it (a plateau). */
const INCREASE = 1.08;
const INCREASE_NEAR = 1.02;
/** A queue this many times the target is deep: the rate may drop to what was sent, not only halve. */
const DEEP_QUEUE = 4;
/**
 * The rate grows only while under this many times what the path took from us: a sender held back by something
 * else (a packet-rate cap, its own pace) while data waits would otherwise grow a rate it never uses, and then
 * need many rounds of cuts once the rate matters.
 */
const USED_FOR_GROWTH = 2;
/** Growth per round while no bottleneck is known. */
const PROBE = 1.5;
/** The plateau around the rate of the last congestion: [PLATEAU_LOW, PLATEAU_HIGH] x that rate. */
const PLATEAU_LOW = 0.9;
const PLATEAU_HIGH = 1.1;
/** Below this fraction of the rate the path last congested at (after an outage), the rate doubles back to it. */
const RECOVER_BELOW = 0.6;
/** A rate within this factor of the floor is at the floor: a cut there says nothing of the path. */
const FLOOR_MARGIN = 1.05;
/** A capacity found within this factor of the floor is the floor's own (its packets' time read as a queue). */
const KNOWN_ABOVE_FLOOR = 1.25;
/** Weight of a round's figure in the smoothed delivery rate (the bandwidth estimate shown in the stats). */
const SMOOTHING = 0.5;
/** What the path took is measured over the last this many rounds: acks bunched into one round don't swing it. */
const SENT_ROUNDS = 4;
const MIN_ROUND_MS = 50;
const BASE_RTT_WINDOW_MS = 10_000;
/**
 * Queueing delay that counts as congestion: the larger of this and a quarter of the path's base RTT. Not much
 * less: on a 16 kbit/s link a 100-byte packet takes 30 ms longer to serialize than a 40-byte one, which a
 * lower target reads as a queue (and the rate never grows to the link).
 */
const QUEUE_DELAY_MS = 40;
/** Drops in a round count as a loss burst only this many standard deviations above the path's usual loss. */
const LOSS_SIGMAS = 3;
/** Fewer notified packets than this in a round say nothing about a loss burst. */
const MIN_LOSS_SAMPLE = 8;
/** Fewer queue samples than this in a round say nothing about a standing queue (one reordered packet is not). */
const MIN_QUEUE_SAMPLES = 3;

/**
 * A delay-first controller measured in rounds of about one RTT, which keeps the bottleneck's queue short:
 * - congestion is queueing delay or a loss burst well above the path's usual loss, so random loss alone (10 %
 *   on a bad wireless link) never throttles the app: a bottleneck shows as delay before it drops anything;
 * - the queueing delay is the one-way queue the peer measures on our packets and reports (one-way-delay.ts),
 *   else the round's lowest RTT above the path's floor; it counts as congestion past a quarter of the base
 *   RTT, at least 40 ms;
 * - on congestion the rate is cut once per (queue-inflated) RTT, from what the path took from us in the last
 *   rounds when that is lower than the rate (an app-limited sender's allowed rate says nothing of the path),
 *   by 5 % just over the target and up to half for a deep queue, so the queue drains within a round or two;
 * - otherwise, while the rate holds the sender back and the queue is under half the target, the rate grows 8 %
 *   a round below what the path carried when it last began to queue, 2 % a round near it (a plateau, so it
 *   dwells just under the bottleneck rather than overfilling its queue every few rounds), and doubles back
 *   after an outage left it far below;
 * - what was sent counts everything notified (delivered or dropped), the most of the last rounds, so neither
 *   random loss nor acks bunched into one round (a receiver that stalled) swing the rate.
 */
export class RateController {
  private rate: number;
  private estimate: number | undefined;
  private roundStart = -Infinity;
  private roundDelivered = 0;
  private roundBytes = 0;
  private roundDropped = 0;
  private roundNotified = 0;
  private roundLimited = false;
  private usualLoss = 0;
  /** Bytes delivered and length (ms) of each of the last rounds. */
  private readonly sentRounds: { bytes: number; ms: number }[] = [];
  /** The rate when congestion was last seen: the path's capacity as last found. */
  private congestedAt: number | undefined;
  /** Some round saw congestion: the path has a bottleneck, and growth past it is gentle. */
  private everCongested = false;
  /** The previous round saw a deep queue. */
  private wasDeep = false;
  /** The previous round saw congestion: a cut now belongs to the same episode. */
  private wasCongested = false;
  /** Lowest RTT sample this round: a queue that stays the whole round is a standing queue, not a burst. */
  private roundMinRtt = Infinity;
  /** Lowest one-way queue the peer reported since the last measure taken, and how many reports. */
  private minReport = Infinity;
  private reports = 0;
  /** The peer reports the one-way queue: its RTT is no longer the measure. */
  private reported = false;
  /** RTT samples this round: the lowest of one or two is jitter, not a standing queue. */
  private roundRtts = 0;
  /** Round minimums over the last BASE_RTT_WINDOW_MS: the path's floor, which may change with the route or rate. */
  private readonly baseRtts = new WindowMin(BASE_RTT_WINDOW_MS);
  private lastDecreaseAt = -Infinity;
  private readonly recent: RoundFigures[] = [];

  constructor(private readonly options: RateControllerOptions) {
    this.rate = Math.max(options.floorBytesPerSecond, options.initialBytesPerSecond);
  }

  /** The allowed sending rate, bytes/s on the wire. */
  get bytesPerSecond(): number {
    return this.rate;
  }

  /** The estimated available bandwidth (bytes/s delivered), once a rate-limited round has measured it. */
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

  /**
   * What the peer measured of the queue on our packets to it (one-way, from their send stamps): when reports
   * come, they are the round's queueing delay instead of the RTT's rise, which carries the other direction's
   * queue too (a starved link's two directions would each back off for the other's queue).
   */
  onQueueReport(queueMs: number): void {
    this.minReport = Math.min(this.minReport, queueMs);
    this.reports++;
    this.reported = true;
  }

  /** One packet's fate. `bytes` is its size on the wire. Returns true when the rate changed. */
  onNotify(now: number, bytes: number, delivered: boolean, rtt: RttView): boolean {
    if (this.roundStart === -Infinity) this.roundStart = now;
    this.roundNotified++;
    this.roundBytes += bytes;
    if (delivered) this.roundDelivered += bytes;
    else this.roundDropped++;
    if (rtt.hasSample) {
      this.roundMinRtt = Math.min(this.roundMinRtt, rtt.latestMs);
      this.roundRtts++;
    }
    // A round is an RTT, but no longer than twice the path's floor: a queue inflates the smoothed RTT, and a
    // controller that measures in inflated rounds finds the queue it should prevent a round too late.
    const length = Math.max(
      MIN_ROUND_MS,
      rtt.hasSample ? Math.min(rtt.smoothed, ROUND_MAX_OF_MIN * rtt.min) : 0,
    );
    if (now - this.roundStart < length) return false;
    return this.endRound(now, now - this.roundStart, rtt.hasSample ? rtt.smoothed : length);
  }

  private endRound(now: number, lengthMs: number, rttMs: number): boolean {
    const delivered = (this.roundDelivered * 1000) / lengthMs;
    // What the bottleneck took from us over the last rounds: what was delivered, and the path's usual random
    // loss on top (dropped packets count only that much: a burst of tail drops notified at once never passed).
    this.sentRounds.push({ bytes: this.roundDelivered, ms: lengthMs });
    if (this.sentRounds.length > SENT_ROUNDS) this.sentRounds.shift();
    let bytes = 0;
    let ms = 0;
    for (const r of this.sentRounds) {
      bytes += r.bytes;
      ms += r.ms;
    }
    const sent = (bytes * 1000) / ms / (1 - Math.min(0.5, this.usualLoss));
    const loss = this.roundNotified > 0 ? this.roundDropped / this.roundNotified : 0;
    const measured = this.queueDelay(now);
    const queueDelay = measured ?? 0;
    // Binomial test against the usual loss, so a few random drops in a short round are not a burst.
    const expected = this.usualLoss * this.roundNotified;
    const lossBurst =
      this.roundNotified >= MIN_LOSS_SAMPLE &&
      this.roundDropped > expected + LOSS_SIGMAS * Math.sqrt(expected) + 2;
    const target = this.target();
    const delayed = queueDelay > target;
    const congested = lossBurst || delayed;
    const before = this.rate;
    // A deep queue two rounds running is a standing one; one round's is as likely a process that stalled.
    const deepNow = delayed && queueDelay > DEEP_QUEUE * target;
    const deep = deepNow && this.wasDeep;
    this.wasDeep = deepNow;
    // A cut shows in the RTT one (queue-inflated) RTT later: until then the queue seen is the old one. But a
    // deep queue while the rate is still over twice what the path takes (a first cut only halved it) is cut at
    // once: each RTT of waiting there is another RTT of a full queue.
    const deepAboveTaken = deep && this.rate > 2 * sent;
    if (congested && (now - this.lastDecreaseAt >= Math.max(lengthMs, rttMs) || deepAboveTaken)) {
      // The deeper the queue (against the path's floor), the deeper the cut: just over the target takes a little
      // off (a packet or two of jitter), a deep one drains fast. A standing queue keeps cutting once an RTT.
      const factor = Math.max(
        DECREASE_MAX,
        Math.min(DECREASE_MIN, 1 - (queueDelay - target / 2) / (2 * (this.baseRtt() + queueDelay))),
      );
      // From what the path took in the last rounds (delivered, over several rounds) when that is below the
      // rate: the rate of a sender that did not use it says nothing of the path. Unless the queue is deep two
      // rounds running, at most halving the rate: a receiver whose process stalled acks a round's packets late,
      // all at once, and its trickle is no measure of the path (a paste on a busy machine once fell to the
      // floor and took seconds to climb back; a lossy, jittery link once fell to the floor on a few such
      // rounds). A standing deep queue (500 ms ahead of a chat line is the failure to avoid) takes the rate
      // down to what was taken at once.
      const taken = Math.min(this.rate, sent);
      const from = deep ? taken : Math.max(taken, this.rate / 2);
      // What the path took when it began to queue (the rate holding the sender back, or a deep queue): about
      // its capacity. Later cuts of the same episode see the rate already cut; a loss burst with no queue
      // says nothing of it.
      // A cut at the floor is no measure: the rate cannot go lower, and on a starved link the floor's few large
      // packets read as a queue of their own (a 250-byte packet takes 125 ms on 16 kbit/s): the capacity found
      // before stands, so the rate doubles back to it at the first round without a queue.
      if (!this.wasCongested && this.rate > this.options.floorBytesPerSecond * FLOOR_MARGIN)
        this.congestedAt = delayed && (this.roundLimited || deep) ? taken : undefined;
      this.everCongested = true;
      this.rate = Math.max(this.options.floorBytesPerSecond, from * factor);
      this.lastDecreaseAt = now;
    }
    // While a queue stands at the bottleneck, the bottleneck sends at its full rate whatever ours is: what the
    // path took from us in any round that saw the queue is its capacity, where the episode's first figure (its
    // average still holds the rounds before the queue formed, or it was a loss burst) may be far less or none. A join's burst into a 16 kbit/s
    // link once left that first figure at 750 B/s of 2,000, and the rate dwelt near it for 15 s.
    // Not at the floor, where the few large packets read as a queue of their own, unless the queue is deep.
    const wasAtFloor = before <= this.options.floorBytesPerSecond * FLOOR_MARGIN;
    if (delayed && (deep || !wasAtFloor) && sent > (this.congestedAt ?? 0)) this.congestedAt = sent;
    if (
      !congested &&
      this.roundLimited &&
      measured !== undefined &&
      this.rate < USED_FOR_GROWTH * sent
    ) {
      // Growth slows as the queue nears the target (LEDBAT's proportional gain): a few packets' worth of jitter
      // or of serialization (a 100-byte packet spends 50 ms on a 16 kbit/s link) is no reason to stop.
      const room = 1 - queueDelay / target;
      const known = this.knownCapacity();
      if (known === undefined) {
        // No bottleneck found yet: probe fast; past one found before, the path has more room: grow. At the
        // floor, nothing is known of the path (a capacity found there is the floor's own): probe as at the start.
        const probe = !this.everCongested || this.atFloor();
        this.rate *= 1 + ((probe ? PROBE : INCREASE) - 1) * room;
      } else if (this.rate < known * RECOVER_BELOW) {
        // Far below where the path last congested (after an outage): recover fast.
        this.rate = Math.min(known * PLATEAU_LOW, this.rate * 2);
      } else if (this.rate < known * PLATEAU_LOW || this.rate > known * PLATEAU_HIGH) {
        this.rate *= 1 + (INCREASE - 1) * room;
        // Well past it without congestion: the path has more room now.
        if (this.rate > known * PLATEAU_HIGH) this.congestedAt = undefined;
      } else {
        this.rate *= 1 + (INCREASE_NEAR - 1) * room;
      }
    }
    if (this.roundLimited) this.estimate = smooth(this.estimate, delivered);
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
    this.wasCongested = congested;
    this.roundStart = now;
    this.roundDelivered = 0;
    this.roundBytes = 0;
    this.roundDropped = 0;
    this.roundNotified = 0;
    this.roundLimited = false;
    this.roundMinRtt = Infinity;
    this.roundRtts = 0;
    return this.rate !== before;
  }

  /**
   * This round's standing queue: the lowest one-way queue the peer reported (over this round, or the last ones
   * until MIN_QUEUE_SAMPLES reports came: a peer that sends less often than we do reports seldom), else, from a
   * peer that never reported, the round's lowest RTT above the path's recent floor. Undefined when too few
   * samples say anything.
   */
  private queueDelay(now: number): number | undefined {
    if (Number.isFinite(this.roundMinRtt)) {
      this.baseRtts.add(now, this.roundMinRtt);
    }
    if (this.reports >= MIN_QUEUE_SAMPLES) {
      const q = this.minReport;
      this.reports = 0;
      this.minReport = Infinity;
      return q;
    }
    if (this.roundRtts < MIN_QUEUE_SAMPLES) return undefined;
    // Too few reports: from a peer that reports, the RTT's rise (which carries the other direction's queue too)
    // counts only until the first congestion, past the target: a queue forming at the start, while the rate is
    // not yet shaped and only one packet in eight is stamped.
    const rttQueue = Math.max(0, this.roundMinRtt - this.baseRtt());
    const target = Math.max(QUEUE_DELAY_MS, this.baseRtt() / 4);
    if (this.reported && (this.everCongested || rttQueue <= target)) return undefined;
    return rttQueue;
  }

  /**
   * Queueing delay that counts as congestion this round (see QUEUE_DELAY_MS). Far below the capacity found
   * (recovering from the floor), a queue cannot be ours: what reads as one is our own packets' serialization at
   * the bottleneck, large there since data waiting for a slow rate leaves in large packets (200 bytes take 100 ms
   * on 16 kbit/s, against the smallest packets' floor), so a round's mean packet time at that capacity is allowed
   * on top. Without it a starved link's rate sat at the floor for seconds, each round's reading just over 40 ms.
   */
  private target(): number {
    const t = Math.max(QUEUE_DELAY_MS, this.baseRtt() / 4);
    // The capacity the packets' time is taken at: the one found, else at the floor the floor's own rate (a link
    // slower than the floor could not keep a queue under one packet's time there for long: it goes deep).
    const known = this.knownCapacity();
    let capacity: number | undefined;
    if (known !== undefined && this.rate < known * RECOVER_BELOW) capacity = known;
    else if (this.atFloor()) capacity = this.options.floorBytesPerSecond;
    if (capacity === undefined || this.roundNotified === 0) return t;
    return Math.max(t, (1000 * this.roundBytes) / this.roundNotified / capacity);
  }

  /** At (or within FLOOR_MARGIN of) the floor. */
  private atFloor(): boolean {
    return this.rate <= this.options.floorBytesPerSecond * FLOOR_MARGIN;
  }

  /** The capacity found, unless it is about the floor's own rate (no measure of the path). */
  private knownCapacity(): number | undefined {
    const known = this.congestedAt;
    return known !== undefined && known > this.options.floorBytesPerSecond * KNOWN_ABOVE_FLOOR
      ? known
      : undefined;
  }

  private baseRtt(): number {
    const m = this.baseRtts.min;
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

function smooth(prev: number | undefined, x: number): number {
  return prev === undefined ? x : prev + SMOOTHING * (x - prev);
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
