// Test runner configuration. Files run in forks so each suite gets its own Redis database /
// SQLite file; the suite is sized for a 2-core machine.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default'],
  },
});
