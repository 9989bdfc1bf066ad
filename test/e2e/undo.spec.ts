// Per-user undo and redo, in Chromium with two users on two web hosts: A draws a rectangle and moves it; Ctrl+Z
// takes back the move, then the drawing, on both screens; Ctrl+Shift+Z and the redo button bring it back, moved.
// B draws a rectangle of its own, which A's Ctrl+Z leaves alone. Then B deletes A's rectangle and A presses undo:
// A's rectangle stays deleted on both screens (an undo never resurrects what another user deleted). Last, A draws a
// rectangle over its last one and brings the one under to the front with `]`: Ctrl+Z sends it back under on both
// screens (read from the position mirror's data-z), Ctrl+Shift+Z brings it up again.
import type { Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import type { Pt } from './harness/board-reading';
import { board, num, objectsOf, stageAt } from './harness/board-reading';
import { hostAndJoin } from './harness/scenario';
import type { RunningHost } from './harness/web-host';
import { selectedIds, withTwoUsers } from './harness/two-users';

const hosts: RunningHost[] = [];

test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

/** The objects' ids on this page, bottom to top (the position mirror's data-z). */
const READ_STACK = `[...document.querySelectorAll('[data-testid^="object-"]')].map((el) => [
  el.getAttribute('data-testid'),
  el.getAttribute('data-z'),
])`;

async function stacking(page: Page): Promise<string[]> {
  const rows = await page.evaluate<[string | null, string | null][]>(READ_STACK);
  return rows
    .map(([id, z]) => ({ id: (id ?? '').replace('object-', ''), z: Number(z) }))
    .sort((p, q) => p.z - q.z)
    .map((o) => o.id);
}

async function expectStackBoth(a: Page, b: Page, want: string[], what: string): Promise<void> {
  await expect.poll(() => stacking(a), { message: `${what} (A)` }).toEqual(want);
  await expect.poll(() => stacking(b), { message: `${what} (B)` }).toEqual(want);
}

/** Waits until this page shows exactly these objects at these world positions. */
async function expectBoard(page: Page, want: Record<string, Pt>, what: string): Promise<void> {
  await expect.poll(() => board(page), { message: what }).toEqual(want);
}

async function expectBoth(a: Page, b: Page, want: Record<string, Pt>, what: string): Promise<void> {
  await expectBoard(a, want, `${what} (A)`);
  await expectBoard(b, want, `${what} (B)`);
}

/** Where the pointer is, in world units (this page's own pointer mirror), once it shows there. */
async function pointerWorld(page: Page, screen: Pt): Promise<Pt> {
  await page.mouse.move(screen.x, screen.y);
  const loc = page.getByTestId('local-pointer');
  await expect(loc).toHaveCount(1);
  return { x: await num(loc, 'data-x'), y: await num(loc, 'data-y') };
}

/** This page's screen point for a world point, from two pointer readings (the cameras need not agree). */
async function worldToScreen(page: Page, world: Pt): Promise<Pt> {
  const at = await stageAt(page);
  const s1 = at(100, 100);
  const s2 = at(500, 400);
  const w1 = await pointerWorld(page, s1);
  const w2 = await pointerWorld(page, s2);
  const kx = (s2.x - s1.x) / (w2.x - w1.x);
  const ky = (s2.y - s1.y) / (w2.y - w1.y);
  return { x: s1.x + (world.x - w1.x) * kx, y: s1.y + (world.y - w1.y) * ky };
}

async function drawRect(page: Page, from: Pt, to: Pt): Promise<void> {
  await page.getByTestId('tool-rect').click();
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 6 });
  await page.mouse.up();
}

