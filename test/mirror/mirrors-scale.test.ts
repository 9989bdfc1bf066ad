// The mirrors-scale bench's runner at a small size (4 mirrors x 8 users, 2 simulated seconds): everyone joins and
// is in every roster (every user's too, before the window opens), each user sees its cluster's pointers and none from elsewhere (views scope pointers), and
// the figures the integrator's bench reads are there. No timing thresholds: the times are this machine's.
import { describe, expect, it } from 'vitest';
import { runMirrorsScale } from '../../bench/mirrors-scale';

const SEED = 3;

describe('the mirrors-scale runner', () => {
  it('runs 4 mirrors x 8 users and reports its figures', () => {
    const f = runMirrorsScale({
      mirrors: 4,
      usersPerMirror: 8,
      seconds: 2,
      warmupMs: 1000,
      seed: SEED,
    });
    const msg = `seed ${SEED}`;
    expect(f.joined, msg).toBe(32);
    expect(f.rostersComplete, msg).toBe(true);
    // The window opens once every user knows everyone: a number, not null (the drain's bound passed).
    expect(f.userRosterDrainMs, msg).not.toBeNull();
    expect(f.mirrorCpuMsPerSecond.each, msg).toHaveLength(4);
    // One figure per simulated second of the window, the busiest mirror's summing to its wall time over it.
    const seconds = f.simWallMsEachSecond.length;
    expect(f.busiestMirrorWallMsEachSecond, msg).toHaveLength(seconds);
    const busiest = f.mirrorCpuMsPerSecond.each.indexOf(f.mirrorCpuMsPerSecond.max);
    const sum = f.busiestMirrorWallMsEachSecond.reduce((a, b) => a + b, 0);
    expect(sum / seconds, msg).toBeCloseTo(f.mirrorWallMsPerSecond[busiest] ?? NaN, 0);
    expect(f.inViewPointerHz.mean, msg).toBeGreaterThan(0);
    expect(f.outOfViewPointerHz.max, msg).toBe(0);
    expect(f.userDownKbps.max, msg).toBeGreaterThan(0);
    // 8 peers a host: the usual rates both ways (host-packet-rates.ts shares them from 60 peers on).
    expect(f.userDownPps.p50, msg).toBeGreaterThan(20);
    expect(f.userUpPps.p50, msg).toBeGreaterThan(20);
    expect(f.targets.mirrorCpu.limit).toBe(1000);
    expect(f.targets.userDownKbps.limit).toBe(64);
    expect(f.targets.mirrorCpu.value).toBe(f.mirrorCpuMsPerSecond.max);
    expect(typeof f.targets.userDownKbps.met).toBe('boolean');
  });
});
