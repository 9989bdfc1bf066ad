// The mirrors bench's repair target: the p95 of every mirror's repairs pooled against the mirrors' own measured
// round trip + 10 ms, falling back to the links' nominal 2 x 60 + 10 when no mirror reported one; and the figures it
// reads from a `mirror-stats` line.
import { describe, expect, it } from 'vitest';
import type { RepairFigures, RunFigures } from '../../bench/mirrors/figures';
import { repairFigures } from '../../bench/mirrors/figures';
import { mirrorTargets } from '../../bench/mirrors/report';

const repair = (samples: number[], rtts: number[]): RepairFigures => ({
  mirror: 0,
  gaps: samples.length,
  repairsSent: samples.length,
  deliveredRepaired: samples.length,
  latencyMs: null,
  latenciesMs: samples,
  tssRollbacks: 0,
  rttsMs: rtts,
});

/** `n` samples: `n - slow` at 120 ms and `slow` at 180 (each mirror's own p95 of 20 would be 180 with one). */
const samples = (n: number, slow: number): number[] =>
  Array.from({ length: n }, (_, i) => (i < n - slow ? 120 : 180));

/** Only what mirrorTargets reads of a run: its repair figures (its latencies are absent: null targets). */
const run = (r: RepairFigures[]): RunFigures =>
  ({ repair: r, latencyMs: { pointer: {}, edit: {}, chat: {} } }) as unknown as RunFigures;

describe('the mirrors bench repair target', () => {
  it('takes the p95 of every mirror’s repairs pooled against the measured round trip + 10 ms', () => {
    // 60 repairs, 2 slow: the pooled p95 (rank 57) is a fast one, though one mirror alone has its slow one at p95.
    const t = mirrorTargets(
      undefined,
      undefined,
      run([repair(samples(20, 1), [122, 124]), repair(samples(40, 1), [124, 126])]),
    );
    expect(t.repairP95).toMatchObject({
      value: 120,
      samples: 60,
      measuredRttMs: 124,
      limit: 134,
      met: true,
      nominalLimit: 130,
    });
  });

  it('counts a slow tail past 5 % of the pooled repairs', () => {
    const t = mirrorTargets(undefined, undefined, run([repair(samples(40, 3), [124])]));
    expect(t.repairP95).toMatchObject({ value: 180, samples: 40, limit: 134, met: false });
  });

  it('falls back to the nominal round trip when no mirror reported one', () => {
    const t = mirrorTargets(undefined, undefined, run([repair([131], [])]));
    expect(t.repairP95).toMatchObject({ value: 131, measuredRttMs: null, limit: 130, met: false });
  });

  it('has no value, and is not met, when nothing was repaired', () => {
    const t = mirrorTargets(undefined, undefined, run([repair([], [124])]));
    expect(t.repairP95).toMatchObject({ value: null, samples: 0, met: false });
  });

  it('reads the round trips to the other mirrors from a mirror-stats line, its own entry left out', () => {
    const f = repairFigures({
      ev: 'mirror-stats',
      self: 2,
      node: {
        crimp: {
          gaps: 4,
          members: [
            { id: 1, rttMs: 121.5 },
            { id: 2, rttMs: null },
            { id: 3, rttMs: 123 },
          ],
        },
      },
    });
    expect(f.rttsMs).toEqual([121.5, 123]);
    expect(f.gaps).toBe(4);
    expect(f.latenciesMs).toEqual([]);
  });

  it('reads the repair samples, skipping anything that is not a number', () => {
    const f = repairFigures({
      ev: 'mirror-stats',
      self: 0,
      node: { crimp: { repairLatenciesMs: [121.4, 'x', null, 130.2] } },
    });
    expect(f.latenciesMs).toEqual([121.4, 130.2]);
  });
});
