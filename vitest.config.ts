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
    // Threads, not forks: vitest 4's forks pool was seen parked forever here after a file finished (main and
    // worker asleep, no output); scripts/run-bounded.js also guards the run. Tests keep no process-wide state.
    pool: 'threads',
    // A teardown that never finishes fails the run instead of hanging it.
    teardownTimeout: 20_000,
  },
});
