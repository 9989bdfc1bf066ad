import { describe, expect, it, vi } from 'vitest';
import type { GhostSource } from './ghost-source';
import type { Shape } from '../testing/ghost-classes';
import { GhostLoop, SHAPE } from '../testing/ghost-classes';

const POS = SHAPE.maskOf('position');
const N = 100;
/** more + 7-bit id + update flag + 4-bit mask + 2 × 21-bit coordinates. */
const UPDATE_BITS = 1 + 7 + 1 + 4 + 42;
/** Header + end bit + room for exactly ten position updates. */
const TEN_UPDATES = 5 + 10 * UPDATE_BITS;

/** N live shapes, shape i scoped with priority i + 1. */
function board(): { loop: GhostLoop; shapes: GhostSource<Shape>[] } {
  const shapes: GhostSource<Shape>[] = [];
  const loop = new GhostLoop({
    scopeIntervalMs: 0,
    scope: (_now, scope) => {
      shapes.forEach((s, i) => {
        scope.add(s, i + 1);
      });
    },
  });
  for (let i = 0; i < N; i++) shapes.push(loop.addShape(i, true));
  while (loop.sender.demand(loop.now) !== 'none') loop.exchange(true, 100_000);
  expect(loop.shapes.size).toBe(N);
  loop.updates.length = 0;
  return { loop, shapes };
}

describe('ghost priority', () => {
  it('sends the highest-priority dirty ghosts first, ten per packet, and all of them soon', () => {
    const { loop, shapes } = board();
    for (const s of shapes) s.markDirty(POS);
    const sentIn: number[][] = [];
    for (let p = 0; p < 10; p++) {
      loop.exchange(true, TEN_UPDATES);
      sentIn.push(loop.updates.splice(0).map((u) => u.key));
    }
    expect(sentIn[0]?.sort((a, b) => a - b)).toEqual([90, 91, 92, 93, 94, 95, 96, 97, 98, 99]);
    expect(sentIn.every((keys) => keys.length === 10)).toBe(true);
    expect(new Set(sentIn.flat()).size).toBe(N); // every one, once, within ten packets
    expect(loop.sender.demand(loop.now)).toBe('none');
  });

  it('never starves a low-priority ghost while every ghost stays dirty', () => {
    const { loop, shapes } = board();
    const lastSent = new Array<number>(N).fill(0);
    const maxGap = new Array<number>(N).fill(0);
    const packets = 3000;
    for (let p = 1; p <= packets; p++) {
      for (const s of shapes) s.markDirty(POS);
      loop.exchange(true, TEN_UPDATES);
      for (const u of loop.updates.splice(0)) {
        maxGap[u.key] = Math.max(maxGap[u.key] ?? 0, p - (lastSent[u.key] ?? 0));
        lastSent[u.key] = p;
      }
    }
    // Fair queueing by priority (stride 1 / p) gives each ghost a share of the packets proportional to it:
    // ghost i waits about Σp / (10 · p_i) packets. Allow a 2 × margin on top of that share.
    const sumP = (N * (N + 1)) / 2;
    for (let i = 0; i < N; i++) {
      const share = sumP / (10 * (i + 1));
      expect(maxGap[i], `ghost ${i}`).toBeLessThanOrEqual(2 * share + 2);
      expect(lastSent[i], `ghost ${i}`).toBeGreaterThan(packets - 2 * share - 2);
    }
  });
});

describe('ghost priority changes', () => {
  it('sends a waiting ghost within two packets once its priority jumps, not after its old stride', () => {
    const shapes: GhostSource<Shape>[] = [];
    let boosted = -1;
    const loop = new GhostLoop({
      scopeIntervalMs: 0,
      scope: (_now, scope) => {
        shapes.forEach((s, i) => {
          scope.add(s, i === boosted ? 1000 : i + 1);
        });
      },
    });
    for (let i = 0; i < N; i++) shapes.push(loop.addShape(i, true));
    while (loop.sender.demand(loop.now) !== 'none') loop.exchange(true, 100_000);
    loop.updates.length = 0;
    // Everything dirty every packet: ghost 0 (priority 1) gets about one packet in Σp / 10 = 505.
    let sentAfterBoost = -1;
    for (let p = 1; p <= 60 && sentAfterBoost < 0; p++) {
      for (const s of shapes) s.markDirty(POS);
      if (p === 20) boosted = 0;
      loop.exchange(true, TEN_UPDATES);
      const keys = loop.updates.splice(0).map((u) => u.key);
      if (p >= 20 && keys.includes(0)) sentAfterBoost = p - 20;
    }
    expect(sentAfterBoost).toBeGreaterThanOrEqual(0);
    expect(sentAfterBoost).toBeLessThanOrEqual(1);
  });
});

describe('ghosts the packets cannot keep up with', () => {
  it('stay in line across their writes: changes skip them, their turn still sends the latest state, once', () => {
    const { loop, shapes } = board();
    const sender = loop.sender.sender;
    if (sender === undefined) throw new Error('no sender');
    // Everything dirty every packet: most ghosts are written only after waiting several packets. Go on until
    // the lowest (priority 1, one packet in about 500) has just been written.
    const low = shapes[0] as GhostSource<Shape>;
    let writtenAt = -1;
    for (let p = 0; p < 2000 && writtenAt < 0; p++) {
      for (const s of shapes) {
        s.obj.x++;
        s.markDirty(POS);
      }
      loop.exchange(true, TEN_UPDATES);
      if (p > 100 && loop.updates.some((u) => u.key === 0)) writtenAt = p;
      loop.updates.length = 0;
    }
    expect(writtenAt).toBeGreaterThan(100);
    // It was kept in line: its source no longer tells its record of changes.
    const rec = sender.recordOf(low);
    if (rec === undefined) throw new Error('no record');
    const told = vi.spyOn(rec, 'onDirty');
    low.obj.x++;
    low.markDirty(POS);
    expect(told).not.toHaveBeenCalled();
    expect(rec.mask & POS).toBe(POS); // read when looked at
    // Changes stop: every ghost's last state arrives, each ghost at most once more, then nothing is left.
    loop.updates.length = 0;
    for (let p = 0; p < 30 && sender.demand(loop.now) !== 'none'; p++)
      loop.exchange(true, TEN_UPDATES);
    expect(sender.demand(loop.now)).toBe('none');
    const perKey = new Map<number, number>();
    for (const u of loop.updates) perKey.set(u.key, (perKey.get(u.key) ?? 0) + 1);
    expect(Math.max(...perKey.values())).toBe(1);
    for (const s of shapes)
      expect(loop.shapes.get(s.obj.key)?.x, `shape ${s.obj.key}`).toBe(s.obj.x);
    // Idle now: the next change reaches the record again (and queues it).
    low.obj.x++;
    low.markDirty(POS);
    expect(told).toHaveBeenCalledTimes(1);
    loop.exchange(true, TEN_UPDATES);
    expect(loop.shapes.get(low.obj.key)?.x).toBe(low.obj.x);
  });
});
