// Test runner configuration. Files run in forks so each suite gets its own Redis database /
// SQLite file; the suite is sized for a 2-core machine. The global setup builds dist/ when it is
// stale, because the tests that spawn `tcs` run the compiled code.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // strategies/: where `tcs strategy new` writes a user's strategy and its test.
    include: ['test/**/*.test.ts', 'strategies/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // Vitest's default for `run` is one fork per core minus one: a single fork on this 2-core machine,
    // so every file ran in turn. The slow files (e2e, cli, api concurrency) mostly wait on child
    // processes and timers, so one fork more than there are cores overlaps those waits: measured here,
    // the whole suite took 50.7 s with 2 forks and 34.8 s with 3 (all passing, others loading the box).
    maxWorkers: Math.max(3, availableParallelism()),
    // Each fork keeps its module graph from one test file to the next instead of importing xstate,
    // Fastify, TypeBox, ioredis… again for every file: the unit directories (domain, machines,
    // application, console, strategies: 52 files) took 13 s of CPU instead of 30 s, under the same
    // load. Safe here because no test file mocks a module or stubs a global, fake timers are put back
    // in afterEach, metrics live in per-instance registries, and each file closes what it opens;
    // every file passed run this way. A file that needs a fresh module graph would need isolate back.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Under CI also a JSON report, which .ci/run prints the failures of (bin/test-failures.mjs) when
    // the suite fails: the default reporter's summary of failures has gone missing from CI logs.
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-artifacts/vitest.json' }]] : ['default'],
  },
});
