import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import type { Impairment } from '../impairment';
import { NO_IMPAIRMENT } from '../impairment';
import type { Pointer, Shape } from '../testing/ghost-classes';
import { COORD_MAX, COORD_MIN, POINTER, SHAPE } from '../testing/ghost-classes';
import type { GhostPair } from '../testing/ghost-pair';
import { makeGhostPair } from '../testing/ghost-pair';
import type { GhostScope } from './ghost-sender';
import type { GhostSource } from './ghost-source';

const SEEDS = Number(process.env.GB_SIM_SEEDS ?? 500);
const LOSSY_MS = 4_000;
/** After the path heals, every ghost matches its source within this many ghost packets delivered. */
const HEAL_PACKET_BOUND = 20;

function randomConditions(rng: Rng): Impairment {
  return {
    loss: rng.next() * 0.3,
    delayMs: rng.range(0, 100),
    jitterMs: rng.range(0, 30),
    reorder: rng.next() * 0.1,
    duplicate: rng.next() * 0.1,
    bandwidthBps: rng.bool(0.2) ? rng.range(100_000, 1_000_000) : 0,
    maxQueueMs: 150,
  };
}

/** The host's board: shapes, a square viewport that scopes them, and random edits. */
class Board {
  readonly shapes = new Set<GhostSource<Shape>>();
  view = { x: 0, y: 0, half: 300_000 };
  private nextKey = 0;

  constructor(
    private readonly rng: Rng,
    private readonly pair: () => GhostPair,
  ) {}

  inView(s: Shape): boolean {
    return (
      Math.abs(s.x - this.view.x) <= this.view.half && Math.abs(s.y - this.view.y) <= this.view.half
    );
  }

  scope = (_now: number, scope: GhostScope): void => {
    for (const src of this.shapes) {
      const s = src.obj;
      if (!src.always && !this.inView(s)) continue;
      const d = Math.abs(s.x - this.view.x) + Math.abs(s.y - this.view.y);
      scope.add(src, 1 + 1_000_000 / (1 + d));
    }
  };

  add(): void {
    const r = this.rng;
    const shape: Shape = {
      key: this.nextKey++,
      x: r.range(-600_000, 600_000),
      y: r.range(-600_000, 600_000),
      w: r.range(0, 65_535),
      h: r.range(0, 65_535),
      color: r.range(0, 0xffffff),
      label: r.bool(0.5) ? `note ${r.range(0, 1e6)}` : '',
    };
    this.shapes.add(this.pair().host.domain.add(SHAPE, shape, { always: r.bool(0.1) }));
  }

  edit(): void {
    const r = this.rng;
    const all = [...this.shapes];
    if (r.bool(0.08) || all.length < 5) this.add();
    if (r.bool(0.05) && all.length > 0) {
      const victim = r.pick(all);
      victim.destroy();
      this.shapes.delete(victim);
    }
    for (let i = 0; i < 4 && all.length > 0; i++) {
      const src = r.pick(all);
      if (src.destroyed) continue;
      const s = src.obj;
      s.x = clamp(s.x + r.range(-50_000, 50_000));
      s.y = clamp(s.y + r.range(-50_000, 50_000));
      let mask = SHAPE.maskOf('position');
      if (r.bool(0.2)) {
        s.w = r.range(0, 65_535);
        mask |= SHAPE.maskOf('size');
      }
      if (r.bool(0.1)) {
        s.label = `edit ${r.range(0, 1e6)}`;
        s.color = r.range(0, 0xffffff);
        mask |= SHAPE.maskOf('style');
      }
      src.markDirty(mask);
    }
    if (r.bool(0.03)) {
      this.view = { ...this.view, x: r.range(-300_000, 300_000), y: r.range(-300_000, 300_000) };
      this.pair().host.ghosts.invalidateScope();
    }
  }

  /** Whether the client's ghosts are exactly the in-scope shapes, each equal to its source. */
  matches(ghosts: ReadonlyMap<number, Shape>): boolean {
    let expected = 0;
    for (const src of this.shapes) {
      if (!src.always && !this.inView(src.obj)) continue;
      expected++;
      const g = ghosts.get(src.obj.key);
      if (g === undefined || !sameShape(g, src.obj)) return false;
    }
    return expected === ghosts.size;
  }
}

function clamp(v: number): number {
  return Math.max(COORD_MIN, Math.min(COORD_MAX, v));
}

