/**
 * Kill-switch latency across two processes, idle and under load, on both stores in one run (issue
 * 18's Performance section): from sending POST /control/kill-switch to the API (this process,
 * createApi on 127.0.0.1) until the trading system in a CHILD process (kill-trader.ts, on its own
 * connection to the same store) has its root in control.killed AND its paper venue has no open
 * orders. Per store: one API and one trading child; first the idle trials, then the same number
 * while a second child (status-load.ts) keeps LOAD_CONNECTIONS autocannon connections of
 * authenticated GET /control/status busy against the same API. The time stops when the trading
 * child's IPC message arrives here, so it includes one IPC hop (~0.1 ms). Between trials the parent
 * calls resetKill on the store; setup and reset are not timed. The child roles are this same file
 * with TCS_BENCH_ROLE set. KILL_TRIALS overrides the 200 counted trials per (store, load).
 */
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { resetKill } from '../src/application/control-transition.js';
import { signedWith } from '../test/support/control-secret.js';
import { Inbox } from './kill-inbox.js';
import { RESTING_ORDERS, runTraderChild } from './kill-trader.js';
import { int, ms, summarize } from './stats.js';
import type { Summary } from './stats.js';
import { runStatusLoadChild, startStatusLoad } from './status-load.js';
import type { LoadFigures } from './status-load.js';
import {
  REPO_ROOT,
  gcText,
  openBenchStore,
  printResult,
  runDirectly,
  startApi,
  watchGc,
  withDeadline,
} from './support.js';
import type { BenchResult, GcStats, RunningApi, StoreKind } from './support.js';

const TRIALS = Number(process.env.KILL_TRIALS ?? 200);
const WARMUP = 10;
const LOAD_CONNECTIONS = 10;
/** Per (store, load); past it the phase stops early and says so. */
const PHASE_BUDGET_MS = 180_000;
const TRIAL_TIMEOUT_MS = 10_000;
const MAX_PHASE_DELAY_MS = 10;
type Load = 'idle' | 'status load';
const LOADS: Load[] = ['idle', 'status load'];
/** Issue 18: p99 < 10 ms idle and < 50 ms under 10 connections of GET /control/status, both stores. */
const AIMS: Record<Load, number> = { idle: 10, 'status load': 50 };
const THIS_FILE = fileURLToPath(import.meta.url);

export interface Trial {
  trial: number;
  totalMs: number;
  httpMs: number;
  toKilledMs: number;
  killedToEmptyMs: number;
}

export interface KillFigures {
  store: StoreKind;
  load: Load;
  trials: number;
  /** POST sent → child reports killed + no open orders (received here). */
  total: Summary;
  /** POST sent → HTTP response received. */
  http: Summary;
  /** POST sent → root seen killed in the child (two processes' clocks: approximate). */
  toKilled: Summary;
  /** In the child: root seen killed → venue has no open orders. */
  killedToEmpty: Summary;
  /** The slowest counted trials with their parts, to tell where a tail comes from. */
  slowest: Trial[];
  /** GC in the API process during the counted trials. */
  gc: GcStats;
  /** What the load child achieved over the whole loaded phase (warm-up included); null when idle. */
  achieved: LoadFigures | null;
  /** 1-minute load average of the machine when the phase began and ended. */
  loadavg: [number, number];
  stoppedEarly: string | null;
}

