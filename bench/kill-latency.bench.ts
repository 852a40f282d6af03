/**
 * Kill-switch latency across two processes: from sending POST /control/kill-switch to the API (this
 * process, createApi on 127.0.0.1) until the trading system in a CHILD process (createTradingSystem on
 * its own connection to the same store, real clock and timers, CYCLE_SECONDS=3600 so it idles,
 * ORDER_STYLE=passive) has its root in control.killed AND its paper venue has no open orders.
 * Before each trial the child starts a fresh trading system (killed is final), waits for its first
 * cycle and places three paper limit orders far from the market so they rest; the parent then times
 * the kill and the child reports over IPC the moment both conditions hold (root observed through an
 * actor subscription, open orders polled with setImmediate). The time stops when that IPC message
 * arrives here, so it includes one IPC hop (~0.1 ms). Between trials the parent calls
 * resetKill(store.control, ); setup and reset are not timed. The child role is this same file with
 * TCS_BENCH_ROLE=kill-trader. KILL_TRIALS overrides the 200 counted trials per store.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createSyntheticFeed } from '../src/adapters/market-data/index.js';
import { openStore } from '../src/adapters/open-store.js';
import { floorToLot } from '../src/domain/market.js';
import { systemClock } from '../src/ports/clock.js';
import { createTradingSystem } from '../src/runtime/trading/trading-system.js';
import type { TradingSystem } from '../src/runtime/trading/trading-system.js';
import { int, ms, summarize } from './stats.js';
import type { Summary } from './stats.js';
import {
  API_SYMBOLS,
  REPO_ROOT,
  gcText,
  openBenchStore,
  printResult,
  runDirectly,
  sendToParent,
  startApi,
  watchGc,
  withDeadline,
} from './support.js';
import { benchTradingConfig, noopLines, silentLog } from './trading.js';
import type { BenchResult, GcStats, StoreKind } from './support.js';
import { resetKill } from '../src/application/control-transition.js';

const TRIALS = Number(process.env.KILL_TRIALS ?? 200);
const WARMUP = 10;
/** Per store; past it the run stops early and says so. */
const STORE_BUDGET_MS = 180_000;
const TRIAL_TIMEOUT_MS = 10_000;
const RESTING_ORDERS = 3;
const MAX_PHASE_DELAY_MS = 10;
const AIMS: Record<StoreKind, number> = { redis: 10, sqlite: 50 };

type ToChild = { type: 'prepare'; trial: number } | { type: 'finish' };
type FromChild =
  | { type: 'ready'; trial: number; open: number }
  | { type: 'done'; trial: number; killedAtWallMs: number; killedToEmptyMs: number }
  | { type: 'error'; message: string };

export interface Trial {
  trial: number;
  totalMs: number;
  httpMs: number;
  toKilledMs: number;
  killedToEmptyMs: number;
}

export interface KillStoreFigures {
  store: StoreKind;
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
  stoppedEarly: string | null;
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const figures: KillStoreFigures[] = [];
  const notes: string[] = [];
  for (const kind of ['redis', 'sqlite'] as const) {
    const result = await measureStore(kind);
    figures.push(result);
    if (result.stoppedEarly) notes.push(`${kind}: ${result.stoppedEarly}`);
  }
  const result: BenchResult = {
    id: 'kill-latency',
    title: 'Kill-switch latency (API process → trading process)',
    command: 'node bin/run-ts.mjs bench/kill-latency.bench.ts',
    method: [
      'API (createApi) listens on 127.0.0.1 in the benchmark process; the trading system runs in a child process (same file, TCS_BENCH_ROLE=kill-trader) on its own store connection, real clock and timers, CYCLE_SECONDS=3600, ORDER_STYLE=passive, SYMBOLS=BTCUSDT,ETHUSDT,SOLUSDT.',
      `Each trial: a fresh trading system in the child (killed is final), its first cycle settled, ${RESTING_ORDERS} paper BUY limits at half the bid placed with system.venue.submit; then the kill is timed; resetKill(store.control, ) between trials (untimed).`,
      'Stop: the child sees the root in control.killed (actor subscription) and venue.openOrders() empty (polled with setImmediate), and sends an IPC message; the time is taken when that message arrives in the parent (one IPC hop included).',
      `Before each timed POST, an untimed random pause of 0–${MAX_PHASE_DELAY_MS} ms, so kills arrive at random phases of the child's timers (the SQLite store notices changes by polling PRAGMA data_version every 5 ms). ${WARMUP} warm-up trials per store are not counted.`,
    ],
    tables: [
      {
        headers: ['store', 'trials', 'p50', 'p90', 'p99', 'max', 'GC in API process (counted trials)', 'aim p99'],
        rows: figures.map((f) => [
          f.store,
          int(f.trials),
          ms(f.total.p50),
          ms(f.total.p90),
          ms(f.total.p99),
          ms(f.total.max),
          gcText(f.gc),
          `< ${AIMS[f.store]} ms`,
        ]),
      },
      {
        caption:
          'Parts of the path, p50 / p99: the HTTP answer in the API process; POST sent → root killed in the child (wall clocks of two processes, approximate); root killed → no open orders (child clock)',
        headers: ['store', 'HTTP response', 'POST → root killed', 'killed → no open orders'],
        rows: figures.map((f) => [
          f.store,
          `${ms(f.http.p50)} / ${ms(f.http.p99)}`,
          `${ms(f.toKilled.p50)} / ${ms(f.toKilled.p99)}`,
          `${ms(f.killedToEmpty.p50)} / ${ms(f.killedToEmpty.p99)}`,
        ]),
      },
      {
        caption:
          'The five slowest counted trials per store, with their parts (when the parts are small but the total is not, the time went to the IPC hop or to a pause in the API process)',
        headers: ['store', 'trial', 'total', 'HTTP response', 'POST → root killed', 'killed → no open orders'],
        rows: figures.flatMap((f) =>
          f.slowest.map((t) => [
            f.store,
            String(t.trial),
            ms(t.totalMs),
            ms(t.httpMs),
            ms(t.toKilledMs),
            ms(t.killedToEmptyMs),
          ]),
        ),
      },
    ],
    aims: figures.map((f) => ({
      text: `${f.store}: kill p99 < ${AIMS[f.store]} ms (measured ${ms(f.total.p99)} over ${f.trials} trials)`,
      met: f.trials > 0 ? f.total.p99 < AIMS[f.store] : null,
    })),
    notes,
    seconds: (performance.now() - started) / 1000,
    data: figures,
  };
  printResult(result);
  return result;
}

