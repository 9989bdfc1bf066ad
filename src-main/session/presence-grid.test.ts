// The presence grid against the plain walk it replaces: for seeded pointers that move, join and leave, every view
// (none, small, large, zoomed out past every pointer) gets exactly the pointers and priorities the walk gives.
import { describe, expect, it } from 'vitest';
import { GhostDomain } from '../net/ghost/ghost-source';
import type { GhostSource } from '../net/ghost/ghost-source';
import { Rng } from '../net/rng';
import { blankPresence, Presence, PRESENCE_REGISTRY } from './ghost-classes';
import type { PresenceState } from './ghost-classes';
import type { GridSlot } from './presence-grid';
import { PresenceGrid } from './presence-grid';
import { scopePresence } from './presence-scope';

type Source = GhostSource<PresenceState>;

/** What a pass added, by source, sorted by peer id (the grid visits in another order than the walk). */
function collect(run: (sink: { add(s: Source, p: number): void }) => void): string[] {
  const out: string[] = [];
  run({ add: (s, p) => out.push(`${s.obj.peer}:${p}`) });
  return out.sort();
}

describe('presence grid', () => {
  for (const seed of [1, 2, 3]) {
    it(`scopes exactly what the walk over every pointer scopes (seed ${seed})`, () => {
      const rng = new Rng(seed);
      const domain = new GhostDomain(PRESENCE_REGISTRY);
      const grid = new PresenceGrid();
      const all: Source[] = [];
      const slots = new Map<Source, GridSlot>();
      const place = (s: Source): void => {
        // Mostly near the origin, some far out, some past the grid's clamped span.
        const far = rng.int(10) === 0 ? 3_000_000 : rng.int(4) === 0 ? 200_000 : 6000;
        s.obj.x = Math.round(rng.range(-far, far));
        s.obj.y = Math.round(rng.range(-far, far));
      };
      for (let step = 0; step < 400; step++) {
        const r = rng.int(10);
        if (r === 0 || all.length < 5) {
          const s = domain.add(Presence, blankPresence(step + 1));
          place(s);
          all.push(s);
          slots.set(s, grid.add(s));
        } else if (r === 1) {
          const s = all.splice(rng.int(all.length), 1)[0] as Source;
          grid.remove(slots.get(s) as GridSlot);
        } else {
          const s = all[rng.int(all.length)] as Source;
          if (rng.bool()) place(s);
          else {
            s.obj.x += Math.round(rng.range(-600, 600));
            s.obj.y += Math.round(rng.range(-600, 600));
          }
          grid.moved(slots.get(s) as GridSlot);
        }
        expect(grid.size, `seed ${seed} step ${step}`).toBe(all.length);
        const mine = all[rng.int(all.length)] as Source;
        const w = rng.bool() ? 1600 : Math.round(rng.range(10, 400_000));
        const views = [
          undefined,
          {
            x: Math.round(rng.range(-8000, 8000)),
            y: Math.round(rng.range(-8000, 8000)),
            w,
            h: w / 1.6,
          },
        ];
        for (const view of views) {
          const walked = collect((sink) => {
            for (const s of all) scopePresence(sink, view, mine, s);
          });
          const gridded = collect((sink) => {
            grid.scope(sink, view, mine);
          });
          expect(gridded, `seed ${seed} step ${step}`).toEqual(walked);
        }
      }
    });
  }
});
