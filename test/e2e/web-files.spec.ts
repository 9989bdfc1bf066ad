// The web host's board file (filesleft), in Chromium: the Host tab uploads a .ghostboard file and hosts it (its
// objects on the board, its name in the tab's title); Download saves the open board as a file whose bytes parse and
// hash equal to what was uploaded, and after a change holds the change too (the unsaved mark goes); the Export
// panel's upload refuses a damaged file (the board unchanged) and replaces the board with a good one. Then a board left
// unsaved is not hosted again unasked: the start screen offers "Recover unsaved board from …", and only that brings
// it back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { decodeBoardFile } from '../../src-main/files/board-codec';
import { Board } from '../../src-main/session/board';
import { board, objectsOf, stageAt } from './harness/board-reading';
import type { RunningHost } from './harness/web-host';
import { ROOT, startWebHost } from './harness/web-host';

const hosts: RunningHost[] = [];

test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

const fixture = (name: string): string => join(ROOT, 'src-main', 'files', 'fixtures', name);

/** A board file's objects (ids, sorted) and content hash, or why it does not parse. */
function boardOf(text: string): { ids: number[]; hash: string } {
  const state = decodeBoardFile(text);
  if ('refused' in state) throw new Error(`not a board: ${state.refused}`);
  return { ids: [...state.objects.keys()].sort((a, b) => a - b), hash: new Board(state).hash() };
}

/** The ids the page's board shows, sorted. */
async function pageIds(page: Page): Promise<number[]> {
  return Object.keys(await board(page))
    .map(Number)
    .sort((a, b) => a - b);
}

/** The board's file through the Export panel's Download (the panel opened first). */
async function downloadBoard(page: Page): Promise<{ name: string; text: string }> {
  const panel = page.getByTestId('export-panel');
  if (!(await panel.isVisible())) await page.getByTestId('export-toggle').click();
  const waiting = page.waitForEvent('download');
  await page.getByTestId('board-download').click();
  const d = await waiting;
  return { name: d.suggestedFilename(), text: readFileSync(await d.path(), 'utf8') };
}

async function drawRect(page: Page): Promise<void> {
  const at = await stageAt(page);
  await page.getByTestId('tool-rect').click();
  const from = at(200, 200);
  const to = at(360, 300);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 6 });
  await page.mouse.up();
}

test('uploads a board to host, downloads it (bytes parse, hash equal), refuses a damaged upload and takes a good one', async ({
  browser,
}) => {
  const host = await startWebHost();
  hosts.push(host);
  const context = await browser.newContext({ acceptDownloads: true });
  try {
    const page = await context.newPage();
    await page.goto(host.url);
    const canonical = boardOf(readFileSync(fixture('v2-canonical.ghostboard'), 'utf8'));

    await test.step('the Host tab uploads a file and hosts it', async () => {
      await page.getByTestId('host-name').fill('Alice');
      await expect(page.getByTestId('board-new')).toBeChecked();
      await page.getByTestId('board-upload-file').setInputFiles(fixture('v2-canonical.ghostboard'));
      await expect(page.getByTestId('board-upload')).toBeChecked();
      await expect(
        page.getByText('Uploaded from this browser (v2-canonical.ghostboard).'),
      ).toBeVisible();
      await page.getByTestId('host-button').click();
      await expect(page.getByTestId('board-stage')).toBeVisible();
      await expect.poll(() => pageIds(page)).toEqual(canonical.ids);
      await expect(page).toHaveTitle('v2-canonical — Ghostboard');
    });

    await test.step('Download: the same board, byte for byte in content', async () => {
      const d = await downloadBoard(page);
      expect(d.name).toBe('v2-canonical.ghostboard');
      expect(boardOf(d.text)).toEqual(canonical);
    });

    await test.step('a change, downloaded: the file holds it and the board is saved', async () => {
      await drawRect(page);
      await expect(page).toHaveTitle('• v2-canonical — Ghostboard');
      const ids = await pageIds(page);
      expect(ids).toHaveLength(canonical.ids.length + 1);
      const d = await downloadBoard(page);
      expect(boardOf(d.text).ids).toEqual(ids);
      await expect(page).toHaveTitle('v2-canonical — Ghostboard');
    });

    await test.step('the panel refuses a damaged upload, the board unchanged, and takes a good one', async () => {
      const before = await pageIds(page);
      await page.getByTestId('board-file-upload').setInputFiles({
        name: 'torn.ghostboard',
        mimeType: 'application/json',
        buffer: Buffer.from('{"format":"ghostboard-board","version":2,"nex'),
      });
      await expect(page.getByText(/Not opened: cannot open torn\.ghostboard/)).toBeVisible();
      expect(await pageIds(page)).toEqual(before);
      await page.getByTestId('board-file-upload').setInputFiles(fixture('v2-image.ghostboard'));
      const image = boardOf(readFileSync(fixture('v2-image.ghostboard'), 'utf8'));
      await expect.poll(() => pageIds(page)).toEqual(image.ids);
      await expect(page).toHaveTitle('v2-image — Ghostboard');
      expect(boardOf((await downloadBoard(page)).text)).toEqual(image);
    });
  } finally {
    await context.close();
  }
});

test('an unsaved board is not hosted again unasked: the start screen offers to recover it', async ({
  page,
}) => {
  const host = await startWebHost();
  hosts.push(host);
  await page.goto(host.url);
  await page.getByTestId('host-name').fill('Alice');
  await page.getByTestId('host-button').click();
  await expect(page.getByTestId('board-stage')).toBeVisible();
  await drawRect(page);
  await expect(objectsOf(page)).toHaveCount(1);
  await page.getByRole('button', { name: 'Leave the session' }).click();

  // Back on the start screen: New is picked, the unsaved board is offered beside it.
  await expect(page.getByTestId('board-recovered')).toHaveCount(1);
  await expect(page.getByText(/Recover unsaved board from .+/)).toBeVisible();
  await expect(page.getByTestId('board-new')).toBeChecked();
  await page.getByTestId('host-button').click();
  await expect(page.getByTestId('board-stage')).toBeVisible();
  await expect(page).toHaveTitle('Untitled — Ghostboard');
  await expect(objectsOf(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Leave the session' }).click();

  await page.getByTestId('board-recovered').check();
  await page.getByTestId('host-button').click();
  await expect(page.getByTestId('board-stage')).toBeVisible();
  await expect(objectsOf(page)).toHaveCount(1);
  await expect(page).toHaveTitle('• Untitled — Ghostboard');
});
