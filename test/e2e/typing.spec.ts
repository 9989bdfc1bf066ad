// Typing at once after placing a note or a text box, in Chromium with two users on two web hosts: the host (A)
// and a joiner (B) whose own traffic is delayed (the bandwidth panel's network conditions), so B's create round
// trip is still in flight while B types. Each presses N, clicks and types "quick brown fox" with no waits, then
// T, a click and "fast text here": every character lands on both screens, and no key runs a shortcut (the chat
// panel never opens, the tool never changes mid-typing).
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { hostAndJoin } from './harness/scenario';
import type { RunningHost } from './harness/web-host';
import { withTwoUsers } from './harness/two-users';
import { delayLink } from './harness/conditions';

const hosts: RunningHost[] = [];

test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

/** B's added one-way delay on everything it sends, ms (the slider's step is 10). */
const DELAY_MS = 1000;

interface Watch {
  /** The active tool button after each change, from when the watch was reset. */
  readonly tools: (string | null)[];
  /** Per key pressed since the reset: how many objects the board held when it was pressed. */
  readonly keys: number[];
  /** Whether the chat panel was ever on screen. */
  readonly chat: boolean;
}

/**
 * Records, in the page, every change of the active tool and whether the chat panel ever shows (a mutation
 * observer: it sees each DOM change React commits, however briefly). A string: the e2e project has no DOM types.
 */
const WATCH = `(() => {
  const w = { tools: [], chat: false, keys: [] };
  const check = () => {
    const active = document.querySelector('nav[aria-label="Tools"] [aria-pressed="true"]');
    const id = active ? active.getAttribute('data-testid') : null;
    if (w.tools[w.tools.length - 1] !== id) w.tools.push(id);
    if (document.querySelector('section[aria-label="Chat"]')) w.chat = true;
  };
  new MutationObserver(check).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ['aria-pressed'],
  });
  window.addEventListener('keydown', () => {
    w.keys.push(document.querySelectorAll('[data-testid^="object-"]').length);
  }, true);
  check();
  window.gbWatch = w;
})()`;

async function watchShortcuts(page: Page): Promise<void> {
  await page.evaluate(WATCH);
}

/** What the watch saw; `reset`: then starts over from the tool active now. */
async function watched(page: Page, reset = false): Promise<Watch> {
  const now = await page.evaluate<Watch>(
    '({ tools: [...window.gbWatch.tools], chat: window.gbWatch.chat, keys: [...window.gbWatch.keys] })',
  );
  if (reset)
    await page.evaluate(
      'window.gbWatch.tools.splice(0, window.gbWatch.tools.length - 1); window.gbWatch.keys.length = 0',
    );
  return now;
}

/** The texts of the board's text and note objects on this page, sorted. */
async function boardTexts(page: Page): Promise<string[]> {
  const els = await page.locator('[data-testid^="object-"][data-text]').all();
  const texts = await Promise.all(
    els.map(async (el) => (await el.getAttribute('data-text')) ?? ''),
  );
  return texts.sort();
}

const objectCount = (page: Page): Promise<number> =>
  page.locator('[data-testid^="object-"]').count();

/**
 * With `objectsBefore` objects on the board, presses `key` (N or T), clicks the bare canvas at (x, y) of the stage and types `text` at once, then Escape;
 * returns how many of the typed keys were pressed while the create's round trip was still in flight (the board
 * did not hold the new object yet), and how long typing took (ms).
 */
async function placeAndType(
  page: Page,
  key: 'n' | 't',
  at: { x: number; y: number },
  text: string,
  objectsBefore: number,
): Promise<{ keysInFlight: string; typedMs: number }> {
  const box = await page.getByTestId('board-stage').boundingBox();
  if (box === null) throw new Error('board-stage has no box');
  // The objects placed before have landed here (else one landing mid-typing would pass for this one).
  const before = objectsBefore;
  await expect
    .poll(() => objectCount(page), { message: 'the earlier objects landed' })
    .toBe(before);
  await watched(page, true);
  await page.keyboard.press(key);
  await page.mouse.click(box.x + at.x, box.y + at.y);
  const started = Date.now();
  await page.keyboard.type(text);
  const typedMs = Date.now() - started;
  const label = key === 'n' ? 'Sticky note text' : 'Text';
  await expect(page.getByRole('textbox', { name: label, exact: true })).toHaveValue(text);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('textbox', { name: label, exact: true })).toBeHidden();
  const w = await watched(page);
  const tool = key === 'n' ? 'tool-note' : 'tool-text';
  expect(w.tools, 'the tool changes only with the key and the click').toEqual([
    'tool-select',
    tool,
    'tool-select',
  ]);
  expect(w.chat, 'the chat panel never opened').toBe(false);
  // The watch's first key is N (before the click), its last Escape: the typed ones lie between.
  const typed = w.keys.slice(1, -1);
  const keysInFlight = `${typed.filter((n) => n === before).length}/${typed.length}`;
  return { keysInFlight, typedMs };
}

async function typeBoth(a: Page, b: Page, info: TestInfo): Promise<void> {
  const typing: Record<string, { keysInFlight: string; typedMs: number }> = {};
  await test.step('A (the host) types at once into a note, then a text box', async () => {
    typing['A note'] = await placeAndType(a, 'n', { x: 120, y: 140 }, 'quick brown fox', 0);
    typing['A text'] = await placeAndType(a, 't', { x: 120, y: 380 }, 'fast text here', 1);
  });
  await test.step('B (joined over a delayed link) does the same', async () => {
    typing['B note'] = await placeAndType(b, 'n', { x: 620, y: 140 }, 'quick brown fox', 2);
    typing['B text'] = await placeAndType(b, 't', { x: 620, y: 380 }, 'fast text here', 3);
  });
  const want = ['fast text here', 'fast text here', 'quick brown fox', 'quick brown fox'];
  await test.step('every character lands on both screens', async () => {
    await expect.poll(() => boardTexts(a), { message: "A's board" }).toEqual(want);
    await expect.poll(() => boardTexts(b), { message: "B's board" }).toEqual(want);
    expect((await watched(a)).chat || (await watched(b)).chat).toBe(false);
  });
  // A measured fact, not a threshold: how many keys were typed while each create was unconfirmed.
  info.annotations.push({
    type: 'keys typed while the create was in flight',
    description: JSON.stringify(typing),
  });
  console.log(`keys typed while the create was in flight: ${JSON.stringify(typing)}`);
  await a.screenshot({ path: info.outputPath('typed-a.png') });
  await b.screenshot({ path: info.outputPath('typed-b.png') });
}

test('typing at once after placing a note or a text box: every character lands, no shortcut fires', async ({
  browser,
}, info) => {
  await withTwoUsers(browser, hosts, async ({ a, b }) => {
    await hostAndJoin({ a, b }, info);
    await test.step(`B's own traffic is delayed ${DELAY_MS} ms`, () => delayLink(b, DELAY_MS));
    await watchShortcuts(a);
    await watchShortcuts(b);
    await typeBoth(a, b, info);
  });
});
