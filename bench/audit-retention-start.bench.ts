/**
 * Issue 35, "Done when": a long `tcs start` at fast cycles keeps the hot store flat while
 * `tcs audit archive` runs beside it as cron would. Two real systems run at once: one on a
 * redis-server of its own (so `INFO memory` is its alone) archiving to `file:`, one on a SQLite
 * file archiving to a PostgreSQL database of its own (dropped after). Each is sampled through the
 * run (Redis used_memory; the SQLite file and its -wal), and at the end `tcs audit verify` must
 * pass and the archive's bytes per cycle are read. Nothing is asserted.
 *
 * Run: `node bin/run-ts.mjs bench/audit-retention-start.bench.ts` (AUDIT_BENCH_MINUTES, default 20;
 * AUDIT_BENCH_CYCLE_SECONDS, default 0.05; AUDIT_BENCH_RETAIN entries, default 3000;
 * AUDIT_BENCH_ARCHIVE_EVERY_S, default 20).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateKey } from '../src/domain/keys.js';
import { createTestDatabase } from '../test/support/postgres.js';
import type { TestDatabase } from '../test/support/postgres.js';
import { startOwnRedis } from '../test/support/redis-server.js';
import type { OwnRedis } from '../test/support/redis-server.js';
import { PERMISSIVE_ENV } from '../test/support/trading.js';
import { archiveBytes, flatness, openSampler, runTcs } from './audit-retention-support.js';
import type { StoreSample, StoreSampler } from './audit-retention-support.js';
import { mb } from './stats.js';
import { REPO_ROOT, printResult, runDirectly } from './support.js';
import type { BenchResult, Figure } from './support.js';

const MINUTES = Number(process.env.AUDIT_BENCH_MINUTES ?? 20);
const CYCLE_SECONDS = process.env.AUDIT_BENCH_CYCLE_SECONDS ?? '0.05';
const RETAIN = Number(process.env.AUDIT_BENCH_RETAIN ?? 3000);
const ARCHIVE_EVERY_MS = Number(process.env.AUDIT_BENCH_ARCHIVE_EVERY_S ?? 20) * 1000;
const SAMPLE_EVERY_MS = 5000;
const COMMAND = 'node bin/run-ts.mjs bench/audit-retention-start.bench.ts';

interface Setup {
  label: string;
  store: 'redis' | 'sqlite';
  archive: 'file' | 'postgres';
}

interface RunOutcome {
  setup: Setup;
  /** Samples taken right after each archive run (the window at its smallest, comparable run to run). */
  afterArchive: StoreSample[];
  all: StoreSample[];
  archiveRuns: number;
  archiveFailures: string[];
  archiveMs: number[];
  verify: { code: number; ms: number; output: string };
  archiveBytes: number;
  archivedEntries: number;
  cycles: number;
  entries: number;
  stderrTail: string;
}

