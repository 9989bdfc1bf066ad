// The web host harness on its own (fake core, fixture page): the host starts and prints its URL, the page
// loads under the CSP, a wrong token is refused, the right one connects, replies and events arrive.
import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import type { RunningHost } from './harness/web-host';
import { ROOT, startWebHost } from './harness/web-host';

let host: RunningHost;

test.beforeAll(async () => {
  host = await startWebHost({ entry: join(ROOT, 'test', 'e2e', 'harness', 'fake-host.ts') });
});

test.afterAll(async () => {
  expect(await host.stop()).toBe(0);
});

test('web host serves the page and the token-guarded API', async ({ page }, testInfo) => {
  const response = await page.goto(host.url);
  expect(response?.status()).toBe(200);
  const headers = response?.headers() ?? {};
  expect(headers['content-security-policy']).toContain("connect-src 'self' ws://127.0.0.1:*");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');

  await expect(page.getByTestId('smoke-bad-token')).toHaveText('refused');
  await expect(page.getByTestId('smoke-reply')).toHaveText('{"ok":true}');
  await expect(page.getByTestId('smoke-event')).toHaveText('status');
  await page.screenshot({ path: testInfo.outputPath('smoke.png') });
});

test('the API refuses a page without the token', async ({ page }) => {
  await page.goto(`${host.origin}/`);
  await expect(page.getByTestId('smoke-bad-token')).toHaveText('refused');
  await expect(page.getByTestId('smoke-reply')).toHaveText(/^closed \d+$/);
});

test('path traversal and foreign hosts get nothing', async ({ request }) => {
  expect((await request.get(`${host.origin}/%2e%2e/%2e%2e/smoke.spec.ts`)).status()).toBe(404);
  expect((await request.get(`${host.origin}/..%2f..%2fsmoke.spec.ts`)).status()).toBe(404);
  const foreign = await request.get(`${host.origin}/`, { headers: { Host: 'evil.example' } });
  expect(foreign.status()).toBe(421);
});
