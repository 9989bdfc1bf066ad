// A late joiner of a large board in Chromium (issue 20, point 3): a headless host with a 3,000-object board
// file, the joiner's web host reaching it through a 40 ms impairment proxy, the Join form. The progress bar shows
// from the first step, its value only rises, and it reaches 100 % with every object counted.
import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NO_IMPAIRMENT } from '../../src-main/net/impairment';
import { bigBoard } from '../../src-main/session/testing/big-board';
import { CODE, Lab, num } from '../session/harness';
import type { JoinWatch } from './harness/join-watch';
import { watchJoinScript } from './harness/join-watch';
import type { RunningHost } from './harness/web-host';
import { startWebHost } from './harness/web-host';

const OBJECTS = 3000;
/** A hang guard only: the join is done when the bar says so. */
const GIVE_UP_MS = 120_000;

const lab = new Lab();
const hosts: RunningHost[] = [];
const dirs: string[] = [];
test.afterEach(async () => {
  await lab.close();
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

test('a late joiner’s progress bar fills to 100 % as the board arrives', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'gb-e2e-bigjoin-'));
  dirs.push(dir);
  const file = join(dir, 'big.ghostboard');
  writeFileSync(file, bigBoard(OBJECTS).toFile());
  const host = lab.spawn('Host', [
    ...['host', '--port', '0', '--bind', '127.0.0.1', '--code', CODE, '--name', 'Host'],
    ...['--script', '--board', file],
  ]);
  const ready = await host.waitFor((e) => e.ev === 'ready', 'ready', 60_000);
  const delay = { ...NO_IMPAIRMENT, delayMs: 40 };
  const proxy = await lab.proxy(num(ready, 'port'), 20_020, delay, delay);
  const web = await startWebHost();
  hosts.push(web);

  await page.goto(web.url);
  if (!(await page.getByTestId('join-name').isVisible()))
    await page.getByTestId('join-tab').click();
  await page.getByTestId('join-name').fill('Late');
  await page.getByTestId('join-address').fill(`127.0.0.1:${proxy.address.port}`);
  await page.getByTestId('join-code').fill(CODE);
  const { values } = await page.evaluate<JoinWatch>(watchJoinScript(GIVE_UP_MS));
  const pcts = values.map((v) => v.pct);
  expect(values.length).toBeGreaterThan(2);
  for (const v of values) expect(v.total).toBe(OBJECTS);
  for (let i = 1; i < values.length; i++) {
    expect(pcts[i]).toBeGreaterThanOrEqual(pcts[i - 1] ?? 0);
    expect(values[i]?.received).toBeGreaterThanOrEqual(values[i - 1]?.received ?? 0);
  }
  expect(pcts[0]).toBeLessThan(100);
  expect(pcts.at(-1)).toBe(100);
  expect(values.at(-1)?.received).toBe(OBJECTS);
  // The full bar shows, then goes; the board stays.
  await expect(page.getByTestId('board-progress')).toBeHidden();
  await expect(page.getByTestId('board-stage')).toBeVisible();
});
