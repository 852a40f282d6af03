// Test runner configuration. Files run in forks so each suite gets its own Redis database /
// SQLite file; the suite is sized for a 2-core machine. The global setup builds dist/ when it is
// stale, because the tests that spawn `tcs` run the compiled code.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default'],
  },
});
