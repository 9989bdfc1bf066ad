// The Chromium the browser tests and benchmarks drive, and the flags every launch takes. Knows nothing of a test.
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

/** Headless on the CPU, quiet: no sandbox (root in CI), no QUIC, no first-run, background or update traffic. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * GB_CHROMIUM, else the system's (Debian's first), else Playwright's own where `npx playwright install chromium`
 * could download it. None: one line saying what to do, not a stack trace per test.
 */
export function findChromium(): string {
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
