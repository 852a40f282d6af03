// Test runner configuration. Files run in forks so each suite gets its own Redis database /
// SQLite file; the suite is sized for a 2-core machine. The global setup builds dist/ when it is
// stale, because the tests that spawn `tcs` run the compiled code.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // Vitest's default for `run` is one fork per core minus one: a single fork on this 2-core machine,
    // so every file ran in turn. The slow files (e2e, cli, api concurrency) mostly wait on child
    // processes and timers, so one fork more than there are cores overlaps those waits: measured here,
    // the whole suite took 50.7 s with 2 forks and 34.8 s with 3 (all passing, others loading the box).
    maxWorkers: Math.max(3, availableParallelism()),
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default'],
  },
});
