/**
 * Shared plumbing for the benchmarks: the result shape each benchmark returns (and run-all renders),
 * "run when executed directly", real stores on a temp SQLite file or a fresh Redis prefix (database
 * 15, label `bench`), the API listening on 127.0.0.1:0, machine load and GC watching. The trading
 * system side lives in trading.ts, so the API benchmarks do not load it. Nothing here measures.
 */
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import type { AddressInfo } from 'node:net';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { createApi } from '../src/api/create-api.js';
import { parseInstruments } from '../src/domain/instruments.js';
import type { Store } from '../src/ports/store.js';
import { generateKey } from '../src/domain/keys.js';
import { TEST_REDIS_URL } from '../test/support/redis.js';
import type { Table } from './stats.js';
import { markdownTable } from './stats.js';

export type StoreKind = 'sqlite' | 'redis';

export interface Aim {
  text: string;
  /** null when the figure could not be obtained. */
  met: boolean | null;
}

/**
 * One figure a benchmark reports, as a row of BENCHMARKS.md's table: run-all replaces the row
 * whose `figure` is the same, so the label must stay stable across runs and unique in the suite.
 */
export interface Figure {
  figure: string;
  /** The bound it is judged against ("< 10 ms"), or '—' when none is set. */
  aim: string;
  /** The value measured, with its unit and anything needed to read it. */
  latest: string;
  /** Against the aim; null when there is no aim or nothing was measured. */
  met: boolean | null;
}

/**
 * What every benchmark returns: run-all updates BENCHMARKS.md's rows from `figures` and appends
 * the whole result (method, tables, notes) to docs/develop/benchmarks-history.md.
 */
export interface BenchResult {
  id: string;
  title: string;
  /** The command that runs this benchmark alone. */
  command: string;
  /** How it was measured, one short sentence each. */
  method: string[];
  tables: Array<Table & { caption?: string }>;
  aims: Aim[];
  figures: Figure[];
  /** Observations: anything surprising, reduced runs, errors seen. */
  notes: string[];
  seconds: number;
  data: unknown;
}

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

// ---------------------------------------------------------------------------------------------
// Running a benchmark alone or from run-all

const SUITE = Symbol.for('tcs.bench.suite');

/** run-all calls this before importing the benchmarks, so they do not run themselves. */
export function markSuite(): void {
  (globalThis as Record<symbol, unknown>)[SUITE] = true;
}

/**
 * Runs `main` when the module was executed directly (`node bin/run-ts.mjs bench/<file>`), not when
 * run-all imported it, and not in a child role (`TCS_BENCH_ROLE` set: the module's own child mode).
 */