const loadLabel = (load: Load) => (load === 'idle' ? 'idle' : `${LOAD_CONNECTIONS} conn. GET /control/status`);

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const figures: KillFigures[] = [];
  for (const kind of ['redis', 'sqlite'] as const) figures.push(...(await measureStore(kind)));
  const notes = figures.filter((f) => f.stoppedEarly).map((f) => `${f.store}, ${loadLabel(f.load)}: ${f.stoppedEarly}`);
  notes.push(
    `Machine load average (1 min) at the start and end of each phase: ${figures.map((f) => `${f.store} ${f.load} ${f.loadavg[0].toFixed(1)} → ${f.loadavg[1].toFixed(1)}`).join('; ')}.`,
  );
  const result: BenchResult = {
    id: 'kill-latency',
    title: 'Kill-switch latency (API process → trading process), idle and under status load',
    command: 'node bin/run-ts.mjs bench/kill-latency.bench.ts',
    method: [
      'API (createApi) listens on 127.0.0.1 in the benchmark process; the trading system runs in a child process (TCS_BENCH_ROLE=kill-trader) on its own store connection, real clock and timers, CYCLE_SECONDS=3600, ORDER_STYLE=passive, SYMBOLS=BTCUSDT,ETHUSDT,SOLUSDT.',
      `Each trial: a fresh trading system in the child (killed is final), its first cycle settled, ${RESTING_ORDERS} paper BUY limits at half the bid placed with system.venue.submit; then the kill is timed; resetKill between trials (untimed).`,
      'Stop: the child sees the root in control.killed (actor subscription) and venue.openOrders() empty (polled with setImmediate), and sends an IPC message; the time is taken when that message arrives in the parent (one IPC hop included).',
      `Before each timed POST, an untimed random pause of 0–${MAX_PHASE_DELAY_MS} ms, so kills arrive at random phases of the child's timers. ${WARMUP} warm-up trials per (store, load) are not counted.`,
      `Per store, one API and one trading child: ${TRIALS} idle trials, then ${TRIALS} more while a third process (TCS_BENCH_ROLE=status-load) runs autocannon with ${LOAD_CONNECTIONS} connections of authenticated GET /control/status against the same API for the whole phase (warm-up and untimed setup included).`,
    ],
    tables: [
      {
        headers: [
          'store',
          'load',
          'trials',
          'p50',
          'p90',
          'p99',
          'max',
          'GC in API process (counted trials)',
          'aim p99',
        ],
        rows: figures.map((f) => [
          f.store,
          loadLabel(f.load),
          int(f.trials),
          ms(f.total.p50),
          ms(f.total.p90),
          ms(f.total.p99),
          ms(f.total.max),
          gcText(f.gc),
          `< ${AIMS[f.load]} ms`,
        ]),
      },
      {
        caption:
          'Parts of the path, p50 / p99: the HTTP answer in the API process; POST sent → root killed in the child (wall clocks of two processes, approximate); root killed → no open orders (child clock)',
        headers: ['store', 'load', 'HTTP response', 'POST → root killed', 'killed → no open orders'],
        rows: figures.map((f) => [
          f.store,
          loadLabel(f.load),
          `${ms(f.http.p50)} / ${ms(f.http.p99)}`,
          `${ms(f.toKilled.p50)} / ${ms(f.toKilled.p99)}`,
          `${ms(f.killedToEmpty.p50)} / ${ms(f.killedToEmpty.p99)}`,
        ]),
      },
      {
        caption:
          'The load while the loaded trials ran (autocannon in its own process; latencies in whole milliseconds, "< 1 ms" for 0)',
        headers: [
          'store',
          'connections',
          'seconds',
          'status req/s',
          'latency p50',
          'p99',
          'max',
          'responses',
          'non-2xx',
          'errors',
        ],
        rows: figures.flatMap((f) =>
          f.achieved
            ? [
                [
                  f.store,
                  String(f.achieved.connections),
                  f.achieved.seconds.toFixed(1),
                  int(f.achieved.reqPerSec),
                  wholeMs(f.achieved.latency.p50),
                  wholeMs(f.achieved.latency.p99),
                  wholeMs(f.achieved.latency.max),
                  int(f.achieved.responses),
                  int(f.achieved.non2xx),
                  int(f.achieved.errors),
                ],
              ]
            : [],
        ),
      },
      {
        caption:
          'The three slowest counted trials per (store, load), with their parts (when the parts are small but the total is not, the time went to the IPC hop or to a pause in the API process)',
        headers: ['store', 'load', 'trial', 'total', 'HTTP response', 'POST → root killed', 'killed → no open orders'],
        rows: figures.flatMap((f) =>
          f.slowest.map((t) => [
            f.store,
            loadLabel(f.load),
            String(t.trial),
            ms(t.totalMs),
            ms(t.httpMs),
            ms(t.toKilledMs),
            ms(t.killedToEmptyMs),
          ]),
        ),
      },
    ],
    figures: figures.map((f) => ({
      figure: `kill p99, POST → trading process killed and orders cancelled (${f.store}, ${loadLabel(f.load)})`,
      aim: `< ${AIMS[f.load]} ms`,
      latest: f.trials > 0 ? `${ms(f.total.p99)} (p50 ${ms(f.total.p50)}, ${f.trials} trials)` : 'not measured',
      met: f.trials > 0 ? f.total.p99 < AIMS[f.load] : null,
    })),
    aims: figures.map((f) => ({
      text: `${f.store}, ${loadLabel(f.load)}: kill p99 < ${AIMS[f.load]} ms (measured ${ms(f.total.p99)} over ${f.trials} trials)`,
      met: f.trials > 0 ? f.total.p99 < AIMS[f.load] : null,
    })),
    notes,
    seconds: (performance.now() - started) / 1000,
    data: figures,
  };
  printResult(result);
  return result;
}

const wholeMs = (value: number) => (value === 0 ? '< 1 ms' : `${value} ms`);