async function measureStore(kind: StoreKind): Promise<KillStoreFigures> {
  const bench = await openBenchStore(kind);
  const api = await startApi(bench.store);
  // `node bin/run-ts.mjs bench/kill-latency.bench.ts` with an IPC channel.
  const child = fork(join(REPO_ROOT, 'bin/run-ts.mjs'), [join(REPO_ROOT, 'bench/kill-latency.bench.ts')], {
    execArgv: [],
    env: { ...process.env, TCS_BENCH_ROLE: 'kill-trader', STORE_URL: bench.url },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const inbox = new Inbox(child);
  const trials: Trial[] = [];
  let stoppedEarly: string | null = null;
  let gcWatch: ReturnType<typeof watchGc> | null = null;
  let gc: GcStats = { count: 0, totalMs: 0, maxMs: 0 };
  const began = performance.now();
  try {
    for (let trial = 0; trial < WARMUP + TRIALS; trial++) {
      if (trial === WARMUP) gcWatch = watchGc();
      if (performance.now() - began > STORE_BUDGET_MS) {
        stoppedEarly = `stopped after ${trials.length} counted trials: the ${STORE_BUDGET_MS / 1000} s budget per store was used up`;
        break;
      }
      inbox.send({ type: 'prepare', trial });
      const { message: ready } = await inbox.next('ready', TRIAL_TIMEOUT_MS);
      if (ready.open < RESTING_ORDERS)
        throw new Error(`trial ${trial}: only ${ready.open} open orders before the kill`);
      // A random pause (untimed) so the kill does not always land at the same phase of the child's
      // timers: right after 'ready' the SQLite watcher's overdue 5 ms poll has just run.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * MAX_PHASE_DELAY_MS));

      const done = inbox.next('done', TRIAL_TIMEOUT_MS);
      done.catch(() => {}); // awaited below; a failure before that is reported by the throw that skipped it
      const t0 = performance.now();
      const response = await fetch(`${api.baseUrl}/control/kill-switch`, { method: 'POST', headers: api.auth });
      const tResponse = performance.now();
      if (response.status !== 200)
        throw new Error(`trial ${trial}: kill-switch answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
      const { message, receivedAt } = await done;
      if (trial >= WARMUP) {
        trials.push({
          trial: trial - WARMUP + 1,
          totalMs: receivedAt - t0,
          httpMs: tResponse - t0,
          toKilledMs: message.killedAtWallMs - (performance.timeOrigin + t0),
          killedToEmptyMs: message.killedToEmptyMs,
        });
      }
      await resetKill(bench.store.control, { actor: 'bench', at: new Date().toISOString() }, 'benchmark: next trial');
    }
    inbox.send({ type: 'finish' });
    await withDeadline(inbox.exited, 20_000, 'kill-trader child exit');
  } catch (err) {
    stoppedEarly = `stopped after ${trials.length} counted trials: ${(err as Error).message}`;
    child.kill('SIGKILL');
  } finally {
    if (gcWatch) gc = await gcWatch.stop();
    await api.close();
    await bench.cleanup();
  }
  const of = (pick: (t: Trial) => number) => summarize(trials.map(pick));
  return {
    store: kind,
    trials: trials.length,
    total: of((t) => t.totalMs),
    http: of((t) => t.httpMs),
    toKilled: of((t) => t.toKilledMs),
    killedToEmpty: of((t) => t.killedToEmptyMs),
    slowest: [...trials].sort((a, b) => b.totalMs - a.totalMs).slice(0, 5),
    gc,
    stoppedEarly,
  };
}

/** Messages from the child, each stamped with performance.now() the moment it arrived. */
class Inbox {
  private readonly queue: Array<{ message: FromChild; receivedAt: number }> = [];
  private waiter: (() => void) | null = null;
  private failure: Error | null = null;
  readonly exited: Promise<void>;

  constructor(private readonly child: ChildProcess) {
    child.on('message', (message: FromChild) => {
      const receivedAt = performance.now();
      if (message.type === 'error') this.failure = new Error(`child: ${message.message}`);
      else this.queue.push({ message, receivedAt });
      this.waiter?.();
    });
    this.exited = new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        if (code !== 0) this.failure ??= new Error(`kill-trader child exited (code ${code}, signal ${signal})`);
        this.waiter?.();
        resolve();
      }),
    );
  }

  send(message: ToChild): void {
    this.child.send(message);
  }

  async next<T extends FromChild['type']>(
    type: T,
    timeoutMs: number,
  ): Promise<{ message: Extract<FromChild, { type: T }>; receivedAt: number }> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (this.failure) throw this.failure;
      const index = this.queue.findIndex((m) => m.message.type === type);
      if (index >= 0) {
        const [entry] = this.queue.splice(index, 1);
        return { message: entry!.message as Extract<FromChild, { type: T }>, receivedAt: entry!.receivedAt };
      }
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no "${type}" from the child within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = null;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Child role: the trading process side.

async function traderChild(): Promise<void> {
  const url = process.env.STORE_URL;
  if (!url) throw new Error('STORE_URL is not set');
  const send = (message: FromChild) => process.send?.(message);
  const store = await openStore(url);
  const config = benchTradingConfig(url, { SYMBOLS: API_SYMBOLS, CYCLE_SECONDS: '3600', ORDER_STYLE: 'passive' });
  // Only for reference prices of the resting orders; the system has its own feed.
  const referenceFeed = createSyntheticFeed({
    instruments: config.instruments,
    seed: config.marketSeed,
    stepMs: 60_000,
  });
  let system: TradingSystem | null = null;

  const prepare = async (trial: number) => {
    if (system) await system.stop('benchmark trial over');
    system = null;
    const control = await store.control.read();
    if (control.state !== 'running')
      throw new Error(`trial ${trial}: the store is ${control.state}, expected running after resetKill`);
    const current = await createTradingSystem({
      config,
      store,
      lines: noopLines(),
      log: silentLog(),
      clock: systemClock,
    });
    system = current;
    await current.settled();
    const market = await referenceFeed.next(Date.now());
    for (const instrument of config.instruments.slice(0, RESTING_ORDERS)) {
      const snapshot = market.get(instrument.symbol)!;
      const limitPrice = floorToLot(snapshot.bid * 0.5, instrument.tickSize);
      const qty = Math.max(
        instrument.lotSize,
        floorToLot((instrument.minNotional * 4) / limitPrice, instrument.lotSize),
      );
      const { order } = await current.venue.submit(
        {
          clientOrderId: `bench-rest-${process.pid}-${trial}-${instrument.symbol}`,
          symbol: instrument.symbol,
          side: 'BUY',
          qty,
          type: 'limit',
          limitPrice,
          reduceOnly: false,
        },
        market,
      );
      if (order.status !== 'open')
        throw new Error(
          `trial ${trial}: resting order on ${instrument.symbol} is ${order.status} (${order.rejectReason ?? ''})`,
        );
    }
    const open = (await current.venue.openOrders()).length;
    arm(current, trial);
    send({ type: 'ready', trial, open });
  };

  /** Reports once the root is killed and the venue holds no open orders. */
  const arm = (current: TradingSystem, trial: number) => {
    let killedAt: number | null = null;
    const onKilled = async () => {
      for (;;) {
        if ((await current.venue.openOrders()).length === 0) break;
        await nextTurn();
      }
      send({
        type: 'done',
        trial,
        killedAtWallMs: performance.timeOrigin + killedAt!,
        killedToEmptyMs: performance.now() - killedAt!,
      });
    };
    const subscription = current.actor.subscribe((snapshot) => {
      if (killedAt !== null || !snapshot.matches({ control: 'killed' })) return;
      killedAt = performance.now();
      subscription.unsubscribe();
      onKilled().catch((err: unknown) => send({ type: 'error', message: String((err as Error).stack ?? err) }));
    });
  };

  process.on('message', (message: ToChild) => {
    if (message.type === 'prepare') {
      prepare(message.trial).catch((err: unknown) =>
        send({ type: 'error', message: String((err as Error).stack ?? err) }),
      );
      return;
    }
    void (async () => {
      if (system) await system.stop('benchmark over');
      await store.close();
      process.exit(0);
    })();
  });
}

if (process.env.TCS_BENCH_ROLE === 'kill-trader') {
  // Never outlive the parent (its IPC channel closes when it exits).
  process.on('disconnect', () => process.exit(0));
  traderChild().catch(async (err: unknown) => {
    await sendToParent({ type: 'error', message: String((err as Error).stack ?? err) } satisfies FromChild);
    process.exit(1);
  });
}

runDirectly(run);
