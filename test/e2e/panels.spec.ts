// Panels out of the way, at 1280×800 in Chromium against a web host: with a drawing tool active, in every
// combination of the invite, people, chat and bandwidth panels (with the tool options always shown), no panel
// overlaps another, the canvas or the floating controls, and the controls overlap nothing; with all of them
// open, a pen drag that starts where the style panel used to float draws a stroke and selects no text.
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

const VIEWPORT: Box = { x: 0, y: 0, width: 1280, height: 800 };
/** Where the style panel floated over the canvas before it was docked (CSS px from the page's top left). */
const OLD_STYLE_PANEL: Box = { x: 12, y: 70, width: 212, height: 220 };

/** The panels a user opens and closes, each with its toggle. */
const TOGGLED: Record<string, { toggle: (p: Page) => Locator; panel: (p: Page) => Locator }> = {
  invite: {
    toggle: (p) => p.getByTestId('share-toggle'),
    panel: (p) => p.getByRole('region', { name: 'Invite people' }),
  },
  people: {
    toggle: (p) => p.getByRole('button', { name: /people here/ }),
    panel: (p) => p.getByRole('region', { name: 'People', exact: true }),
  },
  chat: {
    toggle: (p) => p.getByTestId('chat-toggle'),
    panel: (p) => p.getByRole('region', { name: 'Chat' }),
  },
  bandwidth: {
    toggle: (p) => p.getByTestId('bandwidth-toggle'),
    panel: (p) => p.getByRole('complementary', { name: 'Bandwidth' }),
  },
};

/** The small controls floating over the canvas's edges. */
const CONTROLS: Record<string, (p: Page) => Locator> = {
  status: (p) => p.getByRole('status').filter({ hasText: 'Hosting' }),
  tools: (p) => p.getByRole('navigation', { name: 'Tools' }),
  'people and toggles': (p) => p.locator('.top-right'),
  zoom: (p) => p.getByRole('group', { name: 'Zoom' }),
  'chat button': (p) => p.getByTestId('chat-toggle'),
};

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

async function setOpen(page: Page, name: string, open: boolean): Promise<void> {
  const t = TOGGLED[name];
  if (t === undefined) throw new Error(`no panel ${name}`);
  if ((await t.panel(page).isVisible()) !== open) await t.toggle(page).click();
  if (open) await expect(t.panel(page)).toBeVisible();
  else await expect(t.panel(page)).toBeHidden();
}

interface Layout {
  readonly canvas: Box;
  readonly panels: Record<string, Box>;
  readonly controls: Record<string, Box>;
}

async function measure(page: Page, open: readonly string[]): Promise<Layout> {
  const panels: Record<string, Box> = {
    'tool options': await boxOf(page.getByTestId('style-panel'), 'the tool options'),
  };
  for (const name of open) {
    const t = TOGGLED[name];
    if (t) panels[name] = await boxOf(t.panel(page), name);
  }
  const controls: Record<string, Box> = {};
  for (const [name, loc] of Object.entries(CONTROLS)) controls[name] = await boxOf(loc(page), name);
  return { canvas: await boxOf(page.getByTestId('board-stage'), 'the canvas'), panels, controls };
}

function report(l: Layout): string {
  return [
    `canvas: ${show(l.canvas)}`,
    ...Object.entries({ ...l.panels, ...l.controls }).map(([k, b]) => `${k}: ${show(b)}`),
  ].join('\n');
}

/** Nothing overlaps anything else; panels stay off the canvas, controls on it; all within the window. */
function expectApart(l: Layout, combo: string): void {
  const all = Object.entries({ ...l.panels, ...l.controls });
  for (const [i, [a, boxA]] of all.entries()) {
    expect(inside(VIEWPORT, boxA), `${combo}: ${a} (${show(boxA)}) lies within the window`).toBe(
      true,
    );
    for (const [b, boxB] of all.slice(i + 1))
      expect(overlaps(boxA, boxB), `${combo}: ${a} (${show(boxA)}) and ${b} (${show(boxB)})`).toBe(
        false,
      );
  }
  for (const [name, box] of Object.entries(l.panels))
    expect(overlaps(box, l.canvas), `${combo}: ${name} (${show(box)}) on the canvas`).toBe(false);
  for (const [name, box] of Object.entries(l.controls))
    expect(inside(l.canvas, box), `${combo}: ${name} floats within the canvas`).toBe(true);
}

async function world(page: Page, testId: string): Promise<{ x: number; y: number }> {
  const loc = page.getByTestId(testId);
  return {
    x: Number(await loc.getAttribute('data-x')),
    y: Number(await loc.getAttribute('data-y')),
  };
}

test('panels dock at 1280×800: no combination covers another or the canvas, and a pen drag at the old style panel draws', async ({
  page,
}, info) => {
  const host = await startWebHost();
  hosts.push(host);
  await page.goto(host.url);
  expect(page.viewportSize()).toEqual({ width: VIEWPORT.width, height: VIEWPORT.height });
  await page.getByTestId('host-name').fill('Alice');
  await page.getByTestId('host-button').click();
  await expect(page.getByTestId('board-stage')).toBeVisible();
  await page.getByTestId('tool-pen').click();

  const names = Object.keys(TOGGLED);
  await test.step('every combination of panels', async () => {
    for (let mask = 0; mask < 1 << names.length; mask++) {
      const open = names.filter((_, i) => (mask & (1 << i)) !== 0);
      for (const name of names) await setOpen(page, name, open.includes(name));
      expectApart(await measure(page, open), open.length === 0 ? 'none open' : open.join(' + '));
    }
  });

  await test.step('all open: the rectangles, and a pen stroke from the old style panel', async () => {
    for (const name of names) await setOpen(page, name, true);
    const layout = await measure(page, names);
    const text = report(layout);
    process.stdout.write(`panels at 1280×800, all open:\n${text}\n`);
    await info.attach('rectangles', { body: text, contentType: 'text/plain' });
    await page.screenshot({ path: info.outputPath('all-panels.png') });
    expectApart(layout, 'all open');

    // Where the style panel used to float is canvas now: no panel there, and no control where the drag starts.
    expect(inside(layout.canvas, OLD_STYLE_PANEL)).toBe(true);
    for (const [name, box] of Object.entries(layout.panels))
      expect(overlaps(box, OLD_STYLE_PANEL), `${name} covers the old style panel's place`).toBe(
        false,
      );
    const start = {
      x: OLD_STYLE_PANEL.x + OLD_STYLE_PANEL.width / 2,
      y: OLD_STYLE_PANEL.y + OLD_STYLE_PANEL.height / 2,
    };
    const point: Box = { x: start.x - 2, y: start.y - 2, width: 4, height: 4 };
    for (const [name, box] of Object.entries(layout.controls))
      expect(overlaps(box, point), `${name} covers where the drag starts`).toBe(false);

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
});
