// Network impairment: loss, delay, jitter, reordering, duplication and a bandwidth cap, and the verdict for one
// datagram. The simulator's network and the app's own network-conditions control share it, so a seed means the
// same in both. Sans-IO: knows nothing of sockets or clocks.
import type { Rng } from './rng';

/** How one direction of a path mistreats datagrams. */
export interface Impairment {
  /** Probability a datagram is lost, 0..1. */
  readonly loss: number;
  /** One-way delay, ms. */
  readonly delayMs: number;
  /** Extra uniform random delay in [0, jitterMs). Jitter larger than the packet spacing reorders. */
  readonly jitterMs: number;
  /** Probability a datagram is held back an extra 1-3 x delay (reordered past later ones). */
  readonly reorder: number;
  /** Probability a datagram is delivered twice. */
  readonly duplicate: number;
  /** Bottleneck rate in bits/s counting 28 B IPv4/UDP per datagram; 0 = unlimited. */
  readonly bandwidthBps: number;
  /** A datagram that would wait longer than this in the bottleneck queue is dropped (tail drop). */
  readonly maxQueueMs: number;
}

/** No loss, no delay, no cap. */
export const NO_IMPAIRMENT: Impairment = {
  loss: 0,
  delayMs: 0,
  jitterMs: 0,
  reorder: 0,
  duplicate: 0,
  bandwidthBps: 0,
  maxQueueMs: 200,
};

/** One direction's bottleneck: its impairment and when it finishes sending what it already holds (ms). */
export interface Bottleneck {
  conditions: Impairment;
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
 * jitter, reorder hold and duplication. The simulator's SimNetwork.send decides with it too, so the
 * RNG draws are the same in the simulator and on a real socket.
 */
export function shapeDatagram(
  bottleneck: Bottleneck,
  rng: Rng,
  now: number,
  wireSize: number,
): Verdict {
  const c = bottleneck.conditions;
  let departAt = now;
  if (c.bandwidthBps > 0) {
    const start = Math.max(now, bottleneck.busyUntil);
    if (start - now > c.maxQueueMs) return QUEUE_FULL;
    departAt = start + (wireSize * 8 * 1000) / c.bandwidthBps;
    bottleneck.busyUntil = departAt;
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

/** An impairment is written by tests and flags, so a bad one is a programmer error. */
export function assertImpairment(c: Impairment): void {
  const probabilities = [c.loss, c.reorder, c.duplicate];
  const magnitudes = [c.delayMs, c.jitterMs, c.bandwidthBps, c.maxQueueMs];
  const ok =
    probabilities.every((p) => p >= 0 && p <= 1) &&
    magnitudes.every((d) => Number.isFinite(d) && d >= 0);
  if (!ok) throw new RangeError(`invalid Impairment ${JSON.stringify(c)}`);
}
