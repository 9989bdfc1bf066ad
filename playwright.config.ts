// End-to-end tests (test/e2e/*.spec.ts) in Debian's Chromium against the web host, and in Electron where a
// binary exists. Each test starts its own hosts on free ports; nothing here serves the app.
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './test/e2e/harness/chromium';

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
      args: CHROMIUM_ARGS,
    },
  },
});
