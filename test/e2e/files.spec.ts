// The open board file as the page sees it (files), in Chromium against the web host: hosting names the board
// "Untitled" in the tab's title and a change marks it unsaved (the core's file event, through the store).
import { expect, test } from '@playwright/test';
import type { RunningHost } from './harness/web-host';
import { startWebHost } from './harness/web-host';

const hosts: RunningHost[] = [];

test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

test('the tab names the open board file and marks unsaved changes', async ({ page }) => {
  const host = await startWebHost();
  hosts.push(host);
  await page.goto(host.url);
  await expect(page).toHaveTitle('Ghostboard');
  await page.getByTestId('host-name').fill('Alice');
  await page.getByTestId('host-button').click();
  await expect(page.getByTestId('board-stage')).toBeVisible();
  await expect(page).toHaveTitle('Untitled — Ghostboard');
  const box = await page.getByTestId('board-stage').boundingBox();
  if (box === null) throw new Error('no stage');
  await page.getByTestId('tool-rect').click();
  await page.mouse.move(box.x + 200, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x + 360, box.y + 300, { steps: 6 });
  await page.mouse.up();
  await expect(page.locator('[data-testid^="object-"]')).toHaveCount(1);
  await expect(page).toHaveTitle('• Untitled — Ghostboard');
});
