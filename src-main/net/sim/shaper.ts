// One direction's impairment verdict for one datagram, with SimNetwork.send's semantics and RNG draw order; sans-IO: knows nothing of sockets or clocks.
import type { Rng } from '../rng';
import type { LinkConditions } from './link';

/** One direction's bottleneck: its conditions and when it finishes sending what it already holds (ms). */
export interface Bottleneck {
  conditions: LinkConditions;
  busyUntil: number;
}

export type Verdict =
  | { readonly kind: 'queue-full' }
  | { readonly kind: 'lost' }
  /** Due times in ms, one per copy (two for a duplicate). */
  | { readonly kind: 'deliver'; readonly at: readonly number[] };

const QUEUE_FULL: Verdict = { kind: 'queue-full' };
const LOST: Verdict = { kind: 'lost' };

/**
 * Decides what happens to a datagram of `wireSize` bytes (payload plus headers) offered at `now` ms:
 * the bottleneck queue first (tail drop past maxQueueMs), then loss past the bottleneck, then delay,
 * jitter, reorder hold and duplication. Draws from `rng` exactly as SimNetwork.send does, so a seed
 * means the same thing in the simulator and on a real socket.
 */
export function shapeDatagram(link: Bottleneck, rng: Rng, now: number, wireSize: number): Verdict {
  const c = link.conditions;
  let departAt = now;
  if (c.bandwidthBps > 0) {
    const start = Math.max(now, link.busyUntil);
    if (start - now > c.maxQueueMs) return QUEUE_FULL;
    departAt = start + (wireSize * 8 * 1000) / c.bandwidthBps;
    link.busyUntil = departAt;
  }
  if (rng.bool(c.loss)) return LOST;
  const copies = rng.bool(c.duplicate) ? 2 : 1;
  const at: number[] = [];
  for (let i = 0; i < copies; i++) {
    let due = departAt + c.delayMs + (c.jitterMs > 0 ? rng.next() * c.jitterMs : 0);
    if (rng.bool(c.reorder)) due += c.delayMs * (1 + rng.next() * 2) + 1;
    at.push(due);
  }
  return { kind: 'deliver', at };
}

/** Conditions are written by tests and flags, so a bad one is a programmer error. */
export function assertConditions(c: LinkConditions): void {
  const probabilities = [c.loss, c.reorder, c.duplicate];
  const magnitudes = [c.delayMs, c.jitterMs, c.bandwidthBps, c.maxQueueMs];
  const ok =
    probabilities.every((p) => p >= 0 && p <= 1) &&
    magnitudes.every((d) => Number.isFinite(d) && d >= 0);
  if (!ok) throw new RangeError(`invalid LinkConditions ${JSON.stringify(c)}`);
}
