// Panels out of the way, at 1280×800 in Chromium against a web host: with a drawing tool active and every panel
// open (tool options, invite, people, chat, bandwidth), no panel overlaps another, the canvas or the floating
// controls; and a pen drag that starts where the style panel used to float draws a stroke, selecting no text.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import type { RunningHost } from './harness/web-host';
import { startWebHost } from './harness/web-host';

const hosts: RunningHost[] = [];

test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Where the style panel floated over the canvas before it was docked (CSS px from the page's top left). */
const OLD_STYLE_PANEL: Box = { x: 12, y: 70, width: 212, height: 220 };

async function boxOf(loc: Locator, what: string): Promise<Box> {
  await expect(loc, what).toBeVisible();
  const box = await loc.boundingBox();
  if (box === null) throw new Error(`${what} has no box`);
  return box;
}

/** Overlap of more than a pixel's rounding (borders may touch). */
function overlaps(a: Box, b: Box): boolean {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 1 && h > 1;
}

function inside(outer: Box, inner: Box): boolean {
  return (
    inner.x >= outer.x - 1 &&
    inner.y >= outer.y - 1 &&
    inner.x + inner.width <= outer.x + outer.width + 1 &&
    inner.y + inner.height <= outer.y + outer.height + 1
  );
}

const show = (b: Box): string =>
  `x ${Math.round(b.x)}..${Math.round(b.x + b.width)}, y ${Math.round(b.y)}..${Math.round(b.y + b.height)}`;

async function openAll(page: Page): Promise<void> {
  const share = page.getByRole('region', { name: 'Invite people' });
  if (!(await share.isVisible())) await page.getByTestId('share-toggle').click();
  await page.getByRole('button', { name: /people here/ }).click();
  await page.getByTestId('chat-toggle').click();
  await page.getByTestId('bandwidth-toggle').click();
}

async function world(page: Page, testId: string): Promise<{ x: number; y: number }> {
  const loc = page.getByTestId(testId);
  return {
    x: Number(await loc.getAttribute('data-x')),
    y: Number(await loc.getAttribute('data-y')),
  };
}

test('every panel open at 1280×800: none covers another or the canvas, and a pen drag at the old style panel draws', async ({
  page,
}, info) => {
  const host = await startWebHost();
  hosts.push(host);
  await page.goto(host.url);
  expect(page.viewportSize()).toEqual({ width: 1280, height: 800 });
  await page.getByTestId('host-name').fill('Alice');
  await page.getByTestId('host-button').click();
  await expect(page.getByTestId('board-stage')).toBeVisible();
  await page.getByTestId('tool-pen').click();
  await openAll(page);

  const panels: Record<string, Box> = {
    'tool options': await boxOf(page.getByTestId('style-panel'), 'the tool options'),
    invite: await boxOf(page.getByRole('region', { name: 'Invite people' }), 'the invite panel'),
    people: await boxOf(page.getByRole('region', { name: 'People', exact: true }), 'people'),
    chat: await boxOf(page.getByRole('region', { name: 'Chat' }), 'the chat'),
    bandwidth: await boxOf(page.getByRole('complementary', { name: 'Bandwidth' }), 'bandwidth'),
  };
  const controls: Record<string, Box> = {
    status: await boxOf(page.getByRole('status').filter({ hasText: 'Hosting' }), 'the status'),
    tools: await boxOf(page.getByRole('navigation', { name: 'Tools' }), 'the tool bar'),
    'people and toggles': await boxOf(page.locator('.top-right'), 'the top right'),
    zoom: await boxOf(page.getByRole('group', { name: 'Zoom' }), 'the zoom controls'),
    'chat button': await boxOf(page.getByTestId('chat-toggle'), 'the chat button'),
  };
  const canvas = await boxOf(page.getByTestId('board-stage'), 'the canvas');
  const viewport: Box = { x: 0, y: 0, width: 1280, height: 800 };
  const report = [
    `canvas: ${show(canvas)}`,
    ...Object.entries({ ...panels, ...controls }).map(([k, b]) => `${k}: ${show(b)}`),
  ].join('\n');
  process.stdout.write(`panels at 1280×800, all open:\n${report}\n`);
  await info.attach('rectangles', { body: report, contentType: 'text/plain' });
  await page.screenshot({ path: info.outputPath('all-panels.png') });

  const all = { ...panels, ...controls };
  const names = Object.keys(all);
  for (const [i, a] of names.entries()) {
    const boxA = all[a];
    if (boxA === undefined) continue;
    expect(inside(viewport, boxA), `${a} (${show(boxA)}) lies within the window`).toBe(true);
    for (const b of names.slice(i + 1)) {
      const boxB = all[b];
      if (boxB === undefined) continue;
      expect(overlaps(boxA, boxB), `${a} (${show(boxA)}) and ${b} (${show(boxB)})`).toBe(false);
    }
  }
  for (const [name, box] of Object.entries(panels))
    expect(overlaps(box, canvas), `${name} (${show(box)}) and the canvas (${show(canvas)})`).toBe(
      false,
    );
  for (const [name, box] of Object.entries(controls))
    expect(inside(canvas, box), `${name} floats over the canvas's edge`).toBe(true);
  // Where the style panel used to float is canvas now: no panel there, and no control where the drag starts.
  expect(inside(canvas, OLD_STYLE_PANEL)).toBe(true);
  for (const [name, box] of Object.entries(panels))
    expect(overlaps(box, OLD_STYLE_PANEL), `${name} covers the old style panel's place`).toBe(
      false,
    );
  const start = {
    x: OLD_STYLE_PANEL.x + OLD_STYLE_PANEL.width / 2,
    y: OLD_STYLE_PANEL.y + OLD_STYLE_PANEL.height / 2,
  };
  const point: Box = { x: start.x - 2, y: start.y - 2, width: 4, height: 4 };
  for (const [name, box] of Object.entries(controls))
    expect(overlaps(box, point), `${name} covers where the drag starts`).toBe(false);

  // A pen drag from the middle of the old style panel's place draws a stroke starting there.
  await page.mouse.move(start.x, start.y);
  const pressed = await world(page, 'local-pointer');
  await page.mouse.down();
  await page.mouse.move(start.x + 120, start.y + 60, { steps: 10 });
  await page.mouse.move(start.x + 200, start.y + 150, { steps: 10 });
  await page.mouse.up();
  const stroke = page.locator('[data-testid^="object-"]');
  await expect(stroke).toHaveCount(1);
  const at = await world(page, (await stroke.getAttribute('data-testid')) ?? '');
  expect(Math.abs(at.x - pressed.x)).toBeLessThanOrEqual(2);
  expect(Math.abs(at.y - pressed.y)).toBeLessThanOrEqual(2);
  expect(String(await page.evaluate('window.getSelection()?.toString() ?? ""'))).toBe('');
  await page.screenshot({ path: info.outputPath('stroke.png') });
});
