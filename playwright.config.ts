// End-to-end tests (test/e2e/*.spec.ts) in Debian's Chromium against the web host, and in Electron where a
// binary exists. Each test starts its own hosts on free ports; nothing here serves the app.
import { existsSync } from 'node:fs';
import { chromium, defineConfig } from '@playwright/test';

/**
 * The Chromium the tests drive: GB_CHROMIUM, else the system's (Debian's first), else Playwright's own where
 * `npx playwright install chromium` could download it. None: one line saying what to do, not a stack trace per
 * test.
 */
function findChromium(): string {
  const asked = process.env.GB_CHROMIUM;
  if (asked !== undefined) {
    if (existsSync(asked)) return asked;
    fail(`GB_CHROMIUM=${asked} does not exist.`);
  }
  const found = [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    chromium.executablePath(),
  ].find((p) => p !== '' && existsSync(p));
  if (found === undefined)
    fail(
      "no Chromium found. Install Debian's (`sudo apt-get install chromium`), or Playwright's own where it can be downloaded (`npx playwright install chromium`), or set GB_CHROMIUM=/path/to/chrome.",
    );
  return found;
}

function fail(why: string): never {
  console.error(`The browser tests need a Chromium: ${why}`);
  process.exit(1);
}

const CHROMIUM = findChromium();

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '*.spec.ts',
  // Screenshots, traces and failure artefacts (git-ignored).
  outputDir: 'test-results',
  // Hang guards only: each test waits on events, not on time.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    // A missing element fails its step quickly instead of waiting out the test's hang guard.
    actionTimeout: 20_000,
    navigationTimeout: 30_000,
    // Panels rise into place (a CSS animation): measured mid-flight they sit a few pixels off. Tests assert where
    // things end up, so the page runs with reduced motion (the app honours it: no animations).
    contextOptions: { reducedMotion: 'reduce' },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    // Playwright gives every launch a fresh temporary profile (user-data dir) of its own.
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
