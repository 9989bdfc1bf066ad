// Joining by invite link, in Chromium against two web hosts and a directory on loopback: A hosts through the
// directory and copies the link from the share panel; B pastes it (no code typed) and gets in; both list each
// other, B shows the path, and B's recent sessions keep the link without its code.
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from '@playwright/test';
import type { RunningDirectory } from './harness/directory';
import { startDirectory } from './harness/directory';
import type { RunningHost } from './harness/web-host';
import { startWebHost } from './harness/web-host';

const hosts: RunningHost[] = [];
const directories: RunningDirectory[] = [];

test.afterEach(async () => {
  await Promise.all([
    ...hosts.splice(0).map((h) => h.stop()),
    ...directories.splice(0).map((d) => d.stop()),
  ]);
});

async function shoot(page: Page, info: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: info.outputPath(`${name}.png`) });
}

/** The people list shows everyone named (opened from the avatars, shot, closed again). */
async function expectPeople(
  page: Page,
  names: readonly string[],
  info: TestInfo,
  shot: string,
): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${names.length} people here`) }).click();
  const people = page.getByRole('region', { name: 'People', exact: true });
  for (const n of names)
    await expect(people.getByRole('listitem').filter({ hasText: n })).toHaveCount(1);
  await shoot(page, info, shot);
  await people.getByRole('button', { name: 'Close' }).click();
}

test('join by invite link through a directory: no address, no code typed', async ({
  browser,
}, info) => {
  const directory = await startDirectory();
  directories.push(directory);
  const [hostA, hostB] = await Promise.all([
    startWebHost({ args: ['--directory', directory.address] }),
    startWebHost(),
  ]);
  hosts.push(hostA, hostB);
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  try {
    const a = await contextA.newPage();
    const b = await contextB.newPage();
    await Promise.all([a.goto(hostA.url), b.goto(hostB.url)]);

    await test.step('A hosts through the directory and reads the link from the share panel', async () => {
      await a.getByTestId('host-name').fill('Alice');
      // With a directory set, hosting through it is the default.
      await expect(a.getByTestId('reach-directory')).toBeChecked();
      await a.getByTestId('host-button').click();
      await expect(a.getByTestId('board-stage')).toBeVisible();
      await expect(a.getByTestId('share-link')).toHaveText(
        /^ghostboard:\/\/join\/127\.0\.0\.1:\d+\/\S+#\S+$/,
      );
      await expect(a.getByTestId('copy-link')).toBeVisible();
      await expect(a.getByTestId('share-listing')).toHaveText('Listed on 1 of 1 directory');
      await expect(a.getByTestId('share-visibility')).toHaveText(/^Unlisted/);
      await shoot(a, info, '1-a-share');
    });
    const link = ((await a.getByTestId('share-link').textContent()) ?? '').trim();
    const code = decodeURIComponent(link.slice(link.indexOf('#') + 1));
    expect(link).toContain(directory.address);

    await test.step('B pastes the link: recognized, code filled from it, joins', async () => {
      await b.getByTestId('join-tab').click();
      await b.getByTestId('join-name').fill('Bob');
      await b.getByTestId('join-address').fill(link);
      await expect(b.getByTestId('join-address-hint')).toHaveText(
        /^Invite link — session \S+ via 1 directory$/,
      );
      await expect(b.getByTestId('join-code')).toHaveValue(code);
      await shoot(b, info, '2-b-pasted');
      await b.getByTestId('join-button').click();
      await expect(b.getByTestId('board-stage')).toBeVisible();
    });

    await test.step('both list each other, and B says the path it uses', async () => {
      await expectPeople(a, ['Alice', 'Bob'], info, '3-a-people');
      await expectPeople(b, ['Alice', 'Bob'], info, '3-b-people');
      await expect(b.getByTestId('path-badge')).toHaveText(/^(Direct|Same network|Relayed)$/);
      await b.getByTestId('bandwidth-toggle').click();
      await expect(b.getByTestId('peer-path')).toHaveText(/^(Direct|LAN|Relayed)$/);
      await shoot(b, info, '3-b-joined');
      await shoot(a, info, '3-a-joined');
    });

    await test.step("B leaves: the session is among B's recent ones, without its code", async () => {
      await b.getByRole('button', { name: 'Leave the session' }).click();
      await expect(b.getByTestId('recent-session')).toHaveCount(1);
      await expect(b.getByTestId('recent-session')).toContainText('Alice');
      const stored = String(await b.evaluate('localStorage.getItem("ghostboard.recent") ?? ""'));
      expect(stored).toContain(link.slice(0, link.indexOf('#')));
      expect(stored).not.toContain('#');
      expect(stored).not.toContain(code);
      await shoot(b, info, '4-b-recent');
    });
  } finally {
    await contextA.close();
    await contextB.close();
  }
});
