import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Playwright specs (*.spec.ts) are run by Playwright, never by vitest.
    include: [
      'src-main/**/*.test.ts',
      'shared/**/*.test.ts',
      'src-renderer/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    // A hang guard only (tests are bounded by construction); CI machines can be slow and shared.
    testTimeout: 300_000,
    pool: 'forks',
  },
});
