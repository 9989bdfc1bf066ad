// Failover, in Chromium against a web host: Bob joins by a link naming two hosts of one session (headless hosts
// with one code); the second is down at first, so he joins Alice. Alice's process is killed outright: Bob is told
// "Reconnecting to another host…" (never an ended session), the board still on screen and read-only; the second
// host comes up at its address, and Bob is on it by himself, showing its board.
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

const CODE = 'mirror-orbit-lamp-7352-quartz';

test('a joiner whose host dies moves to another host of the session', async ({ browser }) => {
  const alice = await startCliHost({ name: 'Alice', code: CODE });
  cliHosts.push(alice);
  // The second host's address, free again: it comes up there later.
  const first = await startCliHost({ name: 'Bea', code: CODE });
  const beaPort = first.port;
  await first.crash();
  const web = await startWebHost();
  hosts.push(web);
  const context = await browser.newContext();
  try {
    const b = await context.newPage();
    await b.goto(web.url);

    await test.step('Bob joins by a link naming both hosts: Alice answers, he is on her board', async () => {
      await b.getByTestId('join-tab').click();
      await b.getByTestId('join-name').fill('Bob');
      await b
        .getByTestId('join-address')
        .fill(`ghostboard://direct/127.0.0.1:${alice.port},127.0.0.1:${beaPort}#${CODE}`);
      await b.getByTestId('join-button').click();
      await expect(b.getByTestId('board-stage')).toBeVisible();
      alice.send({ cmd: 'create', kind: 'rect', x: 100, y: 100, w: 160, h: 90 });
      await expect(objectsOf(b)).toHaveCount(1);
      await expect(b.getByRole('status').filter({ hasText: 'Connected to Alice' })).toBeVisible();
    });

    await test.step('Alice crashes: Bob is reconnecting to another host, the board kept, read-only', async () => {
      await alice.crash();
      await expect(
        b.getByRole('status').filter({ hasText: 'Reconnecting to another host…' }),
      ).toBeVisible();
      await expect(b.getByTestId('host-away')).toContainText('Reconnecting to another host');
      await expect(objectsOf(b)).toHaveCount(1);
      await expect(b.getByTestId('tool-rect')).toBeDisabled();
    });

    await test.step('the other host comes up: Bob is on it by himself, with its board', async () => {
      const bea = await startCliHost({ name: 'Bea', code: CODE, port: beaPort });
      cliHosts.push(bea);
      bea.send({ cmd: 'create', kind: 'ellipse', x: 300, y: 100, w: 80, h: 80 });
      bea.send({ cmd: 'create', kind: 'ellipse', x: 500, y: 100, w: 80, h: 80 });
      // Its handshake is retried for 10 s, and after that every host is probed again with backoff.
      await expect(b.getByRole('status').filter({ hasText: 'Connected to Bea' })).toBeVisible({
        timeout: 30_000,
      });
      await expect(b.getByTestId('host-away')).toBeHidden();
      await expect(b.getByTestId('tool-rect')).toBeEnabled();
      await expect(objectsOf(b)).toHaveCount(2);
      await expect(b.getByText("Couldn't host")).toHaveCount(0);
    });
  } finally {
    await context.close();
  }
});
