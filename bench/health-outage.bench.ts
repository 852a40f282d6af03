/**
 * GET /health latency while the store fails, on a redis-server of the benchmark's own (the fault
 * tests' helper, test/support/redis-server.ts): healthy, hung (SIGSTOP: connections stay open and
 * nothing answers) and refusing connections (SIGKILL). The API (createApi, default STORE_TIMEOUT_MS)
 * listens on 127.0.0.1 in this process; requests are sequential, one at a time, timed from send to
 * the full body. The aim: /health answers within 1 s whatever the store does (p99 ≤ 1.1 s hung).
 * HEALTH_TRIALS overrides the 40 requests per phase.
 */
import { performance } from 'node:perf_hooks';
import { openRedisStore } from '../src/adapters/redis/redis-store.js';
import { startOwnRedis } from '../test/support/redis-server.js';
import { int, ms, summarize } from './stats.js';
import type { Summary } from './stats.js';
import { printResult, runDirectly, startApi } from './support.js';
import type { BenchResult } from './support.js';

const TRIALS = Number(process.env.HEALTH_TRIALS ?? 40);
const PHASES = ['healthy', 'hung (SIGSTOP)', 'refused (SIGKILL)'] as const;

interface PhaseFigures {
  phase: (typeof PHASES)[number];
  latency: Summary;
  statuses: Record<string, number>;
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const redis = await startOwnRedis();
  const store = await openRedisStore({ url: redis.url, onError: () => {} });
  // A brand-new store, as its creator makes it (opening never creates the control record).
  await store.control.initialise(new Date().toISOString());
  const api = await startApi(store);
  const figures: PhaseFigures[] = [];
  try {
    for (const phase of PHASES) {
      if (phase === 'hung (SIGSTOP)') redis.pause();
      if (phase === 'refused (SIGKILL)') {
        redis.resume();
        await redis.kill();
      }
      const samples: number[] = [];
      const statuses: Record<string, number> = {};
      for (let i = 0; i < TRIALS; i++) {
        const t0 = performance.now();
        const response = await fetch(`${api.baseUrl}/health`, { signal: AbortSignal.timeout(30_000) });
        await response.arrayBuffer();
        samples.push(performance.now() - t0);
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      }
      figures.push({ phase, latency: summarize(samples), statuses });
    }
  } finally {
    await api.close();
    await redis.cleanup();
    await store.close();
  }
  const hung = figures.find((f) => f.phase === 'hung (SIGSTOP)');
  const result: BenchResult = {
    id: 'health-outage',
    title: 'GET /health while the store is healthy, hung and refusing connections (own redis-server)',
    command: 'node bin/run-ts.mjs bench/health-outage.bench.ts',
    method: [
      `Own redis-server on a spare loopback port; API in this process with the default STORE_TIMEOUT_MS (500 ms) and the 900 ms deadline of the whole check.`,
      `${TRIALS} sequential GET /health per phase: healthy, then paused with SIGSTOP, then resumed and SIGKILLed (connections refused).`,
    ],
    tables: [
      {
        headers: ['phase', 'requests', 'statuses', 'p50', 'p90', 'p99', 'max'],
        rows: figures.map((f) => [
          f.phase,
          int(f.latency.n),
          Object.entries(f.statuses)
            .map(([status, n]) => `${status} × ${n}`)
            .join(', '),
          ms(f.latency.p50),
          ms(f.latency.p90),
          ms(f.latency.p99),
          ms(f.latency.max),
        ]),
      },
    ],
    figures: [
      {
        figure: '/health p99 while the store hangs (SIGSTOP)',
        aim: '≤ 1.1 s',
        latest: hung ? ms(hung.latency.p99) : 'not measured',
        met: hung ? hung.latency.p99 <= 1_100 : null,
      },
    ],
    aims: [
      {
        text: `hung store: /health p99 ≤ 1.1 s (measured ${hung ? ms(hung.latency.p99) : 'n/a'})`,
        met: hung ? hung.latency.p99 <= 1_100 : null,
      },
    ],
    notes: [],
    seconds: (performance.now() - started) / 1000,
    data: figures,
  };
  printResult(result);
  return result;
}

runDirectly(run);
