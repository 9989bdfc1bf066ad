// A large board in Chromium (3,000 seeded objects through the renderer's dev bridge, ?fake=1&objects=…, served
// by the web host harness): zoomed out to the whole board, the dot grid is gone (no moiré) and comes back zoomed
// in; panned, and zoomed in and back out, the board layer shows every object where it was (its pixels shift by
// exactly the pan, and come back the same); a note dragged on it lands where it was dropped.
import { expect, type Page, test } from '@playwright/test';
import { join } from 'node:path';
import type { RunningHost } from './harness/web-host';
import { ROOT, startWebHost } from './harness/web-host';

const OBJECTS = 3000;
let host: RunningHost;

test.beforeAll(async () => {
  host = await startWebHost({
    entry: join(ROOT, 'test', 'e2e', 'harness', 'fake-host.ts'),
    args: ['--root', join(ROOT, 'dist', 'renderer')],
  });
});

test.afterAll(async () => {
  expect(await host.stop()).toBe(0);
});

/** The board layer (the stage's first canvas) and its 2D context, in page code. */
const LAYER = `const c = document.querySelector('.konvajs-content canvas');
  const ctx = c && c.getContext('2d');
  if (!c || !ctx) throw new Error('no board canvas');`;

/** Keeps the board layer's pixels now under `name` in the page. */
async function keep(page: Page, name: string): Promise<void> {
  await page.evaluate(`(() => { ${LAYER}
    window[${JSON.stringify(`__kept_${name}`)}] = ctx.getImageData(0, 0, c.width, c.height);
  })()`);
}

/**
 * How the board layer now differs from the kept pixels shifted by (dx, dy): the mean absolute difference per
 * channel over the part both show (every other pixel), and how many kept pixels there were drawn (not blank).
 */
function differs(page: Page, name: string, dx: number, dy: number) {
  return page.evaluate<{ mean: number; drawn: number }>(`(() => { ${LAYER}
    const was = window[${JSON.stringify(`__kept_${name}`)}];
    const now = ctx.getImageData(0, 0, c.width, c.height);
    const sx = ${dx}, sy = ${dy};
    let sum = 0, n = 0, drawn = 0;
    for (let y = Math.max(0, sy); y < Math.min(c.height, c.height + sy); y += 2)
      for (let x = Math.max(0, sx); x < Math.min(c.width, c.width + sx); x += 2) {
        const i = (y * c.width + x) * 4;
        const j = ((y - sy) * c.width + (x - sx)) * 4;
        if (was.data[j + 3] > 0) drawn++;
        for (let k = 0; k < 4; k++) sum += Math.abs(now.data[i + k] - was.data[j + k]);
        n += 4;
      }
    return { mean: n > 0 ? sum / n : Infinity, drawn };
  })()`);
}

/** The board layer's pixel under the page point (x, y), as "r,g,b,a". */
function pixelAt(page: Page, x: number, y: number) {
  return page.evaluate<string>(`(() => { ${LAYER}
    const r = c.getBoundingClientRect();
    const d = ctx.getImageData(Math.round(${x} - r.left), Math.round(${y} - r.top), 1, 1).data;
    return [d[0], d[1], d[2], d[3]].join(',');
  })()`);
}

/** The topmost note (the seeded board's last): its mirror's test id and x, and a page point on it. */
const TOP_NOTE = `(() => {
  const notes = [...document.querySelectorAll('[data-kind="note"]')];
  const top = notes.reduce((a, b) => (Number(b.dataset.z) > Number(a.dataset.z) ? b : a));
  const [cx, cy, scale] = document
    .querySelector('[data-testid="board-stage"]')
    .dataset.camera.split(' ')
    .map(Number);
  const rect = document.querySelector('.konvajs-content').getBoundingClientRect();
  const wx = Number(top.dataset.x) + Number(top.dataset.w) / 2;
  const wy = Number(top.dataset.y) + Number(top.dataset.h) * 0.6;
  return {
    id: top.dataset.testid,
    x: Number(top.dataset.x),
    sx: rect.left + wx * scale + cx,
    sy: rect.top + wy * scale + cy,
  };
})()`;

test('a large board zoomed out, panned and zoomed shows its objects where they were; the grid fades', async ({
  page,
}) => {
  await page.goto(`${host.origin}/?fake=1&objects=${OBJECTS}&seed=5`);
  await expect(page.getByTestId(`object-${OBJECTS}`)).toBeAttached({ timeout: 60_000 });
  const stage = page.getByTestId('board-stage');
  // Fitted to the whole board (about 13 %): dots 3 px apart would be a moiré, so there are none.
  await expect(stage).toHaveAttribute('data-grid-alpha', '0.00');
  await expect(page.getByTestId('board-grid')).toBeHidden();
  await keep(page, 'fitted');

  // Pan 100 px right and 60 down (a trackpad's wheel): the same pixels, moved by exactly that.
  await page.mouse.move(640, 420);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(-25, -15);
  await expect
    .poll(async () => {
      const d = await differs(page, 'fitted', 100, 60);
      return d.drawn > 10_000 && d.mean < 1;
    })
    .toBe(true);
  await keep(page, 'panned');

  // Zoom in past the snapshot's slack (about 5×, the dots come back), then out by as much: as it was.
  await page.keyboard.down('Control');
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -100);
  await expect(stage).toHaveAttribute('data-grid-alpha', '1.00');
  await expect(page.getByTestId('board-grid')).toBeVisible();
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 100);
  await page.keyboard.up('Control');
  await expect(stage).toHaveAttribute('data-grid-alpha', '0.00');
  await expect
    .poll(async () => {
      const d = await differs(page, 'panned', 0, 0);
      return d.drawn > 10_000 && d.mean < 1;
    })
    .toBe(true);
});

test('a note dragged on a large board lands where it was dropped, drawn there', async ({
  page,
}) => {
  await page.goto(`${host.origin}/?fake=1&objects=${OBJECTS}&seed=5`);
  await expect(page.getByTestId(`object-${OBJECTS}`)).toBeAttached({ timeout: 60_000 });
  // Below the topmost note's first line, where the camera shows it (the stage's data-camera).
  const { id, sx, sy, x } = await page.evaluate<{ id: string; sx: number; sy: number; x: number }>(
    TOP_NOTE,
  );
  const note = page.getByTestId(id);
  const fill = await pixelAt(page, sx, sy);
  expect(fill).not.toBe('0,0,0,0');
  await page.mouse.move(sx, sy);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(sx + i * 10, sy + i * 5);
  await page.mouse.up();
  await expect(note).not.toHaveAttribute('data-x', String(x));
  await expect(page.getByTestId('selection')).toHaveAttribute(
    'data-ids',
    id.replace('object-', ''),
  );
  // Its pixels moved with it: the board layer at the drop point shows the note's fill (its handles gone).
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('selection')).toHaveAttribute('data-count', '0');
  await expect.poll(() => pixelAt(page, sx + 80, sy + 40)).toBe(fill);
});
