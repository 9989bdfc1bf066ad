// Selecting many objects, in Chromium with two users on two web hosts: A draws three rectangles, selects two
// with a marquee and all three with Ctrl+A (no page text selected), drags the selection (B sees all three move
// while A's button is down, and land), nudges it with the arrow keys and deletes it; B sees each step.
import type { Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import type { Pt } from './harness/board-reading';
import { num, worldOf } from './harness/board-reading';
import { hostAndJoin } from './harness/scenario';
import type { RunningHost } from './harness/web-host';
import { selectedIds, withTwoUsers } from './harness/two-users';

const hosts: RunningHost[] = [];

test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

/** Waits until every object sits at its expected world position on this page (within `slack` units). */
async function expectPlaced(
  page: Page,
  want: ReadonlyMap<string, Pt>,
  what: string,
  slack = 0,
): Promise<void> {
  await expect
    .poll(
      async () => {
        const got = await Promise.all([...want.keys()].map((id) => worldOf(page, id)));
        const off = [...want.values()].map((w, i) => {
          const g = got[i] ?? { x: NaN, y: NaN };
          return Math.abs(g.x - w.x) <= slack && Math.abs(g.y - w.y) <= slack ? 'ok' : g;
        });
        return off;
      },
      { message: what },
    )
    .toEqual([...want.keys()].map(() => 'ok'));
}

const shifted = (m: ReadonlyMap<string, Pt>, dx: number, dy: number): Map<string, Pt> =>
  new Map([...m].map(([id, p]) => [id, { x: p.x + dx, y: p.y + dy }]));

test('marquee, Ctrl+A, group move, nudge and delete, seen by the other user', async ({
  browser,
}, info) => {
  await withTwoUsers(browser, hosts, async ({ a, b }) => {
    await hostAndJoin({ a, b }, info);
    const box = await a.getByTestId('board-stage').boundingBox();
    if (box === null) throw new Error('board-stage has no box');
    const at = (x: number, y: number): Pt => ({ x: box.x + x, y: box.y + y });
    const objects = a.locator('[data-testid^="object-"]');

    const ids: string[] = [];
    await test.step('A draws three rectangles in a row', async () => {
      for (const [i, left] of [100, 260, 420].entries()) {
        await a.getByTestId('tool-rect').click();
        const from = at(left, 120);
        await a.mouse.move(from.x, from.y);
        await a.mouse.down();
        await a.mouse.move(from.x + 80, from.y + 60, { steps: 5 });
        await a.mouse.up();
        await expect(objects).toHaveCount(i + 1);
      }
      // Left to right: the rectangles' ids in the order drawn.
      const all: { id: string; x: number }[] = [];
      for (const loc of await objects.all()) {
        const id = ((await loc.getAttribute('data-testid')) ?? '').replace('object-', '');
        all.push({ id, x: await num(loc, 'data-x') });
      }
      ids.push(...all.sort((p, q) => p.x - q.x).map((o) => o.id));
      await expect(b.locator('[data-testid^="object-"]')).toHaveCount(3);
    });
    const [first, second, third] = ids;
    if (first === undefined || second === undefined || third === undefined)
      throw new Error('three rectangles expected');

    await test.step('a marquee around the first two selects them, in one box', async () => {
      await a.getByTestId('tool-select').click();
      const from = at(80, 100);
      const to = at(360, 200);
      await a.mouse.move(from.x, from.y);
      await a.mouse.down();
      await a.mouse.move(to.x, to.y, { steps: 8 });
      await a.mouse.up();
      await expect.poll(() => selectedIds(a)).toEqual([first, second].sort());
      const sel = a.getByTestId('selection');
      const p1 = await worldOf(a, first);
      const p2 = await worldOf(a, second);
      // One box from the first's left edge to the second's right (80 px wide each, stroke 2).
      expect(Math.abs((await num(sel, 'data-x')) - p1.x)).toBeLessThanOrEqual(2);
      const right = (await num(sel, 'data-x')) + (await num(sel, 'data-w'));
      expect(right).toBeGreaterThan(p2.x + 60);
      await a.screenshot({ path: info.outputPath('1-marquee.png') });
      await a.keyboard.press('Escape');
      await expect.poll(() => selectedIds(a)).toEqual([]);
    });

    await test.step('Ctrl+A selects every object and none of the page text', async () => {
      await a.keyboard.press('Control+a');
      await expect.poll(() => selectedIds(a)).toEqual([...ids].sort());
      expect(String(await a.evaluate('window.getSelection()?.toString() ?? ""'))).toBe('');
      await a.screenshot({ path: info.outputPath('2-select-all.png') });
    });

    const before = new Map<string, Pt>();
    for (const id of ids) before.set(id, await worldOf(a, id));
    let moved = before;
    await test.step('dragging one drags all three: B sees them move live, and land', async () => {
      const p = await worldOf(a, first);
      // The first rectangle's middle, on screen (the camera may not be at 100%).
      const grip = at(140, 150);
      await a.mouse.move(grip.x, grip.y);
      await a.mouse.down();
      await a.mouse.move(grip.x + 40, grip.y + 30, { steps: 6 });
      const mid = await worldOf(a, first);
      expect(mid.x).toBeGreaterThan(p.x);
      const dx = mid.x - p.x;
      const dy = mid.y - p.y;
      // Button still down; within a couple of units of B's smoothing.
      await expectPlaced(b, shifted(before, dx, dy), 'B sees all three where A holds them', 2);
      await b.screenshot({ path: info.outputPath('3-b-mid-drag.png') });
      await a.mouse.move(grip.x + 80, grip.y + 60, { steps: 6 });
      await a.mouse.up();
      const end = await worldOf(a, first);
      moved = shifted(before, end.x - p.x, end.y - p.y);
      await expectPlaced(a, moved, 'A drops all three by the same offset');
      await expectPlaced(b, moved, 'B sees all three land');
      await expect.poll(() => selectedIds(a)).toEqual([...ids].sort());
    });

    await test.step('arrow keys nudge the selection: 1, and 10 with Shift', async () => {
      await a.keyboard.press('ArrowRight');
      await expectPlaced(b, shifted(moved, 1, 0), 'B sees a 1-unit nudge right');
      await a.keyboard.press('Shift+ArrowDown');
      await expectPlaced(b, shifted(moved, 1, 10), 'B sees a 10-unit nudge down');
      await expectPlaced(a, shifted(moved, 1, 10), 'A shows the nudges');
    });

    await test.step('Delete removes the whole selection for both', async () => {
      await a.keyboard.press('Delete');
      await expect(objects).toHaveCount(0);
      await expect(b.locator('[data-testid^="object-"]')).toHaveCount(0);
    });
  });
});