function sameShape(a: Shape, b: Shape): boolean {
  return (
    a.key === b.key &&
    a.x === b.x &&
    a.y === b.y &&
    a.w === b.w &&
    a.h === b.h &&
    a.color === b.color &&
    a.label === b.label
  );
}

function diagnose(board: Board, pair: GhostPair): string[] {
  const out: string[] = [];
  for (const src of board.shapes) {
    const inScope = src.always || board.inView(src.obj);
    const g = pair.client.shapes.get(src.obj.key);
    const rec = pair.host.ghosts.sender?.recordOf(src);
    if (inScope !== (g !== undefined) || (g && !sameShape(g, src.obj)))
      out.push(
        `key ${src.obj.key} inScope=${inScope} ghost=${JSON.stringify(g)} src=${JSON.stringify(src.obj)} rec=${rec?.state}/${rec?.mask}/${rec?.queuedTier}`,
      );
  }
  return out;
}

function runSeed(seed: number): { healPackets: number; pair: GhostPair } {
  const rng = new Rng(seed ^ 0x6405);
  const conditions = randomConditions(rng);
  const ref: { pair?: GhostPair } = {};
  const getPair = (): GhostPair => ref.pair as GhostPair;
  const board = new Board(rng, getPair);
  const pointer: Pointer = { x: 0, y: 0, tool: 0 };
  let editing = true;
  const pair = makeGhostPair({
    seed,
    conditions,
    tickMs: rng.range(10, 40),
    scopeIntervalMs: rng.range(0, 100),
    // Small budgets, but each above the largest create (about 260 bits): a bigger object could never be sent.
    budgetBits: rng.bool(0.5) ? rng.range(400, 2_000) : 9_000,
    hostScope: board.scope,
    onTick: () => {
      if (!editing) return;
      board.edit();
      pointer.x = clamp(pointer.x + rng.range(-5_000, 5_000));
      pointer.y = clamp(pointer.y + rng.range(-5_000, 5_000));
      pointerSrc.markDirty(POINTER.maskOf('position'));
    },
  });
  ref.pair = pair;
  const pointerSrc = pair.client.domain.add(POINTER, pointer, { always: true });
  for (let i = 0; i < rng.range(10, 60); i++) board.add();
  pair.sim.runUntil(LOSSY_MS);
  editing = false;
  pair.net.setDefaults(NO_IMPAIRMENT);
  const readAtHeal = pair.client.sectionsRead;
  const converged = (): boolean => {
    const hostPointer = [...pair.host.pointers];
    return (
      board.matches(pair.client.shapes) &&
      hostPointer.length === 1 &&
      hostPointer[0]?.x === pointer.x &&
      hostPointer[0].y === pointer.y
    );
  };
  const ok = pair.sim.runUntilTrue(converged, LOSSY_MS + 20_000);
  if (!ok)
    console.log(diagnose(board, pair), pair.host.closed, pair.client.closed, pointer, [
      ...pair.host.pointers,
    ]);
  expect(ok, `seed ${seed}: converged (${JSON.stringify(conditions)})`).toBe(true);
  return { healPackets: pair.client.sectionsRead - readAtHeal, pair };
}

describe('ghosts over a lossy simulated path', () => {
  it(`converge to the latest state once the path heals (${SEEDS} seeds)`, () => {
    let worst = 0;
    let restored = 0;
    let skipped = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const { healPackets, pair } = runSeed(seed);
      expect(pair.host.closed, `seed ${seed}`).toBeUndefined();
      expect(pair.client.closed, `seed ${seed}`).toBeUndefined();
      expect(healPackets, `seed ${seed}: ghost packets after heal`).toBeLessThanOrEqual(
        HEAL_PACKET_BOUND,
      );
      worst = Math.max(worst, healPackets);
      const st = pair.host.ghosts.stats().sent;
      restored += st?.restoredBits ?? 0;
      skipped += st?.staleBitsSkipped ?? 0;
    }
    // The seeds must exercise both halves of the TRIBES rule.
    expect(restored).toBeGreaterThan(SEEDS);
    expect(skipped).toBeGreaterThan(SEEDS);
    console.log(
      `worst packets to converge after heal: ${worst}; restored ${restored}, skipped ${skipped}`,
    );
  });

  // Seed 19: an object back in scope while its delete was in flight got a second ghost before the first was
  // gone. Seed 122: a group lost while a delete was in flight, then the delete lost, was never resent.
  it.each([19, 122])('regression: seed %i', (seed) => {
    const { pair } = runSeed(seed);
    expect(pair.host.closed).toBeUndefined();
  });
});
