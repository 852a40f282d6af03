/**
 * Issue 35, item 5: the hot store stays flat over a year of 60 s cycles (525,600, past the issue's
 * 500,000) once the audit window is full. `tcs simulate` writes a private run file with no
 * retention, so the trading system's own cycle (the whole actor system on a SimulatedClock,
 * bench/trading.ts) writes the first REAL_CYCLES cycles' entries into a real store, and those are
 * replayed in order through the store's own append (a real cycle costs ~10 ms here: 525,600 of them
 * would take well over an hour). Two stores, each in a child process (TCS_BENCH_ROLE=retention-cycles),
 * at once: a redis-server of the bench's own archived to `file:`, and a SQLite file archived to a
 * PostgreSQL database of its own (dropped after). Every ARCHIVE_EVERY cycles the archive-then-trim of
 * `tcs audit archive` runs (archiveAndTrim, on a second store connection, as cron would) and the
 * store is sampled. At the end the real `tcs audit verify` is timed: --full, and incrementally with
 * nothing new and with one new segment. Nothing is asserted.
 *
 * Run: `node bin/run-ts.mjs bench/audit-retention-cycles.bench.ts` (AUDIT_CYCLES_BENCH_CYCLES,
 * default 525600; AUDIT_CYCLES_BENCH_REAL_CYCLES, default 2000; AUDIT_CYCLES_BENCH_RETAIN entries,
 * default 10080; AUDIT_CYCLES_BENCH_ARCHIVE_EVERY cycles, default 5000).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { fileArchive } from '../src/adapters/archive/file-archive.js';
import { postgresArchive } from '../src/adapters/archive/postgres-archive.js';
import { openStore } from '../src/adapters/open-store.js';
import { archiveAndTrim } from '../src/application/audit-archiver.js';
import { createTestDatabase } from '../test/support/postgres.js';
import { initialised } from '../test/support/stores.js';
import type { TestDatabase } from '../test/support/postgres.js';
import { startOwnRedis } from '../test/support/redis-server.js';
import type { OwnRedis } from '../test/support/redis-server.js';
import type { AuditEvent } from '../src/ports/event-store.js';
import type { Store } from '../src/ports/store.js';
import { archiveBytes, flatness, openSampler, runTcs } from './audit-retention-support.js';
import type { StoreSample } from './audit-retention-support.js';
import { mb } from './stats.js';
import { REPO_ROOT, printResult, runDirectly, sendToParent } from './support.js';
import type { BenchResult, Figure } from './support.js';
import { openSimulatedTrading } from './trading.js';

/** A year of 60 s cycles: the store's flatness and the verify time for a year from one run. */
const CYCLES = Number(process.env.AUDIT_CYCLES_BENCH_CYCLES ?? 525_600);
/** Cycles the trading system runs itself; their entries are then replayed (a real cycle costs ~10 ms here). */
const REAL_CYCLES = Number(process.env.AUDIT_CYCLES_BENCH_REAL_CYCLES ?? 2000);
const RETAIN = Number(process.env.AUDIT_CYCLES_BENCH_RETAIN ?? 10_080);
const ARCHIVE_EVERY = Number(process.env.AUDIT_CYCLES_BENCH_ARCHIVE_EVERY ?? 5000);
const COMMAND = 'node bin/run-ts.mjs bench/audit-retention-cycles.bench.ts';
const THIS_FILE = fileURLToPath(import.meta.url);

type Kind = 'redis' | 'sqlite';

interface ChildResult {
  kind: Kind;
  samples: StoreSample[];
  cycles: number;
  entries: number;
  realCyclesPerS: number;
  appendsPerS: number;
  recorded: number;
  archiveMsPerEntry: number;
  archiveBytes: number;
  archivedEntries: number;
  verifyFull: { code: number; ms: number; output: string };
  verifyNothingNew: { code: number; ms: number; output: string };
  verifyOneSegment: { code: number; ms: number; output: string };
  /** SQLite only: the file's pages and free pages at the end (freelist reuse keeps the file flat). */
  pages?: { pageCount: number; freelist: number };
}

