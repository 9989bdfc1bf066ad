import { describe, expect, it } from 'vitest';
import type { Shape } from '../testing/ghost-classes';
import { blankShape, SHAPE } from '../testing/ghost-classes';
import { makeGhostPair } from '../testing/ghost-pair';
import type { GhostScope } from './ghost-sender';
import type { GhostSource } from './ghost-source';

const COLS = 40;
const ROWS = 25;
const SPACING = 10_000;

/** Keys of grid shapes inside [x0, x1] × [y0, y1]. */
function keysIn(v: { x0: number; x1: number; y0: number; y1: number }): number[] {
  const keys: number[] = [];
  for (let i = 0; i < COLS * ROWS; i++) {
    const x = (i % COLS) * SPACING;
    const y = Math.floor(i / COLS) * SPACING;
    if (x >= v.x0 && x <= v.x1 && y >= v.y0 && y <= v.y1) keys.push(i);
  }
  return keys;
}

describe('ghost scoping', () => {
  it('ghosts only the 50 of 1,000 objects in the viewport, following it as it moves', () => {
    const shapes: GhostSource<Shape>[] = [];
    let view = { x0: 0, x1: 9 * SPACING, y0: 0, y1: 4 * SPACING };
    const scope = (_now: number, s: GhostScope): void => {
      const cx = (view.x0 + view.x1) / 2;
      const cy = (view.y0 + view.y1) / 2;
      for (const src of shapes) {
        const { x, y } = src.obj;
        if (x < view.x0 || x > view.x1 || y < view.y0 || y > view.y1) continue;
        s.add(src, 1 + 100_000 / (1 + Math.abs(x - cx) + Math.abs(y - cy)));
      }
    };
    const pair = makeGhostPair({ seed: 1, hostScope: scope, scopeIntervalMs: 0 });
    for (let i = 0; i < COLS * ROWS; i++) {
      const x = (i % COLS) * SPACING;
      const y = Math.floor(i / COLS) * SPACING;
      shapes.push(pair.host.domain.add(SHAPE, { ...blankShape(), key: i, x, y }));
    }
    const far = pair.host.domain.add(
      SHAPE,
      { ...blankShape(), key: 5_000, x: -900_000 },
      { always: true },
    );
    pair.sim.runUntil(1_000);
    const first = keysIn(view);
    expect(first).toHaveLength(50);
    const onClient = (): number[] => [...pair.client.shapes.keys()].sort((a, b) => a - b);
    expect(onClient()).toEqual([...first, far.obj.key]);
    expect(pair.host.ghosts.stats().sent?.creates).toBe(51);

    view = { x0: 5 * SPACING, x1: 14 * SPACING, y0: 0, y1: 4 * SPACING };
    pair.host.ghosts.invalidateScope();
    pair.sim.runUntil(2_000);
    const second = keysIn(view);
    expect(onClient()).toEqual([...second, far.obj.key]);
    const st = pair.host.ghosts.stats().sent;
    expect(st?.creates).toBe(51 + 25);
    expect(st?.deletes).toBe(25);
    expect(pair.client.shapes.get(second[0] ?? -1)?.x).toBe(5 * SPACING);

    far.destroy();
    pair.sim.runUntil(3_000);
    expect(onClient()).toEqual(second);
  });
});
