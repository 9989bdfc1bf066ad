// The share panel's "Add a mirror", in Chromium against the renderer's dev bridge (?fake=1, served by the web host
// in front of a fake core whose hosting status carries a mirror link a moment in, as a host that takes mirrors
// does): the action reveals the command to run on another machine, with a copy button and one line of help.
import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import type { RunningHost } from './harness/web-host';
import { ROOT, startWebHost } from './harness/web-host';

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

test('the share panel offers "Add a mirror": the command with its link, a copy button, and what it is for', async ({
  page,
}, testInfo) => {
  await page.goto(`${host.origin}/?fake=1`);
  await page.getByTestId('host-name').fill('Alice');
  await page.getByTestId('host-button').click();
  await expect(page.getByTestId('board-stage')).toBeVisible();
  const share = page.getByRole('region', { name: 'Invite people' });
  if (!(await share.isVisible())) await page.getByTestId('share-toggle').click();
  await expect(share.getByTestId('mirror-command')).toHaveCount(0);
  await share.getByTestId('add-mirror').click();
  await expect(share.getByTestId('mirror-command')).toHaveText(
    /^ghostboard host --mirror-of ghostboard:\/\/mirror\/\S+$/,
  );
  await expect(share.getByRole('button', { name: 'Copy mirror command' })).toBeVisible();
  await expect(share.getByTestId('mirror-help')).toHaveText(
    'Run on another machine to serve this session from there too; people join the nearest host and move to another if one stops.',
  );
  // A mirror has joined: the session's hosts, this computer first, the other with its round trip.
  const hosts = share.getByTestId('session-host');
  await expect(hosts).toHaveCount(2);
  await expect(hosts.nth(0)).toContainText('this computer');
  await expect(hosts.nth(1)).toContainText('203.0.113.77');
  await expect(hosts.nth(1)).toContainText('38 ms away');
  await page.screenshot({ path: testInfo.outputPath('add-mirror.png') });
});
