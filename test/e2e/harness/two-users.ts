// Two users in Chromium, each in a fresh browser context on a web host of its own (two cores, real UDP on loopback
// between them), with their pages loaded: the set-up every two-user spec shares. Knows nothing of the scenario.
import type { Browser, Page } from '@playwright/test';
import type { Users } from './scenario';
import type { RunningHost } from './web-host';
import { startWebHost } from './web-host';

/**
 * Starts two web hosts (added to `hosts`, which the spec's afterEach stops), opens a page on each in its own
 * context, runs `work`, and closes the contexts whatever happens.
 */
export async function withTwoUsers(
  browser: Browser,
  hosts: RunningHost[],
  work: (users: Users) => Promise<void>,
): Promise<void> {
  const [hostA, hostB] = await Promise.all([startWebHost(), startWebHost()]);
  hosts.push(hostA, hostB);
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  try {
    const a = await contextA.newPage();
    const b = await contextB.newPage();
    await Promise.all([a.goto(hostA.url), b.goto(hostB.url)]);
    await work({ a, b });
  } finally {
    await contextA.close();
    await contextB.close();
  }
}

/** The ids the page has selected, sorted (its hidden selection mirror). */
export async function selectedIds(page: Page): Promise<string[]> {
  const ids = (await page.getByTestId('selection').getAttribute('data-ids')) ?? '';
  return ids === '' ? [] : ids.split(',').sort();
}
