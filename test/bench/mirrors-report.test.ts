// The mirrors bench's repair target: the worst mirror's p95 against the mirrors' own measured round trip + 10 ms,
// falling back to the links' nominal 2 x 60 + 10 when no mirror reported one; and the figures it reads from a
// `mirror-stats` line.
import { describe, expect, it } from 'vitest';
import type { RepairFigures, RunFigures } from '../../bench/mirrors/figures';
import { repairFigures } from '../../bench/mirrors/figures';
import { mirrorTargets } from '../../bench/mirrors/report';

const repair = (p95: number, rtts: number[]): RepairFigures => ({
  mirror: 0,
  gaps: 1,
  repairsSent: 1,
  deliveredRepaired: 1,
  latencyMs: { n: 3, p50: p95 - 5, p95, p99: p95, max: p95 },
  tssRollbacks: 0,
  rttsMs: rtts,
});

/** Only what mirrorTargets reads of a run: its repair figures (its latencies are absent: null targets). */
const run = (r: RepairFigures[]): RunFigures =>
  ({ repair: r, latencyMs: { pointer: {}, edit: {}, chat: {} } }) as unknown as RunFigures;

describe('the mirrors bench repair target', () => {
  it('takes the worst mirror’s p95 against the measured round trip + 10 ms', () => {
    const t = mirrorTargets(
      undefined,
      undefined,
      run([repair(121, [122, 124]), repair(134, [124, 126])]),
    );
    expect(t.repairP95).toMatchObject({
      value: 134,
      measuredRttMs: 124,
      limit: 134,
      met: true,
      nominalLimit: 130,
    });
  });

  it('falls back to the nominal round trip when no mirror reported one', () => {
    const t = mirrorTargets(undefined, undefined, run([repair(131, [])]));
    expect(t.repairP95).toMatchObject({ value: 131, measuredRttMs: null, limit: 130, met: false });
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
  });
});
