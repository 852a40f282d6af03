/**
 * Latency of real control transitions: POST /control/pause and POST /control/resume alternately,
 * one at a time from one client (`fetch`, keep-alive) in the same process as the API, 2000
 * transitions per store (Redis and SQLite) after 100 warm-up ones. Every answer must be 200 with
 * changed=true. Reports the client round trip and, from an onResponse hook the benchmark adds, the
 * server-side time, plus the GC pauses seen meanwhile.
 */
import { performance } from 'node:perf_hooks';
import { int, ms, summarize } from './stats.js';
import type { Summary } from './stats.js';
import { gcText, openBenchStore, printResult, runDirectly, startApi, watchGc } from './support.js';
import type { BenchResult, GcStats, StoreKind } from './support.js';

const TRANSITIONS = 2000;
const WARMUP = 100;
const AIMS: Record<StoreKind, number> = { redis: 5, sqlite: 10 };

export interface TransitionFigures {
  store: StoreKind;
  transitions: number;
  client: Summary;
  server: Summary;
  gc: GcStats;
}

async function measure(kind: StoreKind): Promise<TransitionFigures> {
  const bench = await openBenchStore(kind);
  const serverMs: number[] = [];
  // A control rate limit far above what 2100 calls need, so the limiter never answers 429.
  const api = await startApi(bench.store, { controlRateLimit: 1_000_000, serverMs });
  const client: number[] = [];
  let gc: GcStats = { count: 0, totalMs: 0, maxMs: 0 };
  try {
    let watcher: ReturnType<typeof watchGc> | null = null;
    for (let i = 0; i < WARMUP + TRANSITIONS; i++) {
      if (i === WARMUP) {
        serverMs.length = 0;
        watcher = watchGc();
      }
      const verb = i % 2 === 0 ? 'pause' : 'resume';
      const t0 = performance.now();
      const response = await fetch(`${api.baseUrl}/control/${verb}`, { method: 'POST', headers: api.auth });
      const body = (await response.json()) as { changed?: boolean };
      const elapsed = performance.now() - t0;
      if (response.status !== 200 || body.changed !== true) {
        throw new Error(
          `${kind}: ${verb} #${i} answered ${response.status} ${JSON.stringify(body)} (expected 200 with changed=true)`,
        );
      }
      if (i >= WARMUP) client.push(elapsed);
    }
    if (watcher) gc = await watcher.stop();
  } finally {
    await api.close();
    await bench.cleanup();
  }
  return { store: kind, transitions: client.length, client: summarize(client), server: summarize(serverMs), gc };
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const figures: TransitionFigures[] = [];
  for (const kind of ['redis', 'sqlite'] as const) figures.push(await measure(kind));
  const result: BenchResult = {
    id: 'transition',
    title: 'Control transitions: POST /control/pause ⇄ /control/resume',
    command: 'node bin/run-ts.mjs bench/transition.bench.ts',
    method: [
      `${TRANSITIONS} transitions per store after ${WARMUP} warm-up ones, strictly sequential from one fetch client in the API's own process (keep-alive); each is a real change (epoch + 1, audit event appended).`,
      'Client time: performance.now() around fetch + reading the JSON body. Server time: Fastify reply.elapsedTime from an onResponse hook added by the benchmark.',
      'controlRateLimit = 1,000,000 per minute so the limiter never interferes.',
    ],
    tables: [
      {
        headers: ['store', 'transitions', 'p50', 'p90', 'p99', 'max', 'server p50 / p99', 'GC in process', 'aim p99'],
        rows: figures.map((f) => [
          f.store,
          int(f.transitions),
          ms(f.client.p50),
          ms(f.client.p90),
          ms(f.client.p99),
          ms(f.client.max),
          `${ms(f.server.p50)} / ${ms(f.server.p99)}`,
          gcText(f.gc),
          `< ${AIMS[f.store]} ms`,
        ]),
      },
    ],
    figures: figures.map((f) => ({
      figure: `POST /control/pause ⇄ /control/resume p99 (${f.store})`,
      aim: `< ${AIMS[f.store]} ms`,
      latest: ms(f.client.p99),
      met: f.client.p99 < AIMS[f.store],
    })),
    aims: figures.map((f) => ({
      text: `${f.store}: transition p99 < ${AIMS[f.store]} ms (measured ${ms(f.client.p99)})`,
      met: f.client.p99 < AIMS[f.store],
    })),
    notes: figures
      .filter((f) => f.client.p99 > 2 * f.server.p99)
      .map(
        (f) =>
          `${f.store}: client p99 ${ms(f.client.p99)} vs server p99 ${ms(f.server.p99)}: most of the tail is outside Fastify's handling of the request (the fetch client in the same process, socket I/O, GC pauses: ${gcText(f.gc)}).`,
      ),
    seconds: (performance.now() - started) / 1000,
    data: figures,
  };
  printResult(result);
  return result;
}

runDirectly(run);
