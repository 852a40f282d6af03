/**
 * Throughput of the authenticated GET /control/status on the Redis store, against a bare Fastify
 * route measured the same way in the same run: autocannon with 50 connections for 10 s each, from a
 * worker thread (autocannon's `workers: 1`) so the load generator does not share the server's event
 * loop. Both servers listen on 127.0.0.1, port 0. The bare route is measured before AND after the
 * status route, so a machine that changed speed meanwhile shows; the ratio uses their mean.
 */
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import type { Result } from 'autocannon';
import Fastify from 'fastify';
import { int } from './stats.js';
import { gcText, openBenchStore, printResult, runDirectly, startApi, watchGc } from './support.js';
import type { BenchResult, GcStats } from './support.js';

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
  target: string,
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

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const bench = await openBenchStore('redis');
  const api = await startApi(bench.store);
  const bare = Fastify({ logger: false });
  bare.get('/bare', () => ({ state: 'running' }));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/bare`;
  const statusUrl = `${api.baseUrl}/control/status`;
  let status: LoadFigures;
  let plainBefore: LoadFigures;
  let plainAfter: LoadFigures;
  try {
    const check = await fetch(statusUrl, { headers: api.auth });
    if (check.status !== 200) throw new Error(`GET /control/status answered ${check.status}: ${await check.text()}`);
    await check.arrayBuffer();
    // Warm both (JIT, connections), then measure: bare, status, bare.
    await load('status', statusUrl, api.auth, WARMUP_S);
    await load('bare', bareUrl, {}, WARMUP_S);
    plainBefore = figures('bare Fastify GET /bare (before)', await load('bare', bareUrl, {}, DURATION_S));
    status = figures('GET /control/status (auth, Redis store)', await load('status', statusUrl, api.auth, DURATION_S));
    plainAfter = figures('bare Fastify GET /bare (after)', await load('bare', bareUrl, {}, DURATION_S));
  } finally {
    await api.close();
    await bare.close();
    await bench.cleanup();
  }

  const bareMean = (plainBefore.reqPerSec + plainAfter.reqPerSec) / 2;
  const ratio = status.reqPerSec / bareMean;
  const spread = Math.abs(plainBefore.reqPerSec - plainAfter.reqPerSec) / bareMean;
  const notes: string[] = [];
  if (spread > 0.1)
    notes.push(
      `The two bare measurements differ by ${(spread * 100).toFixed(0)} %: the machine's speed changed during the run, so the ratio is uncertain by about as much.`,
    );
  for (const f of [plainBefore, status, plainAfter]) {
    if (f.non2xx > 0 || f.errors > 0)
      notes.push(`${f.target}: ${f.non2xx} non-2xx answers, ${f.errors} connection errors (${f.timeouts} timeouts)`);
  }
  notes.push(
    `Little's law at ${CONNECTIONS} connections: mean latency ≈ ${CONNECTIONS} ÷ req/s, so a p99 under ${AIM_P99_MS} ms needs well over ${int((CONNECTIONS / AIM_P99_MS) * 1000)} req/s from one Node thread.`,
  );
  const result: BenchResult = {
    id: 'api-status',
    title: 'API: authenticated GET /control/status vs a bare Fastify route',
    command: 'node bin/run-ts.mjs bench/api-status.bench.ts',
    method: [
      `autocannon 8, ${CONNECTIONS} connections, ${DURATION_S} s per measurement after a ${WARMUP_S} s warm-up of each target, one worker thread for the load generator; servers in the main thread on 127.0.0.1. Order: bare, status, bare; the ratio divides by the mean of the two bare figures.`,
      "Status: createApi on the Redis store (database 15, fresh prefix), Bearer key, full plugin stack (auth hook, metrics hook, rate-limit plugin registered). Bare: a second Fastify instance with only `app.get('/bare', () => ({state:'running'}))`.",
      'req/s is autocannon\'s mean of per-second samples; latencies come from autocannon\'s histogram, which records whole milliseconds (so "4 ms" means 4 ≤ t < 5 ms).',
    ],
    tables: [
      {
        headers: ['target', 'req/s', 'latency p50', 'p90', 'p99', 'max', 'requests', 'GC in server thread'],
        rows: [plainBefore, status, plainAfter].map((f) => [
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
        headers: ['ratio status ÷ mean bare (req/s)', 'status ÷ bare before', 'status ÷ bare after', 'aim'],
        rows: [
          [
            ratio.toFixed(3),
            (status.reqPerSec / plainBefore.reqPerSec).toFixed(3),
            (status.reqPerSec / plainAfter.reqPerSec).toFixed(3),
            `≥ ${AIM_RATIO}`,
          ],
        ],
      },
    ],
    aims: [
      { text: `ratio status ÷ bare ≥ ${AIM_RATIO} (measured ${ratio.toFixed(3)})`, met: ratio >= AIM_RATIO },
      {
        text: `status p99 < ${AIM_P99_MS} ms at ${CONNECTIONS} connections (measured ${status.latency.p99} ms)`,
        met: status.latency.p99 < AIM_P99_MS,
      },
    ],
    notes,
    seconds: (performance.now() - started) / 1000,
    data: { status, bareBefore: plainBefore, bareAfter: plainAfter, ratio },
  };
  printResult(result);
  return result;
}

runDirectly(run);
