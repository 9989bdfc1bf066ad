// The small things people notice, in Chromium against web hosts: a viewer sees "View only"; a leave is told with
// the person's name; simulated network conditions show as a badge that survives a reload until turned off, while
// the invitation does not open again on that reload; the theme follows the system's dark or light setting.
import { expect, test } from '@playwright/test';
import { withTwoUsers } from './harness/two-users';
import { hostAndJoin } from './harness/scenario';
import type { RunningHost } from './harness/web-host';
import { startWebHost } from './harness/web-host';

const hosts: RunningHost[] = [];

test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

test('viewer, names, the impairment badge and the invitation across a reload', async ({
  browser,
}, info) => {
  await withTwoUsers(browser, hosts, async (users) => {
    const { a, b } = users;
    await hostAndJoin(users, info);

    await test.step('the host makes Bob a viewer: he sees View only', async () => {
      await expect(b.getByTestId('view-only')).toBeHidden();
      await a.getByRole('button', { name: /people here/ }).click();
      await a.getByRole('button', { name: 'Make viewer' }).click();
      await expect(b.getByTestId('view-only')).toHaveText('View only');
      await expect(b.getByTestId('tool-rect')).toBeDisabled();
      await expect(a.getByTestId('view-only')).toBeHidden();
    });

    await test.step('simulated loss shows as a badge, also after a reload; the invitation stays shut', async () => {
      await a.getByTestId('bandwidth-toggle').click();
      const loss = a.locator('label.slider', { hasText: 'Packet loss' }).locator('input');
      await loss.focus();
      for (let i = 0; i < 5; i++) await loss.press('ArrowRight');
      await expect(a.getByTestId('impairment-badge')).toContainText('% loss');
      await expect(a.getByTestId('bandwidth-summary')).toContainText(
        'Simulated network conditions are on',
      );
      await a.reload();
      await expect(a.getByTestId('board-stage')).toBeVisible();
      await expect(a.getByTestId('impairment-badge')).toContainText('% loss');
      await expect(a.getByTestId('share-port')).toBeHidden();
      await a.getByTestId('impairment-off').click();
      await expect(a.getByTestId('impairment-badge')).toBeHidden();
    });

    await test.step('Bob leaves: the host is told by name', async () => {
      await b.getByRole('button', { name: 'Leave the session' }).click();
      await expect(a.locator('.toasts')).toContainText('Bob left');
      await expect(a.locator('.toasts')).not.toContainText('peer');
    });
  });
});

test('the theme follows the system: dark chrome and a dark canvas, light again when the system is', async ({
  browser,
}) => {
  const host = await startWebHost();
  hosts.push(host);
  const context = await browser.newContext({ colorScheme: 'dark' });
  try {
    const page = await context.newPage();
    await page.goto(host.url);
    await page.getByTestId('host-name').fill('Dee');
    await page.getByTestId('host-button').click();
    await expect(page.getByTestId('board-stage')).toBeVisible();
    // A string: the e2e project has no DOM types.
    const look = () =>
      page.evaluate<{ body: string; canvas: string; filter: string }>(`(() => {
        const stage = document.querySelector('[data-testid="board-stage"]');
        return {
          body: getComputedStyle(document.body).backgroundColor,
          canvas: getComputedStyle(stage).backgroundColor,
          filter: getComputedStyle(stage.querySelector('canvas')).filter,
        };
      })()`);
    const lightness = (rgb: string) => {
      const [r = 0, g = 0, b = 0] = (rgb.match(/\d+/g) ?? []).map(Number);
      return (r + g + b) / 3;
    };
    const dark = await look();
    expect(lightness(dark.body)).toBeLessThan(60);
    expect(lightness(dark.canvas)).toBeLessThan(60);
    expect(dark.filter).toContain('invert');
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await look();
    expect(lightness(light.body)).toBeGreaterThan(200);
    expect(light.filter).toBe('none');
  } finally {
    await context.close();
  }
});
