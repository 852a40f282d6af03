/**
 * Throughput of the authenticated GET /control/status on both stores, in one run, against a bare
 * Fastify route measured the same way: autocannon with 50 connections for 10 s each, from a worker
 * thread (autocannon's `workers: 1`) so the load generator does not share the server's event loop.
 * All servers listen on 127.0.0.1, port 0, in this process. Order: bare, redis, sqlite, sqlite,
 * redis, bare (ABBA), so a machine that changes speed during the run weighs on both stores alike
 * and shows in the two bare figures; each store's figure is the mean of its two measurements, and
 * its ratio divides by the mean of the two bare ones. Nothing writes to the stores meanwhile (no
 * trading process): this is the API's read path alone.
 */
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import type { Result } from 'autocannon';
import Fastify from 'fastify';
import { int } from './stats.js';
import { gcText, openBenchStore, printResult, runDirectly, startApi, watchGc } from './support.js';
import type { BenchResult, GcStats, StoreKind } from './support.js';

const CONNECTIONS = 50;
const DURATION_S = 10;
const WARMUP_S = 2;
const AIM_RATIO = 0.5;
const AIM_P99_MS = 5;

export interface LoadFigures {
  target: string;
  reqPerSec: number;
  latency: { p50: number; p90: number; p99: number; max: number; mean: number };
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  gc: GcStats;
}

async function load(
  url: string,
  headers: Record<string, string>,
  durationS: number,
): Promise<{ result: Result; gc: GcStats }> {
  const gc = watchGc();
  const result = await autocannon({ url, connections: CONNECTIONS, duration: durationS, workers: 1, headers });
  return { result, gc: await gc.stop() };
}

/** autocannon's latency histogram holds whole milliseconds: 0 means under 1 ms. */
function wholeMs(value: number): string {
  return value === 0 ? '< 1 ms' : `${value} ms`;
}

function figures(target: string, { result, gc }: { result: Result; gc: GcStats }): LoadFigures {
  return {
    target,
    reqPerSec: result.requests.average,
    latency: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.average,
    },
    requests: result['2xx'] + result.non2xx,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    gc,
  };
}