export function runDirectly(run: () => Promise<BenchResult>): void {
  if ((globalThis as Record<symbol, unknown>)[SUITE] === true || process.env.TCS_BENCH_ROLE) return;
  run().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

/** process.send that resolves once the message is handed to the IPC channel (safe before exit). */
export function sendToParent(message: unknown): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

/**
 * The result as Markdown on stdout (tables padded as prettier pads them), ready to paste into a
 * section of BENCHMARKS.md: the command, the machine's load average, the method, tables, aims, notes.
 */
export function printResult(result: BenchResult): void {
  const [one, five, fifteen] = loadavg().map((v) => v.toFixed(2));
  const out: string[] = [
    `\n### ${result.title}`,
    '',
    `Run ${new Date().toISOString()} with \`${result.command}\` (${result.seconds.toFixed(1)} s); load average at the end ${one} / ${five} / ${fifteen} (1 / 5 / 15 min) on ${availableParallelism()} cores.`,
    '',
  ];
  for (const line of result.method) out.push(`- ${line}`);
  out.push('');
  for (const table of result.tables) {
    if (table.caption) out.push(`_${table.caption}_`, '');
    out.push(markdownTable(table), '');
  }
  for (const aim of result.aims)
    out.push(`- aim: ${aim.text} → ${aim.met === null ? 'not measured' : aim.met ? 'met' : '**not met**'}`);
  for (const note of result.notes) out.push(`- ${note}`);
  console.log(out.join('\n'));
}

/** Rejects when `promise` has not settled after `ms` (the benchmark is then reported as hung). */
export async function withDeadline<T>(promise: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${label}: no result after ${Math.round(ms / 1000)} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function machine(): { nproc: number; cpu: string; node: string; memory: string; platform: string } {
  return {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    memory: `${Math.round(totalmem() / 1024 ** 3)} GiB`,
    platform: `${process.platform} ${process.arch}`,
  };
}

/** Share of the machine's CPU time (all cores) that was busy over `sampleMs`, 0–1. */
export async function cpuBusy(sampleMs = 2000): Promise<number> {
  const totals = () =>
    cpus().reduce(
      (acc, cpu) => {
        const t = cpu.times;
        acc.busy += t.user + t.nice + t.sys + t.irq;
        acc.all += t.user + t.nice + t.sys + t.irq + t.idle;
        return acc;
      },
      { busy: 0, all: 0 },
    );
  const a = totals();
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  const b = totals();
  return b.all > a.all ? (b.busy - a.busy) / (b.all - a.all) : 0;
}

export interface Quietness {
  /** CPU busy share just before the benchmark started (other processes; nothing of ours runs). */
  busyBefore: number;
  waitedS: number;
  load1: number;
}

/**
 * Waits (at most `maxWaitMs`) until the machine is mostly idle, since other work on a 2-core machine
 * skews every figure; proceeds anyway after that and reports what it saw.
 */
export async function waitForQuiet(maxWaitMs = 120_000, threshold = 0.2): Promise<Quietness> {
  const started = Date.now();
  let busy = await cpuBusy();
  while (busy > threshold && Date.now() - started < maxWaitMs) busy = await cpuBusy();
  return { busyBefore: busy, waitedS: Math.round((Date.now() - started) / 1000), load1: loadavg()[0] ?? 0 };
}

export interface GcStats {
  count: number;
  totalMs: number;
  maxMs: number;
}

/** Counts this process's GC pauses from now until stop() (to explain latency tails). */
export function watchGc(): { stop(): Promise<GcStats> } {
  const pauses: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push(entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    async stop() {
      // Entries are delivered asynchronously; let the last ones arrive.
      await new Promise((resolve) => setTimeout(resolve, 10));
      observer.disconnect();
      return {
        count: pauses.length,
        totalMs: pauses.reduce((a, b) => a + b, 0),
        maxMs: pauses.length ? Math.max(...pauses) : 0,
      };
    },
  };
}

export function gcText(gc: GcStats): string {
  return `${gc.count} pause${gc.count === 1 ? '' : 's'}, ${gc.totalMs.toFixed(0)} ms total, max ${gc.maxMs.toFixed(1)} ms`;
}

export async function redisVersion(): Promise<string> {
  const client = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    const info = await client.info('server');
    return /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
  } finally {
    client.disconnect();
  }
}

// ---------------------------------------------------------------------------------------------
// Stores

/** Benchmarks use the tests' real-store helper: a fresh SQLite file or Redis prefix, removed afterwards. */
export { openTestStore as openBenchStore } from '../test/support/stores.js';

// ---------------------------------------------------------------------------------------------
// The API

export const API_SYMBOLS = 'BTCUSDT,ETHUSDT,SOLUSDT';

export interface RunningApi {
  app: FastifyInstance;
  baseUrl: string;
  key: string;
  auth: { authorization: string };
  close(): Promise<void>;
}

/**
 * createApi on `store`, listening on 127.0.0.1 (a free port). `serverMs`, when given, receives each
 * request's server-side time (Fastify's reply.elapsedTime, from an onResponse hook added by the
 * benchmark only), to tell server time from client time.
 */
export async function startApi(
  store: Store,
  options: { controlRateLimit?: number; serverMs?: number[] } = {},
): Promise<RunningApi> {
  const key = generateKey();
  const app = await createApi({
    store,
    apiKeys: [key],
    instruments: parseInstruments(API_SYMBOLS),
    defaultMode: 'paper',
    controlRateLimit: options.controlRateLimit ?? 1_000_000,
  });
  const serverMs = options.serverMs;
  if (serverMs) {
    app.addHook('onResponse', (_request, reply, done) => {
      serverMs.push(reply.elapsedTime);
      done();
    });
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    key,
    auth: { authorization: `Bearer ${key}` },
    close: () => app.close(),
  };
}
