// The bandwidth panel's network conditions, driven as a user would: an added delay on everything a page's core
// sends. Knows nothing of the scenario.
import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';

/** Delays everything B sends by `ms`, through the bandwidth panel's network conditions; waits until it shows. */
export async function delayLink(b: Page, ms: number): Promise<void> {
  await b.getByTestId('bandwidth-toggle').click();
  const slider = b.locator('label.slider', { hasText: 'Added delay' }).locator('input');
  await slider.focus();
  for (let v = 0; v < ms; v += 10) await slider.press('ArrowRight');
  await expect(slider).toHaveValue(String(ms));
  const details = b.getByTestId('bandwidth-details');
  if ((await details.getAttribute('aria-expanded')) !== 'true') await details.click();
  const rtt = b.locator('.metric', { hasText: 'RTT' }).locator('.metric-value').first();
  await expect
    .poll(async () => Number.parseInt((await rtt.textContent()) ?? '', 10), {
      message: "B's round trip to A shows the delay (smoothed: it climbs towards it)",
    })
    .toBeGreaterThanOrEqual(ms / 2);
  await b.getByTestId('bandwidth-toggle').click();
  await expect(b.getByRole('complementary', { name: 'Bandwidth' })).toBeHidden();
}
