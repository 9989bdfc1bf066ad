// Joining by invite link, in Chromium against web hosts and a directory on loopback: A hosts through the
// directory and copies the link from the share panel; B pastes it (no code typed) and gets in; both list each
// other and B shows the path; B's recent sessions keep the link without its code; C's web host is started on
// the link (as the OS opens one) and C only types a name; B rejoins from its recent sessions with the code.
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

test('join by invite link through a directory: pasted, opened by the OS, again from recent', async ({
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
  const contextC = await browser.newContext();
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
      // The per-connection cards are the panel's engineering details, one click away.
      await b.getByTestId('bandwidth-details').click();
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

    await test.step('a link the OS opened: C finds Join filled in, sets a directory, types a name, joins', async () => {
      const hostC = await startWebHost({ args: ['--join', link] });
      hosts.push(hostC);
      const c = await contextC.newPage();
      await c.goto(hostC.url);
      await expect(c.getByTestId('join-address')).toHaveValue(link);
      await expect(c.getByTestId('join-address-hint')).toHaveText(/^Invite link — session/);
      await expect(c.getByTestId('join-code')).toHaveValue(code);
      // The directory setting: the core's refusal is shown, a good entry is kept.
      await c.getByTestId('directory-settings').locator('summary').click();
      await c.getByTestId('directory-input').fill('not a directory');
      await c.getByTestId('directory-add').click();
      await expect(c.getByTestId('directory-refused')).toContainText('HOST:PORT');
      await c.getByTestId('directory-input').fill(directory.address);
      await c.getByTestId('directory-add').click();
      await expect(c.getByTestId('directory-entry')).toHaveText(directory.address);
      await expect(c.getByTestId('directory-refused')).toHaveCount(0);
      await c.getByTestId('join-name').fill('Carol');
      await shoot(c, info, '5-c-opened-link');
      await c.getByTestId('join-button').click();
      await expect(c.getByTestId('board-stage')).toBeVisible();
      await expectPeople(a, ['Alice', 'Carol'], info, '5-a-people');
    });

    await test.step('B joins again from its recent sessions, typing only the code', async () => {
      await b.getByTestId('recent-session').click();
      await expect(b.getByTestId('join-address')).toHaveValue(link.slice(0, link.indexOf('#')));
      await expect(b.getByTestId('join-address-hint')).toHaveText(/\(enter the code\)$/);
      await expect(b.getByTestId('join-name')).toHaveValue('Bob');
      await expect(b.getByTestId('join-button')).toBeDisabled();
      await b.getByTestId('join-code').fill(code);
      await b.getByTestId('join-button').click();
      await expect(b.getByTestId('board-stage')).toBeVisible();
      await expectPeople(a, ['Alice', 'Bob', 'Carol'], info, '6-a-people');
    });
  } finally {
    await contextA.close();
    await contextB.close();
    await contextC.close();
  }
});
