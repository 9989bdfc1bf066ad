// Two users in Chromium, each on a web host of their own (two cores, real UDP on loopback between them):
// one hosts and one joins through the UI; pointers, a live drag, chat and the bandwidth panel.
import { expect, test } from '@playwright/test';
import type { RunningHost } from './harness/web-host';
import { withTwoUsers } from './harness/two-users';
import { runScenario } from './harness/scenario';

const hosts: RunningHost[] = [];

test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

test('two users in the browser: host, join, pointer, drag, chat, bandwidth', async ({
  browser,
}, testInfo) => {
  await withTwoUsers(browser, hosts, async ({ a, b }) => {
    // The launch token leaves the address bar as soon as the page has it.
    await Promise.all([expect(a).not.toHaveURL(/token/), expect(b).not.toHaveURL(/token/)]);
    await runScenario({ a, b }, testInfo);
  });
});
