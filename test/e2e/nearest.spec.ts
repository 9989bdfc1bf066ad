// Joining by a link that names several hosts of a session (its mirrors), in Chromium against the renderer's dev
// bridge (?fake=1, served by the web host in front of a fake core): the bandwidth panel says in words that the
// nearest host was joined, and its engineering details list every host with its round trip and the one joined.
// Two real hosts of one session cannot run as processes yet; the choice itself is tested in net/ and app/.
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

test('the bandwidth panel shows the nearest host joined, and every host probed with its RTT', async ({
  page,
}, testInfo) => {
  await page.goto(`${host.origin}/?fake=1`);
  if (!(await page.getByTestId('join-name').isVisible()))
    await page.getByTestId('join-tab').click();
  await page.getByTestId('join-name').fill('Jo');
  const hosts = ['203.0.113.10:7350', '198.51.100.7:7350', '192.0.2.44:7350'];
  await page.getByTestId('join-address').fill(`ghostboard://direct/${hosts.join(',')}#abc-def`);
  await page.getByTestId('join-button').click();
  await page.getByTestId('bandwidth-toggle').click();
  await expect(page.getByTestId('bandwidth-summary')).toContainText(
    'Connected to the nearest host (12 ms).',
  );
  await page.getByTestId('bandwidth-details').click();
  const rows = page.getByTestId('probed-host');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText(hosts[0] ?? '');
  await expect(rows.nth(0)).toContainText('118 ms');
  await expect(rows.nth(1)).toContainText('12 ms');
  await expect(rows.nth(1)).toContainText('joined');
  await expect(rows.nth(1)).toHaveAttribute('data-chosen', 'true');
  await expect(rows.nth(2)).toContainText('no answer');
  await expect(rows.nth(0)).toHaveAttribute('data-chosen', 'false');
  await page
    .getByRole('complementary', { name: 'Bandwidth' })
    .screenshot({ path: testInfo.outputPath('nearest-panel.png') });
});
