// Interpolates a remote object's live size and rotation during a resize or rotate, like its place (track.ts):
// the same delay behind the newest sample, rotation taking the short way round (359.9° to 0.1° turns 0.2°, not
// back through 180°). Knows nothing of React, Konva or the network: every time is passed in (ms).
import type { LiveShape } from '../../shared/api';
import { ROTATION_STEPS } from '../../shared/board';
import { DEFAULT_TRACK, Track, type TrackOptions } from './track';

const HALF_TURN = ROTATION_STEPS / 2;

export class ShapeTrack {
  private readonly size: Track;
  /** Rotation unwrapped (tenths of a degree, any number of turns): successive samples differ by under half a turn. */
  private readonly turn: Track;
  private unwrapped: number | null = null;

  constructor(opts: TrackOptions = DEFAULT_TRACK) {
    this.size = new Track(opts);
    this.turn = new Track(opts);
  }

  /** A sample that arrived at `now` (ms). */
  push(now: number, s: LiveShape): void {
    this.size.push(now, s.w, s.h);
    const prev = this.unwrapped;
    if (prev === null) this.unwrapped = s.rotation;
    else {
      const step =
        ((((s.rotation - prev) % ROTATION_STEPS) + ROTATION_STEPS + HALF_TURN) % ROTATION_STEPS) -
        HALF_TURN;
      this.unwrapped = prev + step;
    }
    this.turn.push(now, this.unwrapped, 0);
  }

  /** The holder let go: glide to the newest sample and stay. */
  hold(now: number): void {
    this.size.hold(now);
    this.turn.hold(now);
  }

  /** The size and rotation to draw at `now` (rotation back in 0..3599, sizes never negative), or null before any. */
  sample(now: number): LiveShape | null {
    const size = this.size.sample(now);
    const turn = this.turn.sample(now);
    if (size === null || turn === null) return null;
    const r = ((turn.x % ROTATION_STEPS) + ROTATION_STEPS) % ROTATION_STEPS;
    return { w: Math.max(0, size.x), h: Math.max(0, size.y), rotation: r };
  }
}