test('per-user undo and redo, seen by both users; an undo never resurrects what another deleted', async ({
  browser,
}, info) => {
  await withTwoUsers(browser, hosts, async ({ a, b }) => {
    await hostAndJoin({ a, b }, info);
    const atA = await stageAt(a);

    let rectA = '';
    let drawn: Pt = { x: NaN, y: NaN };
    let moved: Pt = { x: NaN, y: NaN };
    await test.step('A draws a rectangle and moves it; B sees both', async () => {
      // Nothing done yet: nothing to undo or redo, and the buttons say so.
      await expect(a.getByTestId('undo')).toBeDisabled();
      await expect(a.getByTestId('redo')).toBeDisabled();
      await drawRect(a, atA(300, 200), atA(420, 290));
      await expect(objectsOf(a)).toHaveCount(1);
      await expect(a.getByTestId('undo')).toBeEnabled();
      await expect(a.getByTestId('redo')).toBeDisabled();
      const first = await board(a);
      rectA = Object.keys(first)[0] ?? '';
      drawn = first[rectA] ?? drawn;
      await expectBoard(b, { [rectA]: drawn }, 'B sees the new rectangle');

      await a.getByTestId('tool-select').click();
      const grip = atA(360, 245);
      await a.mouse.move(grip.x, grip.y);
      await a.mouse.down();
      await a.mouse.move(grip.x + 120, grip.y + 80, { steps: 8 });
      await a.mouse.up();
      await expect
        .poll(async () => (await board(a))[rectA]?.x ?? NaN, { message: 'A moved it right' })
        .toBeGreaterThan(drawn.x + 50);
      moved = (await board(a))[rectA] ?? moved;
      expect(moved.y).toBeGreaterThan(drawn.y + 30);
      await expectBoth(a, b, { [rectA]: moved }, 'the moved rectangle');
      await a.screenshot({ path: info.outputPath('1-moved-a.png') });
    });

    await test.step("A's Ctrl+Z undoes the move, then the drawing, on both screens", async () => {
      await a.keyboard.press('Control+z');
      await expectBoth(a, b, { [rectA]: drawn }, 'the move undone');
      await a.keyboard.press('Control+z');
      await expectBoth(a, b, {}, 'the drawing undone');
      await b.screenshot({ path: info.outputPath('2-undone-b.png') });
    });

    await test.step('Ctrl+Shift+Z and the redo button bring it back, then move it again', async () => {
      await a.keyboard.press('Control+Shift+z');
      await expect(objectsOf(a)).toHaveCount(1);
      // The redone rectangle may come back under a new id: read it again.
      rectA = Object.keys(await board(a))[0] ?? '';
      await expectBoth(a, b, { [rectA]: drawn }, 'the drawing redone');
      await a.getByTestId('redo').click();
      await expectBoth(a, b, { [rectA]: moved }, 'the move redone');
      await b.screenshot({ path: info.outputPath('3-redone-b.png') });
    });

    let rectB = '';
    let placedB: Pt = { x: NaN, y: NaN };
    let lastA = '';
    await test.step("B draws its own rectangle; A's Ctrl+Z leaves it alone", async () => {
      const atB = await stageAt(b);
      await drawRect(b, atB(80, 80), atB(180, 150));
      await expect(objectsOf(b)).toHaveCount(2);
      const both = await board(b);
      rectB = Object.keys(both).find((id) => id !== rectA) ?? '';
      placedB = both[rectB] ?? placedB;
      await expectBoth(a, b, { [rectA]: moved, [rectB]: placedB }, "B's rectangle on both");

      // A's newest own step is the (redone) move: that is what goes, B's rectangle stays.
      await a.keyboard.press('Control+z');
      await expectBoth(
        a,
        b,
        { [rectA]: drawn, [rectB]: placedB },
        "A's undo takes back A's move only",
      );
      await a.screenshot({ path: info.outputPath('4-a-undo-b-untouched-a.png') });
    });

    await test.step("B deletes A's rectangle; A's undo does not bring it back", async () => {
      // B's camera need not match A's: find A's rectangle on B's screen from B's pointer mirror.
      const grip = await worldToScreen(b, { x: drawn.x + 20, y: drawn.y + 20 });
      await b.getByTestId('tool-select').click();
      await b.mouse.click(grip.x, grip.y);
      await expect
        .poll(() => selectedIds(b), { message: "B selected A's rectangle" })
        .toEqual([rectA]);
      await b.keyboard.press('Delete');
      await expectBoth(a, b, { [rectB]: placedB }, "A's rectangle deleted by B");

      // A's next own step back is the drawing of that rectangle: it must not come back, nor anything else move.
      await a.keyboard.press('Control+z');
      // The core has answered: A's own history holds nothing more to take back, and the button says so.
      await expect(
        a
          .getByRole('status')
          .filter({ hasText: /nothing to undo/i })
          .first(),
      ).toBeVisible();
      await expect(a.getByTestId('undo')).toBeDisabled();
      await expectBoth(a, b, { [rectB]: placedB }, "A's undo does not resurrect it");
      // Any redo A still has (the move) must not resurrect it either.
      await a.keyboard.press('Control+Shift+z');
      // A barrier: A draws one more rectangle; once B has it, B has everything A sent before it.
      const atA2 = await stageAt(a);
      await drawRect(a, atA2(620, 100), atA2(700, 160));
      await expect(objectsOf(a)).toHaveCount(2);
      const last = Object.keys(await board(a)).find((id) => id !== rectB) ?? '';
      expect(last).not.toBe(rectA);
      const lastAt = (await board(a))[last] ?? { x: NaN, y: NaN };
      await expectBoth(a, b, { [rectB]: placedB, [last]: lastAt }, "A's rectangle stays deleted");
      await a.screenshot({ path: info.outputPath('5-not-resurrected-a.png') });
      await b.screenshot({ path: info.outputPath('5-not-resurrected-b.png') });
      lastA = last;
    });

    await test.step('A brings a rectangle to the front with ]; Ctrl+Z sends it back under, on both', async () => {
      // A draws one more rectangle over the corner of its last one: the last one is now under it.
      const atA = await stageAt(a);
      await drawRect(a, atA(660, 130), atA(780, 220));
      await expect(objectsOf(a)).toHaveCount(3);
      const over = Object.keys(await board(a)).find((id) => id !== rectB && id !== lastA) ?? '';
      await expectStackBoth(a, b, [rectB, lastA, over], 'the newest rectangle on top');
      const shown = await board(a);
      await a.getByTestId('tool-select').click();
      // The top-left corner of the last one, which the newest does not cover.
      const grip = atA(630, 110);
      await a.mouse.click(grip.x, grip.y);
      await expect
        .poll(() => selectedIds(a), { message: 'A selected its last rectangle' })
        .toEqual([lastA]);
      await a.keyboard.press(']');
      await expectStackBoth(a, b, [rectB, over, lastA], 'brought to the front');
      await a.screenshot({ path: info.outputPath('6-restacked-a.png') });
      await a.keyboard.press('Control+z');
      await expectStackBoth(a, b, [rectB, lastA, over], 'the restack undone: back under');
      await b.screenshot({ path: info.outputPath('7-restack-undone-b.png') });
      await a.keyboard.press('Control+Shift+z');
      await expectStackBoth(a, b, [rectB, over, lastA], 'the restack redone');
      // Nothing moved on either screen.
      await expectBoth(a, b, shown, 'positions untouched');
    });
  });
});
