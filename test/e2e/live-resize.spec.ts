// Live resize and rotate (issue 19, point 4), in Chromium with two users on two web hosts: A draws a rectangle,
// selects it and drags its bottom-right handle; before A lets go, B's canvas shows the rectangle at its new size
// (the live ghost, read from B's position mirror); after the release both show it. Then A drags the rotation
// handle: before A lets go B shows it turned, and after the release both show the same rotation. A's Ctrl+Z then
// takes the whole rotate back in one step, on both screens. Last, a selection of two is resized: B sees both
// grow before A lets go, both land, and one Ctrl+Z takes both back.
import type { Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { stageAt } from './harness/board-reading';
import { hostAndJoin } from './harness/scenario';
import type { RunningHost } from './harness/web-host';
import { selectedIds, withTwoUsers } from './harness/two-users';

const hosts: RunningHost[] = [];

test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

interface Shape {
  readonly w: number;
  readonly h: number;
  readonly rotation: number;
}

/** The object's size and rotation as this page's canvas shows it now (its position mirror). */
async function shapeOf(page: Page, id: string): Promise<Shape> {
  const loc = page.getByTestId(`object-${id}`);
  const [w, h, rotation] = await Promise.all(
    ['data-w', 'data-h', 'data-rotation'].map(async (a) => Number(await loc.getAttribute(a))),
  );
  return { w: w ?? NaN, h: h ?? NaN, rotation: rotation ?? NaN };
}

test('a resize and a rotate are seen live by the other user, and land for both', async ({
  browser,
}, info) => {
  await withTwoUsers(browser, hosts, async ({ a, b }) => {
    await hostAndJoin({ a, b }, info);
    const atA = await stageAt(a);

    let id = '';
    let drawn: Shape = { w: NaN, h: NaN, rotation: NaN };
    await test.step('A draws a rectangle and selects it; B sees it', async () => {
      await a.getByTestId('tool-rect').click();
      const from = atA(300, 200);
      const to = atA(420, 290);
      await a.mouse.move(from.x, from.y);
      await a.mouse.down();
      await a.mouse.move(to.x, to.y, { steps: 6 });
      await a.mouse.up();
      const objects = a.locator('[data-testid^="object-"]');
      await expect(objects).toHaveCount(1);
      id = ((await objects.first().getAttribute('data-testid')) ?? '').replace('object-', '');
      drawn = await shapeOf(a, id);
      expect(drawn.rotation).toBe(0);
      await expect.poll(() => shapeOf(b, id), { message: 'B sees the rectangle' }).toEqual(drawn);
      const inside = atA(360, 245);
      await a.mouse.click(inside.x, inside.y);
      await expect.poll(() => selectedIds(a)).toEqual([id]);
    });

    let resized: Shape = { w: NaN, h: NaN, rotation: NaN };
    await test.step("A drags the bottom-right handle: B sees the new size before A's button is up", async () => {
      const corner = atA(420, 290);
      await a.mouse.move(corner.x, corner.y);
      await a.mouse.down();
      await a.mouse.move(corner.x + 80, corner.y + 60, { steps: 10 });
      // Still held: what B shows is the live ghost.
      await expect
        .poll(async () => (await shapeOf(b, id)).w, { message: 'B sees it wider, live' })
        .toBeGreaterThan(drawn.w + 60);
      const live = await shapeOf(b, id);
      expect(live.h).toBeGreaterThan(drawn.h + 40);
      await b.screenshot({ path: info.outputPath('1-resize-live-b.png') });
      await a.mouse.up();
      await expect
        .poll(async () => (await shapeOf(a, id)).w, { message: 'A shows it resized' })
        .toBeGreaterThan(drawn.w + 60);
      resized = await shapeOf(a, id);
      await expect
        .poll(() => shapeOf(b, id), { message: 'B shows the released size' })
        .toEqual(resized);
      expect(resized.h).toBeGreaterThan(drawn.h + 40);
    });

    let rotated: Shape = { w: NaN, h: NaN, rotation: NaN };
    await test.step("A drags the rotation handle: B sees it turn before A's button is up", async () => {
      // The rectangle now spans (300, 200)-(500, 350) on A's stage; the rotater sits 50 px above its top middle.
      const rotater = atA(400, 150);
      await a.mouse.move(rotater.x, rotater.y);
      await a.mouse.down();
      const centre = atA(400, 275);
      await a.mouse.move(centre.x + 200, centre.y - 40, { steps: 10 });
      await expect
        .poll(async () => (await shapeOf(b, id)).rotation, { message: 'B sees it turned, live' })
        .toBeGreaterThan(300);
      await b.screenshot({ path: info.outputPath('2-rotate-live-b.png') });
      await a.mouse.up();
      await expect
        .poll(async () => (await shapeOf(a, id)).rotation, { message: 'A shows it turned' })
        .toBeGreaterThan(300);
      rotated = await shapeOf(a, id);
      expect(rotated.rotation).toBeLessThan(1800);
      await expect
        .poll(() => shapeOf(b, id), { message: 'B shows the released rotation' })
        .toEqual(rotated);
      await a.screenshot({ path: info.outputPath('3-rotated-a.png') });
    });

    await test.step("A's Ctrl+Z takes the whole rotate back in one step, on both screens", async () => {
      await a.keyboard.press('Control+z');
      for (const page of [a, b])
        await expect
          .poll(() => shapeOf(page, id), { message: 'the rotate undone' })
          .toEqual(resized);
    });

    await test.step('A resizes a selection of two: B sees both grow live, and both land', async () => {
      await a.getByTestId('tool-rect').click();
      const from = atA(600, 200);
      const to = atA(700, 280);
      await a.mouse.move(from.x, from.y);
      await a.mouse.down();
      await a.mouse.move(to.x, to.y, { steps: 6 });
      await a.mouse.up();
      const objects = a.locator('[data-testid^="object-"]');
      await expect(objects).toHaveCount(2);
      const testIds = await Promise.all(
        [0, 1].map(async (i) => (await objects.nth(i).getAttribute('data-testid')) ?? ''),
      );
      const second = testIds.map((t) => t.replace('object-', '')).find((t) => t !== id) ?? '';
      const secondDrawn = await shapeOf(a, second);
      await expect.poll(() => shapeOf(b, second)).toEqual(secondDrawn);
      await a.keyboard.press('Control+a');
      await expect.poll(() => selectedIds(a)).toEqual([id, second].sort());
      // The selection's box spans (300, 200)-(700, 350) on A's stage: pull its bottom-right handle out.
      const corner = atA(700, 350);
      await a.mouse.move(corner.x, corner.y);
      await a.mouse.down();
      await a.mouse.move(corner.x + 100, corner.y + 75, { steps: 10 });
      await expect
        .poll(
          async () => [
            (await shapeOf(b, id)).w > resized.w + 30,
            (await shapeOf(b, second)).w > secondDrawn.w + 15,
          ],
          { message: 'B sees both wider, live' },
        )
        .toEqual([true, true]);
      await b.screenshot({ path: info.outputPath('4-group-resize-live-b.png') });
      await a.mouse.up();
      await expect
        .poll(async () => (await shapeOf(a, second)).w, { message: 'A shows the second resized' })
        .toBeGreaterThan(secondDrawn.w + 15);
      const landed = [await shapeOf(a, id), await shapeOf(a, second)];
      await expect
        .poll(async () => [await shapeOf(b, id), await shapeOf(b, second)], {
          message: 'B shows both as released',
        })
        .toEqual(landed);
      // One step: one Ctrl+Z takes both back.
      await a.keyboard.press('Control+z');
      for (const page of [a, b])
        await expect
          .poll(async () => [await shapeOf(page, id), await shapeOf(page, second)], {
            message: 'the group resize undone',
          })
          .toEqual([resized, secondDrawn]);
    });
  });
});