/** The child: one store, its archive, CYCLES real cycles with archiving, then verification. */
/** Every entry of the store, oldest first (before anything was trimmed). */
async function readAll(store: Store): Promise<AuditEvent[]> {
  const out: AuditEvent[] = [];
  for (let before: number | undefined; ;) {
    const page = await store.events.query({ limit: 1000, ...(before ? { before } : {}) });
    out.push(...page);
    if (page.length < 1000) break;
    before = page.at(-1)!.seq;
  }
  return out.reverse();
}

async function runChild(kind: Kind): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `tcs-retention-cycles-${kind}-`));
  let redis: OwnRedis | null = null;
  let db: TestDatabase | null = null;
  try {
    redis = kind === 'redis' ? await startOwnRedis() : null;
    db = kind === 'sqlite' ? await createTestDatabase() : null;
    const sqlitePath = join(dir, 'tcs.db');
    const url = redis ? redis.url : `sqlite:${sqlitePath}`;
    const archiveUrl = db ? db.url : `file:${join(dir, 'archive')}`;
    const store = await initialised(await openStore(url));
    const cron = await openStore(url);
    const archive = db ? postgresArchive(db.url) : fileArchive(join(dir, 'archive'));
    const sampler = await openSampler(url, redis?.port ?? null, sqlitePath);
    // Phase 1: real cycles of the trading system write the first entries; they are recorded.
    const trading = await openSimulatedTrading(store, url, { CYCLE_SECONDS: '60' });
    const r0 = performance.now();
    for (let i = 1; i < REAL_CYCLES; i++) await trading.cycle();
    const realCyclesPerS = REAL_CYCLES / ((performance.now() - r0) / 1000);
    await trading.system.stop('benchmark over');
    const recorded = await readAll(store);
    let cycle = recorded.filter((e) => e.kind === 'decision').length;
    let next = 0;
    /** Appends the next recorded entry again through the store's own append, as the next cycle's. */
    const appendNext = async () => {
      const e = recorded[next++ % recorded.length]!;
      const body = e.kind === 'decision' ? { ...e.body, cycle: ++cycle } : e.body;
      await store.events.append({ kind: e.kind, symbol: e.symbol, at: new Date().toISOString(), body });
    };
    // Phase 2: the recorded entries replayed in order up to CYCLES cycles, archived as cron would.
    const samples: StoreSample[] = [];
    let archiveMs = 0;
    let archived = 0;
    let lastArchivedAt = 0;
    const t0 = performance.now();
    while (cycle < CYCLES) {
      await appendNext();
      if (cycle < lastArchivedAt + ARCHIVE_EVERY) continue;
      lastArchivedAt = cycle;
      const a0 = performance.now();
      const run = await archiveAndTrim(cron.events, archive, { entries: RETAIN }, Date.now());
      archiveMs += performance.now() - a0;
      archived += run.archived;
      samples.push(await sampler.sample());
      if (samples.length % 10 === 0)
        console.error(
          `[${kind}] ${cycle} cycles, ${((performance.now() - t0) / 1000).toFixed(0)} s, ${JSON.stringify(samples.at(-1))}`,
        );
    }
    const appendsPerS = (next / (performance.now() - t0 - archiveMs)) * 1000;
    const last = await sampler.sample();
    await sampler.close();
    await archive.close();
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      STORE_URL: url,
      AUDIT_RETAIN: String(RETAIN),
      AUDIT_ARCHIVE_URL: archiveUrl,
      STORE_TIMEOUT_MS: '3000',
    };
    // Everything archived so far re-hashed, then the incremental cases: nothing new since, and one
    // new segment (1,000 more entries archived by the real command).
    const verifyFull = await runTcs(['audit', 'verify', '--full'], env, dir);
    const verifyNothingNew = await runTcs(['audit', 'verify'], env, dir);
    for (let i = 0; i < 1000; i++) await appendNext();
    await runTcs(['audit', 'archive'], env, dir);
    const verifyOneSegment = await runTcs(['audit', 'verify'], env, dir);
    let pages: ChildResult['pages'];
    if (kind === 'sqlite') {
      const { default: Database } = await import('better-sqlite3');
      const file = new Database(sqlitePath, { readonly: true });
      pages = {
        pageCount: Number(file.pragma('page_count', { simple: true })),
        freelist: Number(file.pragma('freelist_count', { simple: true })),
      };
      file.close();
    }
    await cron.close();
    await store.close();
    const bytes = await archiveBytes(archiveUrl, db);
    const result: ChildResult = {
      kind,
      samples,
      cycles: last.cycle,
      entries: last.head,
      realCyclesPerS,
      appendsPerS,
      recorded: recorded.length,
      archiveMsPerEntry: archiveMs / Math.max(archived, 1),
      archiveBytes: bytes.bytes,
      archivedEntries: bytes.entries,
      verifyFull,
      verifyNothingNew,
      verifyOneSegment,
      ...(pages ? { pages } : {}),
    };
    await sendToParent(result);
  } finally {
    await redis?.cleanup();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function forkChild(kind: Kind): Promise<ChildResult> {
  const child = fork(join(REPO_ROOT, 'bin/run-ts.mjs'), [THIS_FILE], {
    execArgv: [],
    env: { ...process.env, TCS_BENCH_ROLE: 'retention-cycles', AUDIT_CYCLES_BENCH_STORE: kind },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let result: ChildResult | null = null;
    child.on('message', (m) => (result = m as ChildResult));
    child.on('exit', (code) =>
      result ? resolve(result) : reject(new Error(`${kind} child exited ${code} without a result`)),
    );
  });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function run(): Promise<BenchResult> {
  const t0 = performance.now();
  const results = await Promise.all((['redis', 'sqlite'] as const).map(forkChild));
  const figures: Figure[] = [];
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const r of results) {
    const archiveName = r.kind === 'redis' ? 'file:' : 'PostgreSQL';
    const metric = r.kind === 'redis' ? 'Redis used_memory' : 'SQLite file + -wal';
    const flat = flatness(r.samples, r.kind);
    const perEntry = r.archiveBytes / Math.max(r.archivedEntries, 1);
    const perCycle = perEntry * (r.entries / r.cycles);
    rows.push([
      `${r.kind === 'redis' ? 'Redis' : 'SQLite'} store, ${archiveName} archive`,
      r.cycles.toLocaleString('en-US'),
      flat ? `${mb(flat.first)} → ${mb(flat.last)}` : 'window never filled',
      flat ? `${(flat.maxDeviation * 100).toFixed(1)} % (${flat.samples} samples)` : '—',
      `${perEntry.toFixed(0)} B / entry, ${perCycle.toFixed(0)} B / cycle`,
      `${r.archiveMsPerEntry.toFixed(2)} ms`,
      r.verifyFull.code === 0 ? seconds(r.verifyFull.ms) : `**failed** (${r.verifyFull.code})`,
      r.verifyNothingNew.code === 0 ? seconds(r.verifyNothingNew.ms) : `**failed** (${r.verifyNothingNew.code})`,
      r.verifyOneSegment.code === 0 ? seconds(r.verifyOneSegment.ms) : `**failed** (${r.verifyOneSegment.code})`,
    ]);
    figures.push({
      figure: `${metric} over ${CYCLES.toLocaleString('en-US')} cycles once the window is full (AUDIT_RETAIN=${RETAIN}, ${archiveName} archive)`,
      aim: 'flat (± 10 %)',
      latest: flat
        ? `${mb(flat.first)} → ${mb(flat.last)}, max deviation ${(flat.maxDeviation * 100).toFixed(1)} % over ${r.cycles.toLocaleString('en-US')} cycles`
        : 'window never filled',
      met: flat ? flat.maxDeviation <= 0.1 : null,
    });
    figures.push({
      figure: `archive bytes per cycle, trading-system cycles (${archiveName})`,
      aim: '—',
      latest: `${perCycle.toFixed(0)} B / cycle (${perEntry.toFixed(0)} B / entry; ${r.archivedEntries.toLocaleString('en-US')} entries)`,
      met: null,
    });
    figures.push({
      figure: `\`tcs audit verify\` incremental, one new segment after ${r.archivedEntries.toLocaleString('en-US')} archived entries (${archiveName})`,
      aim: '< 5 s',
      latest: `${seconds(r.verifyOneSegment.ms)} (nothing new: ${seconds(r.verifyNothingNew.ms)}; --full: ${seconds(r.verifyFull.ms)}; process start included)`,
      met: r.verifyOneSegment.code === 0 ? r.verifyOneSegment.ms < 5000 : false,
    });
    if (r.pages)
      notes.push(
        `SQLite at the end: ${r.pages.pageCount.toLocaleString('en-US')} pages, ${r.pages.freelist.toLocaleString('en-US')} on the freelist (trimmed pages are reused, so the file does not grow; it is not shrunk either).`,
      );
    notes.push(
      `${r.kind}: ${r.recorded.toLocaleString('en-US')} entries from ${REAL_CYCLES.toLocaleString('en-US')} real cycles (${r.realCyclesPerS.toFixed(0)} cycles/s), then ${r.appendsPerS.toFixed(0)} appends/s outside archiving.`,
    );
    for (const v of [r.verifyFull, r.verifyNothingNew, r.verifyOneSegment])
      if (v.code !== 0)
        notes.push(
          `${r.kind}: verify failed: ${v.output
            .slice(-400)
            .trim()
            .replace(/\s*\n\s*/g, ' / ')}`,
        );
  }
  const result: BenchResult = {
    id: 'audit-retention-cycles',
    title: `Hot store over ${CYCLES.toLocaleString('en-US')} trading-system cycles with archiving (issue 35)`,
    command: COMMAND,
    method: [
      `\`tcs simulate\` writes a private run file without retention, so the trading system's own cycle (the actor system on a SimulatedClock, 60 s cycles, the default configuration: 3 symbols, default strategies, paper venue) writes the first ${REAL_CYCLES.toLocaleString('en-US')} cycles' entries into a real store; those entries are then replayed in order through the store's own append (EventStore.append: the same chained write, decision bodies as the cycles wrote them with the cycle number advanced) up to ${CYCLES.toLocaleString('en-US')} cycles, since a real cycle costs about 10 ms on this loaded machine.`,
      "Two child processes at once: a redis-server of the bench's own archived to `file:`, and a SQLite file archived to a PostgreSQL database of its own (dropped after).",
      `AUDIT_RETAIN=${RETAIN} entries; every ${ARCHIVE_EVERY.toLocaleString('en-US')} cycles archiveAndTrim (what \`tcs audit archive\` runs) on a second store connection, then a sample; "flat" = max |sample − first| / first from the first sample with the window full.`,
      'Then `tcs audit verify --full`, `tcs audit verify` with nothing new, 1,000 more cycles archived by `tcs audit archive`, and `tcs audit verify` again (one new segment): the real command, process start included.',
    ],
    tables: [
      {
        headers: [
          'run',
          'cycles',
          'store (first full → last)',
          'max deviation',
          'archive',
          'archiving',
          'verify --full',
          'verify, nothing new',
          'verify, one new segment',
        ],
        rows,
      },
    ],
    aims: figures.filter((f) => f.met !== null).map((f) => ({ text: `${f.figure}: ${f.aim}`, met: f.met })),
    figures,
    notes,
    seconds: (performance.now() - t0) / 1000,
    data: results,
  };
  printResult(result);
  return result;
}

if (process.env.TCS_BENCH_ROLE === 'retention-cycles')
  runChild(process.env.AUDIT_CYCLES_BENCH_STORE as Kind).then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
runDirectly(run);
