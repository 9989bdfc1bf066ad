import { describe, expect, it } from 'vitest';
import { runBadnet } from './testing/badnet-workload';

// Issue 23's starved links in the simulator: every user's link 16 kbit/s each way with 10 % loss and 40 ± 5 ms,
// four users' pointers at 60 Hz, each on its own phase (more than the links carry), a drag every 2 s and a chat
// line every 0.5 s each.
// Chat goes before presence: every line arrives, 95 % of them within a second, while the pointers degrade to
// what is left (the nearest still at 10 Hz or more), the rate finds the links with no --kbps hint and keeps
// their queues short, and every drag lands exactly. Virtual time; each seed is printed with its failure.

const LINK_BYTES_PER_SECOND = 16_000 / 8;
/** Three seeds; GB_BADNET_SEEDS=N runs N from the same start (200 pass, every user's nearest pointer at 11.8 Hz or more). */
const SEEDS = Array.from(
  { length: Number(process.env.GB_BADNET_SEEDS ?? 3) },
  (_, i) => 23_001 + i,
);

function p95(values: readonly number[]): number {
  const v = [...values].sort((a, b) => a - b);
  return v[Math.max(0, Math.ceil(v.length * 0.95) - 1)] ?? Infinity;
}

describe('QoS on a starved link', () => {
  it('delivers every chat line within the bound while presence degrades, on links the rate found', () => {
    for (const seed of SEEDS) {
      const r = runBadnet({ seed, warmupMs: 5000, windowMs: 20_000 });
      const msg = `seed ${seed}: ${JSON.stringify({
        chatP95: p95(r.chatLatency),
        missing: r.chatMissing,
        hz: r.pointerHz.map((row) => row.map(Math.round)),
        up: Math.round(r.upBytesPerSecond),
        down: Math.round(r.downBytesPerSecond),
        undelivered: r.undelivered,
      })}`;
      // Nothing lost: every line of the window reached every other user.
      expect(r.chatSent, msg).toBe(4 * 2 * 20);
      expect(r.chatMissing, msg).toBe(0);
      expect(p95(r.chatLatency), msg).toBeLessThanOrEqual(1000);
      // Presence yields: no user sees anyone's 60 Hz; each still sees its nearest neighbour at 10 Hz or more.
      r.pointerHz.forEach((row, me) => {
        for (const hz of row) expect(hz, msg).toBeLessThan(40);
        const nearest = Math.max(row[me - 1] ?? 0, row[me + 1] ?? 0);
        expect(nearest, `${msg} user ${me}`).toBeGreaterThanOrEqual(10);
      });
      // The rate found the links (more than half of each used, no hint given) and kept their queues short:
      // beyond the 10 % of random loss, few datagrams were tail-dropped at a full queue (the most of 200 seeds:
      // 13.3 % undelivered, seed 23,162, which had 12.8 % before the starved-link fixes).
      expect(r.upBytesPerSecond, msg).toBeGreaterThan(LINK_BYTES_PER_SECOND / 2);
      expect(r.downBytesPerSecond, msg).toBeGreaterThan(LINK_BYTES_PER_SECOND / 2);
      expect(r.upBytesPerSecond, msg).toBeLessThan(LINK_BYTES_PER_SECOND);
      expect(r.downBytesPerSecond, msg).toBeLessThan(LINK_BYTES_PER_SECOND);
      expect(r.undelivered, msg).toBeLessThan(0.14);
      // Every drag landed exactly where it was dropped, at everyone.
      expect(r.finalCorrect, msg).toBe(4);
    }
  });
});
