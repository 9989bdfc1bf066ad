// Interpolates one remote 2-D position between timestamped samples, rendered a fixed delay behind the newest
// (TRIBES "tweening", DESIGN.md §5). Knows nothing of React, Konva or the network: every time is passed in (ms).

export interface Point {
  readonly x: number;
  readonly y: number;
}

interface Sample extends Point {
  /** Arrival time, ms (performance.now() when it came in). */
  readonly t: number;
}

export interface TrackOptions {
  /** Render time trails the newest arrival by this much, ms: one or two updates of slack against jitter. */
  readonly delayMs: number;
  /** Past the newest sample, keep going at the last velocity for at most this long, ms. */
  readonly maxExtrapolateMs: number;
  /** Then ease back onto the newest real sample over this long and hold there, ms (0: hold where it stopped). */
  readonly settleMs: number;
  /** Samples kept at most (older ones are never needed once render time has passed them). */
  readonly maxSamples: number;
}

export const DEFAULT_TRACK: TrackOptions = {
  delayMs: 100,
  maxExtrapolateMs: 100,
  settleMs: 150,
  maxSamples: 64,
};

/** Extrapolation measures velocity over at least this span (a 30 Hz update interval), ms. */
const MIN_VELOCITY_SPAN_MS = 33;

const lerp = (a: number, b: number, f: number): number => a + (b - a) * f;
const smooth = (f: number): number => f * f * (3 - 2 * f);

export class Track {
  private samples: Sample[] = [];
  /** The last render time used; render time never goes backwards. */
  private renderT = -Infinity;

  constructor(private readonly opts: TrackOptions = DEFAULT_TRACK) {}

  /** Forgets every sample: the next one shows at once, without a glide from the old place. */
  reset(): void {
    this.samples = [];
    this.renderT = -Infinity;
  }

  get size(): number {
    return this.samples.length;
  }

  /** Adds a sample that arrived at `t` (ms). Arrivals earlier than the newest are treated as simultaneous. */
  push(t: number, x: number, y: number): void {
    const last = this.samples.at(-1);
    if (last === undefined) {
      this.samples.push({ t, x, y });
      return;
    }
    const at = Math.max(t, last.t);
    const renderT = Math.max(at - this.opts.delayMs, this.renderT);
    if (renderT > last.t && renderT < at) {
      // We were extrapolating or holding past the newest sample: anchor the path where it is drawn now, so the
      // new sample is reached by a glide from there instead of a jump.
      const shown = this.positionAt(renderT);
      if (shown) this.samples.push({ t: renderT, x: shown.x, y: shown.y });
    }
    const newest = this.samples.at(-1);
    if (newest !== undefined && newest.t === at)
      this.samples[this.samples.length - 1] = { t: at, x, y };
    else this.samples.push({ t: at, x, y });
    if (this.samples.length > this.opts.maxSamples)
      this.samples.splice(0, this.samples.length - this.opts.maxSamples);
  }

  /** The source stopped at its newest sample (a drop): glide there and stay, with no extrapolation past it. */
  hold(t: number): void {
    const last = this.samples.at(-1);
    if (last !== undefined) this.push(t, last.x, last.y);
  }

  /** Where to draw it at `now` (ms), or null before any sample. Advances render time (never backwards). */
  sample(now: number): Point | null {
    this.renderT = Math.max(now - this.opts.delayMs, this.renderT);
    // Keep two samples at or before render time (interpolation needs one, extrapolation's velocity a second).
    while (this.samples.length > 3 && (this.samples[2]?.t ?? Infinity) <= this.renderT)
      this.samples.shift();
    return this.positionAt(this.renderT);
  }

  private positionAt(rt: number): Point | null {
    const first = this.samples[0];
    if (first === undefined) return null;
    if (rt <= first.t) return { x: first.x, y: first.y };
    for (let i = 0; i + 1 < this.samples.length; i++) {
      const a = this.samples[i];
      const b = this.samples[i + 1];
      if (a === undefined || b === undefined || rt >= b.t) continue;
      const f = (rt - a.t) / (b.t - a.t);
      return { x: lerp(a.x, b.x, f), y: lerp(a.y, b.y, f) };
    }
    return this.beyondNewest(rt);
  }

  /** Past the newest sample: brief extrapolation, then a settle back onto the newest sample, then hold. */
  private beyondNewest(rt: number): Point {
    const last = this.samples.at(-1);
    if (last === undefined) throw new Error('beyondNewest on an empty track');
    const { vx, vy } = this.velocity(last);
    if (vx === 0 && vy === 0) return { x: last.x, y: last.y };
    const ahead = rt - last.t;
    const { maxExtrapolateMs: ext, settleMs } = this.opts;
    if (ahead <= ext) return { x: last.x + vx * ahead, y: last.y + vy * ahead };
    if (settleMs <= 0) return { x: last.x + vx * ext, y: last.y + vy * ext };
    const f = 1 - smooth(Math.min(1, (ahead - ext) / settleMs));
    return { x: last.x + vx * ext * f, y: last.y + vy * ext * f };
  }

  /**
   * Velocity for extrapolation, measured over at least MIN_VELOCITY_SPAN_MS: samples that arrive in a burst (two
   * updates in one packet, or a busy IPC queue) are milliseconds apart, and their raw velocity would fling the
   * pointer far past anything the user did.
   */
  private velocity(last: Sample): { vx: number; vy: number } {
    const prev = this.samples.at(-2);
    // A repeated position (hold(), or a source that stopped) means it is not moving now.
    if (prev !== undefined && prev.x === last.x && prev.y === last.y) return { vx: 0, vy: 0 };
    let base: Sample | undefined;
    for (let i = this.samples.length - 2; i >= 0; i--) {
      const s = this.samples[i];
      if (s === undefined) continue;
      base = s;
      if (last.t - s.t >= MIN_VELOCITY_SPAN_MS) break;
    }
    if (base === undefined || base.t >= last.t) return { vx: 0, vy: 0 };
    const dt = Math.max(last.t - base.t, MIN_VELOCITY_SPAN_MS);
    return { vx: (last.x - base.x) / dt, vy: (last.y - base.y) / dt };
  }
}
