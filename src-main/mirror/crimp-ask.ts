// Small-group repair planning for CRIMP: whom a mirror missing a payload asks, and how many copies of each NAK a
// round sends, so that one round brings the payload back with high probability (the repair-latency goal is one
// round trip). Pure functions: knows nothing of timers, the wire or the group's state.
import type { MirrorId } from './mirror-id';

/** A member that may be asked for a payload. */
export interface AskCandidate {
  readonly id: MirrorId;
  /** Its vector says it holds the payload (the origin always does). */
  readonly holds: boolean;
  /** One-way distance, ms. */
  readonly distanceMs: number;
}

/**
 * The members a round asks: certain holders first (the origin, then those whose vector names the payload),
 * nearest first, then the rest nearest first; each later round starts one further down the list, so a re-ask
 * goes to another holder before the same one again.
 */
export function askTargets(
  candidates: readonly AskCandidate[],
  origin: MirrorId,
  round: number,
  count: number,
): MirrorId[] {
  const rank = (c: AskCandidate): number => (c.id === origin ? 0 : c.holds ? 1 : 2);
  const ordered = [...candidates].sort(
    (a, b) => rank(a) - rank(b) || a.distanceMs - b.distanceMs || a.id - b.id,
  );
  const n = ordered.length;
  const out: MirrorId[] = [];
  for (let i = 0; i < Math.min(count, n); i++) {
    const c = ordered[(round + i) % n];
    if (c !== undefined) out.push(c.id);
  }
  return out;
}

/**
 * Copies of the NAK each target gets in one round: the fewest whose estimated miss chance is at most `goal`.
 * Each copy that arrives draws a repair, so with loss p one target fails with f = (1 - (1-p)²)^k; the first
 * target (the origin) surely holds the payload, the others hold it with chance 1 - p.
 */
export function askCopies(loss: number, targets: number, goal: number, max: number): number {
  const p = Math.min(0.99, Math.max(0, loss));
  const attempt = 1 - (1 - p) ** 2;
  for (let k = 1; k < max; k++) {
    const f = attempt ** k;
    const other = 1 - (1 - p) * (1 - f);
    if (f * other ** Math.max(0, targets - 1) <= goal) return k;
  }
  return Math.max(1, max);
}
