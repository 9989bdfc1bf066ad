// Tail repeats: once a pointer stops, its last position is written once more (the packet carrying it may be
// lost), unless the packets could not keep up with that pointer, whose next turn always brings newer state.
import { describe, expect, it } from 'vitest';
import { NO_IMPAIRMENT } from '../impairment';
import type { Pointer } from '../testing/ghost-classes';
import { POINTER } from '../testing/ghost-classes';
import type { GhostSource } from './ghost-source';
import { makeGhostPair } from '../testing/ghost-pair';

const POINTERS = 6;
const MOVE_MS = 2_000;
const POSITION = POINTER.maskOf('position');

/** Six pointers move every 20 ms tick for 2 s, then stop; returns the host's tail repeats and updates. */
function run(seed: number, budgetBits: number): { repeats: number; updates: number } {
  const pointers: Pointer[] = Array.from({ length: POINTERS }, () => ({ x: 0, y: 0, tool: 0 }));
  const sources: GhostSource<Pointer>[] = [];
  const pair = makeGhostPair({
    seed,
    // An 80 ms round trip: no ack can cancel a repeat due 30 ms after the write.
    conditions: { ...NO_IMPAIRMENT, delayMs: 40 },
    tickMs: 20,
    budgetBits,
    onTick: (now) => {
      if (now >= MOVE_MS) return;
      sources.forEach((s, i) => {
        const p = pointers[i] as Pointer;
        p.x = Math.round(now) + i;
        s.markDirty(POSITION);
      });
    },
  });
  for (const p of pointers) sources.push(pair.host.domain.add(POINTER, p, { always: true }));
  pair.sim.runUntil(MOVE_MS + 1_000);
  const st = pair.host.ghosts.stats().sent;
  return { repeats: st?.tailRepeats ?? NaN, updates: st?.updates ?? NaN };
}

describe('tail repeats', () => {
  it('repeat each stopped pointer once when every packet carries every pointer (seeds 1-3)', () => {
    for (const seed of [1, 2, 3]) {
      const r = run(seed, Infinity);
      expect(r.updates, `seed ${seed}`).toBeGreaterThan(POINTERS * 50);
      expect(r.repeats, `seed ${seed}`).toBe(POINTERS);
    }
  });

  it('skip pointers the packets cannot keep up with: their next turn carries newer state (seeds 1-3)', () => {
    for (const seed of [1, 2, 3]) {
      // Room for about two pointer updates a packet: six pointers moving every packet wait their turns.
      const r = run(seed, 120);
      expect(r.updates, `seed ${seed}`).toBeGreaterThan(100);
      expect(r.repeats, `seed ${seed}`).toBe(0);
    }
  });
});