/** One API and one trading child for the store; the idle phase, then the loaded one. */
async function measureStore(kind: StoreKind): Promise<KillFigures[]> {
  const opened = await openBenchStore(kind);
  // Signed and checked as the real processes do (CONTROL_SECRET's MACs are on the kill's path).
  const bench = { ...opened, store: signedWith(opened.store) };
  const api = await startApi(bench.store);
  const child = fork(join(REPO_ROOT, 'bin/run-ts.mjs'), [THIS_FILE], {
    execArgv: [],
    env: { ...process.env, TCS_BENCH_ROLE: 'kill-trader', STORE_URL: bench.url },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const inbox = new Inbox(child);
  const figures: KillFigures[] = [];
  // Numbers every trial of the store, across phases: the child names its resting orders after it,
  // and an order id seen before is not a new order.
  let sequence = 0;
  try {
    for (const load of LOADS) {
      if (load === 'idle') {
        figures.push(await measurePhase(kind, load, api, inbox, null));
        continue;
      }
      const running = await startStatusLoad(THIS_FILE, {
        url: `${api.baseUrl}/control/status`,
        authorization: api.auth.authorization,
        connections: LOAD_CONNECTIONS,
      });
      const phase = await measurePhase(kind, load, api, inbox, running);
      figures.push(phase);
    }
    inbox.send({ type: 'finish' });
    await withDeadline(inbox.exited, 20_000, 'kill-trader child exit');
  } finally {
    child.kill('SIGKILL');
    await api.close();
    await bench.cleanup();
  }
  return figures;

  async function measurePhase(
    store: StoreKind,
    load: Load,
    running: RunningApi,
    trader: Inbox,
    loadRun: Awaited<ReturnType<typeof startStatusLoad>> | null,
  ): Promise<KillFigures> {
    const trials: Trial[] = [];
    let stoppedEarly: string | null = null;
    let gcWatch: ReturnType<typeof watchGc> | null = null;
    let gc: GcStats = { count: 0, totalMs: 0, maxMs: 0 };
    let achieved: LoadFigures | null = null;
    const loadAtStart = loadavg()[0] ?? 0;
    const began = performance.now();
    try {
      for (let trial = 0; trial < WARMUP + TRIALS; trial++) {
        if (trial === WARMUP) gcWatch = watchGc();
        if (performance.now() - began > PHASE_BUDGET_MS) {
          stoppedEarly = `stopped after ${trials.length} counted trials: the ${PHASE_BUDGET_MS / 1000} s budget per phase was used up`;
          break;
        }
        const timed = await oneTrial(running, trader, sequence++);
        if (trial >= WARMUP) trials.push({ ...timed, trial: trial - WARMUP + 1 });
      }
    } catch (err) {
      stoppedEarly = `stopped after ${trials.length} counted trials: ${(err as Error).message}`;
    } finally {
      if (gcWatch) gc = await gcWatch.stop();
      if (loadRun) achieved = await loadRun.stop().catch(() => null);
    }
    const of = (pick: (t: Trial) => number) => summarize(trials.map(pick));
    return {
      store,
      load,
      trials: trials.length,
      total: of((t) => t.totalMs),
      http: of((t) => t.httpMs),
      toKilled: of((t) => t.toKilledMs),
      killedToEmpty: of((t) => t.killedToEmptyMs),
      slowest: [...trials].sort((a, b) => b.totalMs - a.totalMs).slice(0, 3),
      gc,
      achieved,
      loadavg: [loadAtStart, loadavg()[0] ?? 0],
      stoppedEarly,
    };
  }

  async function oneTrial(running: RunningApi, trader: Inbox, trial: number): Promise<Omit<Trial, 'trial'>> {
    trader.send({ type: 'prepare', trial });
    const { message: ready } = await trader.next('ready', TRIAL_TIMEOUT_MS);
    if (ready.open < RESTING_ORDERS) throw new Error(`trial ${trial}: only ${ready.open} open orders before the kill`);
    // A random pause (untimed) so the kill does not always land at the same phase of the child's
    // timers: right after 'ready' the SQLite watcher's overdue poll has just run.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * MAX_PHASE_DELAY_MS));

    const done = trader.next('done', TRIAL_TIMEOUT_MS);
    done.catch(() => {}); // awaited below; a failure before that is reported by the throw that skipped it
    const t0 = performance.now();
    const response = await fetch(`${running.baseUrl}/control/kill-switch`, { method: 'POST', headers: running.auth });
    const tResponse = performance.now();
    if (response.status !== 200)
      throw new Error(`trial ${trial}: kill-switch answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
    const { message, receivedAt } = await done;
    await resetKill(bench.store.control, { actor: 'bench', at: new Date().toISOString() }, 'benchmark: next trial');
    return {
      totalMs: receivedAt - t0,
      httpMs: tResponse - t0,
      toKilledMs: message.killedAtWallMs - (performance.timeOrigin + t0),
      killedToEmptyMs: message.killedToEmptyMs,
    };
  }
}

if (process.env.TCS_BENCH_ROLE === 'kill-trader') runTraderChild();
if (process.env.TCS_BENCH_ROLE === 'status-load') runStatusLoadChild();

runDirectly(run);