interface StoreFigures {
  store: StoreKind;
  runs: [LoadFigures, LoadFigures];
  reqPerSec: number;
  ratio: number;
  /** The worse of the two runs' p99. */
  p99: number;
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const bare = Fastify({ logger: false });
  bare.get('/bare', () => ({ state: 'running' }));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/bare`;
  const stores: Record<StoreKind, { close(): Promise<void>; url: string; auth: Record<string, string> }> = {
    redis: await openStatusApi('redis'),
    sqlite: await openStatusApi('sqlite'),
  };
  const measured: LoadFigures[] = [];
  try {
    // Warm every target (JIT, connections), then measure in ABBA order.
    for (const kind of KINDS) await load(stores[kind].url, stores[kind].auth, WARMUP_S);
    await load(bareUrl, {}, WARMUP_S);
    measured.push(figures('bare Fastify GET /bare (first)', await load(bareUrl, {}, DURATION_S)));
    for (const kind of [...KINDS, ...[...KINDS].reverse()])
      measured.push(figures(statusTarget(kind), await load(stores[kind].url, stores[kind].auth, DURATION_S)));
    measured.push(figures('bare Fastify GET /bare (last)', await load(bareUrl, {}, DURATION_S)));
  } finally {
    for (const kind of KINDS) await stores[kind].close();
    await bare.close();
  }

  const bareFirst = measured[0]!;
  const bareLast = measured[measured.length - 1]!;
  const bareMean = (bareFirst.reqPerSec + bareLast.reqPerSec) / 2;
  const perStore: StoreFigures[] = KINDS.map((kind) => {
    const runs = measured.filter((f) => f.target === statusTarget(kind)) as [LoadFigures, LoadFigures];
    const reqPerSec = (runs[0].reqPerSec + runs[1].reqPerSec) / 2;
    return {
      store: kind,
      runs,
      reqPerSec,
      ratio: reqPerSec / bareMean,
      p99: Math.max(runs[0].latency.p99, runs[1].latency.p99),
    };
  });
  const spread = Math.abs(bareFirst.reqPerSec - bareLast.reqPerSec) / bareMean;
  const notes: string[] = [];
  if (spread > 0.1)
    notes.push(
      `The two bare measurements differ by ${(spread * 100).toFixed(0)} %: the machine's speed changed during the run, so the ratios are uncertain by about as much.`,
    );
  for (const f of measured) {
    if (f.non2xx > 0 || f.errors > 0)
      notes.push(`${f.target}: ${f.non2xx} non-2xx answers, ${f.errors} connection errors (${f.timeouts} timeouts)`);
  }
  notes.push(
    `Little's law at ${CONNECTIONS} connections: mean latency ≈ ${CONNECTIONS} ÷ req/s, so a p99 under ${AIM_P99_MS} ms needs well over ${int((CONNECTIONS / AIM_P99_MS) * 1000)} req/s from one Node thread.`,
  );
  const result: BenchResult = {
    id: 'api-status',
    title: 'API: authenticated GET /control/status on both stores vs a bare Fastify route',
    command: 'node bin/run-ts.mjs bench/api-status.bench.ts',
    method: [
      `autocannon 8, ${CONNECTIONS} connections, ${DURATION_S} s per measurement after a ${WARMUP_S} s warm-up of each target, one worker thread for the load generator; servers in the main thread on 127.0.0.1. Order: bare, redis, sqlite, sqlite, redis, bare; a store's req/s is the mean of its two measurements, its ratio divides that by the mean of the two bare figures.`,
      "Status: createApi on each store (Redis database 15 with a fresh prefix; a SQLite file in a temp dir), Bearer key, full plugin stack (auth hook, metrics hook, rate-limit plugin registered), no logger. Nothing else writes to the store. Bare: a Fastify instance with only `app.get('/bare', () => ({state:'running'}))`.",
      'req/s is autocannon\'s mean of per-second samples; latencies come from autocannon\'s histogram, which records whole milliseconds (so "4 ms" means 4 ≤ t < 5 ms).',
    ],
    tables: [
      {
        headers: ['target', 'req/s', 'latency p50', 'p90', 'p99', 'max', 'requests', 'GC in server thread'],
        rows: measured.map((f) => [
          f.target,
          int(f.reqPerSec),
          wholeMs(f.latency.p50),
          wholeMs(f.latency.p90),
          wholeMs(f.latency.p99),
          wholeMs(f.latency.max),
          int(f.requests),
          gcText(f.gc),
        ]),
      },
      {
        caption: 'Per store: the mean of its two measurements, and its ratio to the mean of the two bare ones',
        headers: ['store', 'status req/s', '÷ mean bare', 'p99 (worse run)', 'aim ratio', 'aim p99'],
        rows: perStore.map((f) => [
          f.store,
          int(f.reqPerSec),
          f.ratio.toFixed(3),
          wholeMs(f.p99),
          `≥ ${AIM_RATIO}`,
          `< ${AIM_P99_MS} ms`,
        ]),
      },
    ],
    figures: perStore.flatMap((f) => [
      {
        figure: `GET /control/status ÷ bare Fastify route, req/s (${CONNECTIONS} conn., ${f.store})`,
        aim: `≥ ${AIM_RATIO}`,
        latest: f.ratio.toFixed(3),
        met: f.ratio >= AIM_RATIO,
      },
      {
        figure: `GET /control/status p99 (${CONNECTIONS} conn., ${f.store})`,
        aim: `< ${AIM_P99_MS} ms`,
        latest: `${f.p99} ms (the worse of 2 runs)`,
        met: f.p99 < AIM_P99_MS,
      },
      {
        figure: `GET /control/status req/s (${CONNECTIONS} conn., ${f.store})`,
        aim: '—',
        latest: int(f.reqPerSec),
        met: null,
      },
    ]),
    aims: perStore.flatMap((f) => [
      {
        text: `${f.store}: ratio status ÷ bare ≥ ${AIM_RATIO} (measured ${f.ratio.toFixed(3)})`,
        met: f.ratio >= AIM_RATIO,
      },
      {
        text: `${f.store}: status p99 < ${AIM_P99_MS} ms at ${CONNECTIONS} connections (measured ${f.p99} ms, the worse run)`,
        met: f.p99 < AIM_P99_MS,
      },
    ]),
    notes,
    seconds: (performance.now() - started) / 1000,
    data: { measured, perStore, bareMean },
  };
  printResult(result);
  return result;
}

const KINDS: StoreKind[] = ['redis', 'sqlite'];
const statusTarget = (kind: StoreKind) => `GET /control/status (auth, ${kind} store)`;

async function openStatusApi(kind: StoreKind) {
  const bench = await openBenchStore(kind);
  const api = await startApi(bench.store);
  const url = `${api.baseUrl}/control/status`;
  const check = await fetch(url, { headers: api.auth });
  if (check.status !== 200)
    throw new Error(`GET /control/status (${kind}) answered ${check.status}: ${await check.text()}`);
  await check.arrayBuffer();
  return {
    url,
    auth: api.auth,
    async close() {
      await api.close();
      await bench.cleanup();
    },
  };
}

runDirectly(run);
