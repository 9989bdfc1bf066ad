// Text co-editing (textot) in Chromium with two users on two web hosts: A (the host) places a note and types
// into it; B (joined, its own traffic delayed so the two really type at once) opens the same note; both type
// their own sentence into it at the same time. Each editor keeps every key of both, each sentence whole, the
// carets where their users type; and once both close it, both boards show the same text.
import type { Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { delayLink } from './harness/conditions';
import { hostAndJoin } from './harness/scenario';
import type { RunningHost } from './harness/web-host';
import { withTwoUsers } from './harness/two-users';

const hosts: RunningHost[] = [];

test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

/** B's added one-way delay on everything it sends, ms. */
const DELAY_MS = 150;
const START = 'Plan: ';
const A_TYPES = 'alpha beta gamma delta epsilon';
const B_TYPES = 'one two three four five six';

const noteBox = (page: Page) =>
  page.getByRole('textbox', { name: 'Sticky note text', exact: true });

/** The texts of the board's notes on this page (the position mirror's data-text). */
async function noteTexts(page: Page): Promise<string[]> {
  const els = await page.locator('[data-testid^="object-"][data-text]').all();
  return Promise.all(els.map(async (el) => (await el.getAttribute('data-text')) ?? ''));
}

/** A point of the board's stage, in page pixels. */
async function stagePoint(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const box = await page.getByTestId('board-stage').boundingBox();
  if (box === null) throw new Error('board-stage has no box');
  return { x: box.x + x, y: box.y + y };
}

test('two users typing into one note at once both keep every key', async ({ browser }, info) => {
  await withTwoUsers(browser, hosts, async ({ a, b }) => {
    await hostAndJoin({ a, b }, info);
    await test.step(`B's own traffic is delayed ${DELAY_MS} ms`, () => delayLink(b, DELAY_MS));

    await test.step('A places a note and types its start; B sees it', async () => {
      const at = await stagePoint(a, 200, 160);
      await a.keyboard.press('n');
      await a.mouse.click(at.x, at.y);
      await a.keyboard.type(START);
      await expect(noteBox(a)).toHaveValue(START);
      await a.keyboard.press('Escape');
      await expect(noteBox(a)).toBeHidden();
      await expect.poll(() => noteTexts(b), { message: "B's board has A's note" }).toEqual([START]);
    });

    await test.step('both open it (select all, Enter: the cameras need not agree)', async () => {
      for (const page of [a, b]) {
        await page.keyboard.press('Control+a');
        await page.keyboard.press('Enter');
        await expect(noteBox(page)).toHaveValue(START);
      }
    });

    await test.step('both type at once', async () => {
      await Promise.all([
        a.keyboard.type(A_TYPES, { delay: 25 }),
        b.keyboard.type(B_TYPES, { delay: 25 }),
      ]);
    });

    await test.step('each editor shows both sentences whole, and the same text', async () => {
      const both = (v: string): boolean =>
        v.startsWith(START) &&
        v.includes(A_TYPES) &&
        v.includes(B_TYPES) &&
        v.length === START.length + A_TYPES.length + B_TYPES.length;
      await expect
        .poll(async () => both(await noteBox(a).inputValue()), { message: "A's editor" })
        .toBe(true);
      await expect
        .poll(async () => both(await noteBox(b).inputValue()), { message: "B's editor" })
        .toBe(true);
      const [va, vb] = [await noteBox(a).inputValue(), await noteBox(b).inputValue()];
      expect(vb).toBe(va);
      info.annotations.push({ type: 'merged text', description: va });
      await a.screenshot({ path: info.outputPath('co-edited-a.png') });
      await b.screenshot({ path: info.outputPath('co-edited-b.png') });
    });

    await test.step('A types on where its caret is, after its own sentence', async () => {
      await a.keyboard.type('!');
      await expect
        .poll(() => noteBox(b).inputValue(), { message: "B's editor" })
        .toContain(`${A_TYPES}!`);
    });

    await test.step('both close it: both boards show the same text', async () => {
      await a.keyboard.press('Escape');
      await b.keyboard.press('Escape');
      await expect(noteBox(a)).toBeHidden();
      await expect(noteBox(b)).toBeHidden();
      const want = await expect
        .poll(() => noteTexts(a), { message: "A's board" })
        .toEqual([expect.stringContaining(`${A_TYPES}!`)])
        .then(() => noteTexts(a));
      await expect.poll(() => noteTexts(b), { message: "B's board" }).toEqual(want);
      expect(want[0]).toContain(B_TYPES);
    });
  });
});
