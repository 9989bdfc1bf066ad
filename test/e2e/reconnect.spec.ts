// When the host goes away, in Chromium against a web host: Bob has joined a headless host (Alice) that drew a
// rectangle; Alice's process is killed outright. Bob is told "Reconnecting to Alice…" within seconds, with the
// board still on screen and read-only and a way to save a copy; when a host comes back at the same address with the
// same code, Bob rejoins by himself and is connected again, never shown "Couldn't host".
import { expect, test } from '@playwright/test';
import type { RunningCliHost } from './harness/cli-host';
import { startCliHost } from './harness/cli-host';
import { objectsOf } from './harness/board-reading';
import type { RunningHost } from './harness/web-host';
import { startWebHost } from './harness/web-host';

const hosts: RunningHost[] = [];
const cliHosts: RunningCliHost[] = [];

test.afterEach(async () => {
  await Promise.all([
    ...hosts.splice(0).map((h) => h.stop()),
    ...cliHosts.splice(0).map((h) => h.stop()),
  ]);
});

const CODE = 'rejoin-orbit-lamp-7351-quartz';

test('a joiner waits through a crashed host and rejoins when it returns', async ({ browser }) => {
  const alice = await startCliHost({ name: 'Alice', code: CODE });
  cliHosts.push(alice);
  const web = await startWebHost();
  hosts.push(web);
  const context = await browser.newContext();
  try {
    const b = await context.newPage();
    await b.goto(web.url);

    await test.step('Bob joins Alice and sees her rectangle', async () => {
      await b.getByTestId('join-tab').click();
      await b.getByTestId('join-name').fill('Bob');
      await b.getByTestId('join-address').fill(`127.0.0.1:${alice.port}`);
      await b.getByTestId('join-code').fill(CODE);
      await b.getByTestId('join-button').click();
      await expect(b.getByTestId('board-stage')).toBeVisible();
      alice.send({ cmd: 'create', kind: 'rect', x: 100, y: 100, w: 160, h: 90 });
      await expect(objectsOf(b)).toHaveCount(1);
      await expect(b.getByRole('status').filter({ hasText: 'Connected to Alice' })).toBeVisible();
    });

    await test.step('Alice crashes: Bob sees Reconnecting, keeps the board, read-only, and can save it', async () => {
      await alice.crash();
      await expect(b.getByTestId('host-away')).toBeVisible();
      await expect(
        b.getByRole('status').filter({ hasText: 'Reconnecting to Alice' }),
      ).toBeVisible();
      await expect(objectsOf(b)).toHaveCount(1);
      await expect(b.getByTestId('tool-rect')).toBeDisabled();
      await expect(b.getByTestId('host-away-save')).toBeVisible();
      await expect(b.getByText("Couldn't host")).toHaveCount(0);
    });

    await test.step('a host returns at the same address with the same code: Bob is back by himself', async () => {
      const back = await startCliHost({ name: 'Alice', code: CODE, port: alice.port });
      cliHosts.push(back);
      // The retries come at 1, 2, 4 and 8 s, then every 15 s: within 20 s of the return.
      await expect(b.getByRole('status').filter({ hasText: 'Connected to Alice' })).toBeVisible({
        timeout: 30_000,
      });
      await expect(b.getByTestId('host-away')).toBeHidden();
      await expect(b.getByTestId('tool-rect')).toBeEnabled();
      back.send({ cmd: 'create', kind: 'ellipse', x: 300, y: 100, w: 80, h: 80 });
      await expect(objectsOf(b)).toHaveCount(1);
    });
  } finally {
    await context.close();
  }
});