/** One `tcs start` on its own store and archive, sampled and archived on schedule until `ms` has passed. */
async function runOne(setup: Setup, ms: number): Promise<RunOutcome> {
  const dir = mkdtempSync(join(tmpdir(), `tcs-retention-${setup.store}-`));
  let redis: OwnRedis | null = null;
  let db: TestDatabase | null = null;
  let system: ChildProcess | null = null;
  let sampler: StoreSampler | null = null;
  try {
    redis = setup.store === 'redis' ? await startOwnRedis() : null;
    db = setup.archive === 'postgres' ? await createTestDatabase() : null;
    const env: Record<string, string> = {
      ...PERMISSIVE_ENV,
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      CYCLE_SECONDS,
      SERVICE_API_KEY: generateKey(),
      RISK_HMAC_SECRET: generateKey(),
      CONTROL_SECRET: generateKey(),
      STORE_URL: redis ? redis.url : `sqlite:${join(dir, 'tcs.db')}`,
      AUDIT_RETAIN: String(RETAIN),
      AUDIT_ARCHIVE_URL: db ? db.url : `file:${join(dir, 'archive')}`,
      PORT: '0',
      LOG_LEVEL: 'silent',
      STORE_TIMEOUT_MS: '3000',
    };
    let stderr = '';
    system = spawn('nice', ['-n', '10', process.execPath, join(REPO_ROOT, 'bin/tcs.mjs'), 'start'], {
      env,
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    system.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    // The first sample waits for the process to have created its store (SQLite's schema).
    await waitForStore(() => runTcs(['audit', 'verify'], env, dir));
    sampler = await openSampler(env.STORE_URL!, redis?.port ?? null, join(dir, 'tcs.db'));
    const sample = sampler.sample;

    const all: StoreSample[] = [];
    const afterArchive: StoreSample[] = [];
    const archiveFailures: string[] = [];
    const archiveMs: number[] = [];
    let archiveRuns = 0;
    const t0 = performance.now();
    let nextArchive = t0 + ARCHIVE_EVERY_MS;
    let nextSample = t0;
    while (performance.now() - t0 < ms) {
      if (system.exitCode !== null) throw new Error(`${setup.label}: tcs start exited (${system.exitCode}): ${stderr}`);
      const now = performance.now();
      if (now >= nextArchive) {
        nextArchive += ARCHIVE_EVERY_MS;
        const run = await runTcs(['audit', 'archive'], env, dir);
        archiveRuns += 1;
        archiveMs.push(run.ms);
        if (run.code !== 0) archiveFailures.push(run.output.slice(-300));
        afterArchive.push(await sample());
      } else if (now >= nextSample) {
        nextSample += SAMPLE_EVERY_MS;
        all.push(await sample());
      } else {
        await new Promise((r) => setTimeout(r, Math.min(nextArchive, nextSample) - now));
      }
    }
    const last = await sample();
    system.kill('SIGTERM');
    await new Promise((r) => system!.once('exit', r));
    system = null;
    // A last archive run, then verification across archive and store as one chain.
    await runTcs(['audit', 'archive'], env, dir);
    const verify = await runTcs(['audit', 'verify'], env, dir);
    const bytes = await archiveBytes(env.AUDIT_ARCHIVE_URL!, db);
    return {
      setup,
      afterArchive,
      all,
      archiveRuns,
      archiveFailures,
      archiveMs,
      verify,
      archiveBytes: bytes.bytes,
      archivedEntries: bytes.entries,
      cycles: last.cycle,
      entries: last.head,
      stderrTail: stderr.slice(-500),
    };
  } finally {
    await sampler?.close();
    if (system && system.exitCode === null) {
      system.kill('SIGKILL');
      await new Promise((r) => system!.once('exit', r));
    }
    await redis?.cleanup();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchResult> {
  const t0 = performance.now();
  const setups: Setup[] = [
    { label: 'Redis store, file: archive', store: 'redis', archive: 'file' },
    { label: 'SQLite store, PostgreSQL archive', store: 'sqlite', archive: 'postgres' },
  ];
  const outcomes = await Promise.all(setups.map((s) => runOne(s, MINUTES * 60_000)));
  const figures: Figure[] = [];
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const o of outcomes) {
    const metric = o.setup.store === 'redis' ? 'Redis used_memory' : 'SQLite file + -wal';
    const flat = flatness(o.afterArchive, o.setup.store);
    const perCycle = o.archivedEntries > 0 ? (o.archiveBytes / o.archivedEntries) * (o.entries / o.cycles) : NaN;
    const perEntry = o.archivedEntries > 0 ? o.archiveBytes / o.archivedEntries : NaN;
    rows.push([
      o.setup.label,
      o.cycles.toLocaleString('en-US'),
      o.entries.toLocaleString('en-US'),
      `${o.archiveRuns} (${o.archiveFailures.length} failed)`,
      flat ? `${mb(flat.first)} → ${mb(flat.last)}` : 'window never filled',
      flat ? `${(flat.maxDeviation * 100).toFixed(1)} %` : '—',
      `${perEntry.toFixed(0)} B / entry, ${perCycle.toFixed(0)} B / cycle`,
      o.verify.code === 0 ? `passed (${(o.verify.ms / 1000).toFixed(1)} s)` : `**failed** (exit ${o.verify.code})`,
    ]);
    figures.push({
      figure: `${metric} over a ${MINUTES}-minute \`tcs start\` at ${CYCLE_SECONDS} s cycles, archived every ${ARCHIVE_EVERY_MS / 1000} s (${o.setup.archive === 'file' ? 'file:' : 'PostgreSQL'})`,
      aim: 'flat (± 10 %) once the window is full',
      latest: flat
        ? `${mb(flat.first)} → ${mb(flat.last)}, max deviation ${(flat.maxDeviation * 100).toFixed(1)} % over ${o.cycles.toLocaleString('en-US')} cycles; ${o.archiveFailures.length} of ${o.archiveRuns} archive runs failed; verify ${o.verify.code === 0 ? 'passed' : 'FAILED'}`
        : 'window never filled',
      met: flat ? flat.maxDeviation <= 0.1 && o.verify.code === 0 : null,
    });
    figures.push({
      figure: `archive bytes per cycle, real \`tcs start\` cycles (${o.setup.archive === 'file' ? 'file:' : 'PostgreSQL'})`,
      aim: '—',
      latest: `${perCycle.toFixed(0)} B / cycle (${perEntry.toFixed(0)} B / entry, ${(o.entries / o.cycles).toFixed(2)} entries / cycle; ${o.archivedEntries.toLocaleString('en-US')} entries archived)`,
      met: null,
    });
    if (o.archiveFailures.length > 0)
      notes.push(`${o.setup.label}: archive failures: ${o.archiveFailures.join(' | ')}`);
    if (o.verify.code !== 0) notes.push(`${o.setup.label}: verify output: ${oneLine(o.verify.output.slice(-500))}`);
    const sorted = [...o.archiveMs].sort((a, b) => a - b);
    notes.push(
      `${o.setup.label}: \`tcs audit archive\` took ${(sorted[Math.floor(sorted.length / 2)]! / 1000).toFixed(1)} s median, ${(sorted.at(-1)! / 1000).toFixed(1)} s max (process start included); store between archive runs: ${sawtooth(o.all, o.setup.store)}`,
    );
  }
  const result: BenchResult = {
    id: 'audit-retention-start',
    title: `Hot store over a ${MINUTES}-minute \`tcs start\` with archiving (issue 35)`,
    command: COMMAND,
    method: [
      `Two real \`tcs start\` systems at once (paper, synthetic market, CYCLE_SECONDS=${CYCLE_SECONDS}, 2 symbols, nice -n 10): one on a redis-server of its own archiving to \`file:\`, one on a SQLite file archiving to a PostgreSQL database of its own (dropped after).`,
      `AUDIT_RETAIN=${RETAIN} entries; \`tcs audit archive\` run as a separate process every ${ARCHIVE_EVERY_MS / 1000} s, as cron would.`,
      'The store is sampled right after each archive run (the window at its smallest); "flat" compares those samples from the first one taken with the window full (floor > 0) to the last: max |sample − first| / first.',
      'Archive bytes: the file: directory (gzip segments) or pg_total_relation_size of the three archive tables; per cycle = per entry × entries per cycle.',
      'At the end the system is stopped, archived once more, and `tcs audit verify` run across archive and store.',
    ],
    tables: [
      {
        headers: [
          'run',
          'cycles',
          'entries',
          'archive runs',
          'store (first full → last)',
          'max deviation',
          'archive',
          'verify',
        ],
        rows,
      },
    ],
    aims: figures.filter((f) => f.met !== null).map((f) => ({ text: `${f.figure}: ${f.aim}`, met: f.met })),
    figures,
    notes,
    seconds: (performance.now() - t0) / 1000,
    data: outcomes.map((o) => ({ ...o, all: o.all, afterArchive: o.afterArchive })),
  };
  printResult(result);
  return result;
}

/** Waits (bounded) until `check` exits 0: the trading process has created its store and appended. */
async function waitForStore(check: () => Promise<{ code: number }>): Promise<void> {
  const t0 = performance.now();
  while ((await check()).code !== 0) {
    if (performance.now() - t0 > 60_000) throw new Error('the store was not ready after 60 s');
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A command's output as one Markdown list item's text. */
const oneLine = (text: string) => text.trim().replace(/\s*\n\s*/g, ' / ');

function sawtooth(samples: StoreSample[], store: 'redis' | 'sqlite'): string {
  const full = samples.filter((s) => s.floor > 0).map((s) => (store === 'redis' ? s.usedMemory! : s.fileBytes!));
  if (full.length === 0) return 'no sample with the window full';
  return `${mb(Math.min(...full))}–${mb(Math.max(...full))} over ${full.length} samples`;
}

runDirectly(run);
