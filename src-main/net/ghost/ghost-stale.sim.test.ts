import { describe, expect, it } from 'vitest';
import type { Impairment } from '../impairment';
import { NO_IMPAIRMENT } from '../impairment';
import type { Pointer } from '../testing/ghost-classes';
import { POINTER } from '../testing/ghost-classes';
import type { GhostSource } from './ghost-source';
import { makeGhostPair } from '../testing/ghost-pair';

const RUN_MS = 20_000;
const POSITION = POINTER.maskOf('position');

/** A pointer moving every 20 ms tick for RUN_MS; returns the pointer's ghost bits and the TRIBES counters. */
function run(
  seed: number,
  conditions: Impairment,
): { bits: number; restored: number; skipped: number } {
  const pointer: Pointer = { x: 0, y: 0, tool: 0 };
  const ref: { src?: GhostSource<Pointer> } = {};
  const pair = makeGhostPair({
    seed,
    conditions,
    tickMs: 20,
    onTick: (now) => {
      pointer.x = Math.round(Math.sin(now / 700) * 400_000);
      pointer.y = Math.round(Math.cos(now / 900) * 300_000);
      ref.src?.markDirty(POSITION);
    },
  });
  ref.src = pair.host.domain.add(POINTER, pointer, { always: true });
  pair.sim.runUntil(RUN_MS);
  expect(pair.host.closed, `seed ${seed}`).toBeUndefined();
  const st = pair.host.ghosts.stats().sent;
  return {
    bits: st?.bitsByClass.pointer ?? 0,
    restored: st?.restoredBits ?? 0,
    skipped: st?.staleBitsSkipped ?? 0,
  };
}

describe('most recent state', () => {
  it('never resends stale positions: 20 % loss costs the same ghost bits as no loss', () => {
    for (const seed of [1, 2, 3]) {
      const base = { ...NO_IMPAIRMENT, delayMs: 40, jitterMs: 5 };
      const clean = run(seed, base);
      const lossy = run(seed, { ...base, loss: 0.2 });
      const ratio = lossy.bits / clean.bits;
      console.log(
        `seed ${seed}: clean ${((clean.bits / RUN_MS) * 1000).toFixed(0)} bit/s, ` +
          `20% loss ${((lossy.bits / RUN_MS) * 1000).toFixed(0)} bit/s (ratio ${ratio.toFixed(4)}), ` +
          `restored ${lossy.restored} bits, stale skipped ${lossy.skipped}`,
      );
      expect(Math.abs(ratio - 1), `seed ${seed}`).toBeLessThan(0.05);
      expect(lossy.skipped, `seed ${seed}`).toBeGreaterThan(100);
    }
  });
});
