// Export in Chromium against the web host: a board with a rectangle and a text is downloaded as an SVG (vector,
// its text as text), as a 2× PNG (twice the SVG's size; opaque, or transparent when asked), and the selection
// alone as an SVG; an Excalidraw scene and a Ghostboard copy come down as the files those tools read; an Excalidraw
// scene imported adds its shapes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Download, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import type { RunningHost } from './harness/web-host';
import { ROOT, startWebHost } from './harness/web-host';
import { selectedIds } from './harness/two-users';

const hosts: RunningHost[] = [];

test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

async function downloaded(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  const waiting = page.waitForEvent('download');
  await page.getByTestId(button).click();
  const d: Download = await waiting;
  const path = await d.path();
  return { name: d.suggestedFilename(), bytes: readFileSync(path) };
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { w: number; h: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { w: png.readUInt32BE(16), h: png.readUInt32BE(20) };
}

/** The alpha of a PNG's top-left pixel, decoded by the page itself. A string: the e2e project has no DOM types. */
async function cornerAlpha(page: Page, png: Buffer): Promise<number> {
  return page.evaluate<number>(`(async () => {
    const bytes = Uint8Array.from(atob('${png.toString('base64')}'), (c) => c.charCodeAt(0));
    const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bmp.width, bmp.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(bmp, 0, 0);
    return ctx.getImageData(0, 0, 1, 1).data[3];
  })()`);
}

test('exports the board and the selection as SVG, PNG, Excalidraw and a Ghostboard copy', async ({
  browser,
}, info) => {
  const host = await startWebHost();
  hosts.push(host);
  const context = await browser.newContext({ acceptDownloads: true });
  try {
    const page = await context.newPage();
    await page.goto(host.url);
    await page.getByTestId('host-name').fill('Alice');
    await page.getByTestId('host-button').click();
    await expect(page.getByTestId('board-stage')).toBeVisible();
    const box = await page.getByTestId('board-stage').boundingBox();
    if (box === null) throw new Error('no stage');
    const at = (x: number, y: number) => ({ x: box.x + x, y: box.y + y });

    await test.step('a rectangle and a text', async () => {
      await page.getByTestId('tool-rect').click();
      await page.mouse.move(at(200, 200).x, at(200, 200).y);
      await page.mouse.down();
      await page.mouse.move(at(360, 300).x, at(360, 300).y, { steps: 6 });
      await page.mouse.up();
      await page.getByTestId('tool-text').click();
      await page.mouse.click(at(420, 220).x, at(420, 220).y);
      await page.keyboard.type('Ship <it> & go');
      await page.keyboard.press('Escape');
      await expect(page.locator('[data-testid^="object-"]')).toHaveCount(2);
      await page.getByTestId('export-toggle').click();
      await expect(page.getByTestId('export-panel')).toBeVisible();
    });

    let svgSize = { w: 0, h: 0 };
    await test.step('the whole board as SVG: vector shapes, the text as text', async () => {
      const svg = await downloaded(page, 'export-svg');
      expect(svg.name).toMatch(/^ghostboard-.*\.svg$/);
      const text = svg.bytes.toString('utf8');
      expect(text).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
      expect(text.match(/<g transform=/g)).toHaveLength(2);
      expect(text).toContain('<rect');
      expect(text).toContain('>Ship &#60;it&#62; &#38; go</tspan>');
      const m = /width="(\d+)" height="(\d+)"/.exec(text);
      svgSize = { w: Number(m?.[1]), h: Number(m?.[2]) };
      expect(svgSize.w).toBeGreaterThan(100);
    });

    await test.step('a 2× PNG, opaque; then transparent', async () => {
      const png = await downloaded(page, 'export-png');
      expect(png.name).toMatch(/\.png$/);
      expect(pngSize(png.bytes)).toEqual({ w: svgSize.w * 2, h: svgSize.h * 2 });
      expect(await cornerAlpha(page, png.bytes)).toBe(255);
      await page.getByTestId('export-transparent').check();
      const clear = await downloaded(page, 'export-png');
      expect(pngSize(clear.bytes)).toEqual({ w: svgSize.w * 2, h: svgSize.h * 2 });
      expect(await cornerAlpha(page, clear.bytes)).toBe(0);
    });

    await test.step('an Excalidraw scene and a Ghostboard copy of the board', async () => {
      const scene = JSON.parse(
        (await downloaded(page, 'export-excalidraw')).bytes.toString('utf8'),
      ) as {
        type: string;
        elements: { type: string }[];
      };
      expect(scene.type).toBe('excalidraw');
      expect(scene.elements.map((e) => e.type).sort()).toEqual(['rectangle', 'text']);
      const copy = JSON.parse(
        (await downloaded(page, 'export-ghostboard')).bytes.toString('utf8'),
      ) as {
        format: string;
        objects: { kind: string; text: string }[];
      };
      expect(copy.format).toBe('ghostboard-board');
      expect(copy.objects.map((o) => o.kind).sort()).toEqual(['rect', 'text']);
      expect(copy.objects.find((o) => o.kind === 'text')?.text).toBe('Ship <it> & go');
    });

    await test.step('the selection alone', async () => {
      await page.getByTestId('tool-select').click();
      await page.mouse.click(at(280, 250).x, at(280, 250).y);
      await expect.poll(() => selectedIds(page)).toHaveLength(1);
      await page.getByTestId('export-selection').check();
      const svg = (await downloaded(page, 'export-svg')).bytes.toString('utf8');
      expect(svg.match(/<g transform=/g)).toHaveLength(1);
      expect(svg).not.toContain('Ship');
      await page.screenshot({ path: info.outputPath('export-panel.png') });
    });

    await test.step('an Excalidraw scene imported: its shapes join the board', async () => {
      await page
        .getByTestId('import-file')
        .setInputFiles(join(ROOT, 'src-main', 'files', 'fixtures', 'excalidraw-0.18.excalidraw'));
      await expect(page.locator('[data-testid^="object-"]')).toHaveCount(9);
      await expect(
        page
          .getByRole('status')
          .filter({ hasText: /Imported 7 objects/ })
          .first(),
      ).toBeVisible();
    });
  } finally {
    await context.close();
  }
});
