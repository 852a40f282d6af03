/**
 * `tcs simulate`: one simulation run, start to end. The trading actor system is built exactly as
 * the trading process builds it (createTradingSystem), on a SimulatedClock that is both its clock
 * and its timers, with the run's own store in --out; the loop advances the clock by one cycle,
 * waits until the cycle has settled (decision recorded, order manager idle) and hands what happened
 * to the recorder. Ctrl-C ends the loop after the current cycle; the report is written either way.
 */
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { pino } from 'pino';
import { SimulatedClock } from 'xstate';
import { createRunKv } from '../../adapters/memory/run-kv.js';
import { openRunStore } from '../../adapters/sqlite/run-store.js';
import type { EventLine } from '../../domain/event-lines.js';
import type { MarketView } from '../../domain/market.js';
import { systemClock } from '../../ports/clock.js';
import type { MarketFeed } from '../../ports/market-feed.js';
import { strategyHistory } from '../trading/strategy-history.js';
import { readInt } from '../config.js';
import { assertStrategiesLoad } from '../trading/strategy-check.js';
import { createTradingSystem } from '../trading/trading-system.js';
import { createProgressBar } from './progress-bar.js';
import { createRunObserver } from './run-observer.js';
import { funnelWarnings } from '../../domain/signal-funnel-warnings.js';
import { createRunOutput } from './run-output.js';
import { replayDirectory, RUN_STORE_FILE, simulationConfig } from './simulation-env.js';
import { dataSymbols, indexReplay, openRunMarket } from './simulation-market.js';
import { runInterrupt } from './run-interrupt.js';
import type { SimulateOptions } from './simulate-options.js';

/** Commit the run's store this often (cycles): bounded loss on a crash, few commits. */
const COMMIT_EVERY = 2_000;

/**
 * Test-only (not in .env.example): commit the store and write the CSV files every N cycles (rows),
 * so the tests that watch a run's files or kill it mid-transaction need dozens or hundreds of
 * cycles instead of thousands of simulated cycles of CPU.
 */
const TEST_FLUSH_ENV = 'TCS_TEST_SIM_FLUSH_EVERY';

export interface SimulationResult {
  exitCode: 0 | 130;
  cycles: number;
  /** Wall time of the cycle loop alone (not opening, not writing the report), ms. */
  loopMs: number;
  /**
   * The signal funnel's warnings (src/domain/signal-funnel-warnings.ts), for `tcs simulate` to print;
   * a sweep's trials leave them to their summary.json rather than repeat them per trial.
   */
  warnings: string[];
}

/** Called after every cycle with the number done so far (benchmarks sample memory with it). */
export type CycleHook = (done: number) => void;

export async function runSimulation(
  env: NodeJS.ProcessEnv,
  options: SimulateOptions,
  afterCycle?: CycleHook,
): Promise<SimulationResult> {
  const run = await openRun(env, options);
  let loop: LoopOutcome;
  try {
    loop = await driveCycles(run, options.quiet, afterCycle);
  } catch (err) {
    // A run that failed still leaves what it saw: the report of the cycles before the failure.
    await closeRun(run, 'failed').catch(() => {});
    try {
      run.output.finish({ to: run.clock.now(), partial: true });
    } catch {
      // The failure is what matters; it is rethrown below.
    }
    throw err;
  }
  await closeRun(run, loop.interrupted ? 'interrupted' : 'simulation finished');
  const summary = run.output.finish({ to: run.clock.now(), partial: loop.interrupted || loop.done < run.total });
  if (loop.killed)
    process.stderr.write(
      `tcs simulate: the circuit breaker killed trading after ${loop.done} cycles; the run ends there\n`,
    );
  if (!options.quiet) {
    const rate = Math.round(loop.done / Math.max(loop.loopMs / 1000, 1e-3));
    process.stderr.write(
      `tcs simulate: ${loop.done} cycles in ${(loop.loopMs / 1000).toFixed(1)} s (${rate} cycles/s); results in ${options.out}\n`,
    );
  }
  return {
    exitCode: loop.interrupted ? 130 : 0,
    cycles: loop.done,
    loopMs: loop.loopMs,
    warnings: funnelWarnings(summary.signal_funnel),
  };
}

type OpenRun = Awaited<ReturnType<typeof openRun>>;

/** The run's market, store, clock, output and trading system, ready for its first cycle. */
async function openRun(env: NodeJS.ProcessEnv, options: SimulateOptions) {
  const dataDir = replayDirectory(env, options);
  // A replay trades the directory's symbols unless told otherwise.
  const symbols =
    dataDir !== null && options.symbols === null && !env.SYMBOLS?.trim() ? await dataSymbols(dataDir) : null;
  const asked = simulationConfig(env, symbols === null ? options : { ...options, symbols });
  // A replay's data is checked before any strategy module is imported: the check reads every row,
  // which a module patching globals at import would otherwise see go by (issue 34, item 1).
  const replay = dataDir === null ? null : await indexReplay(asked, dataDir);
  // Strategies before the market (what they declare decides the history it fills before cycle 1) and
  // before anything is written: strategies that do not load are bad configuration (exit 2), as in tcs trade.
  const agents = await assertStrategiesLoad(asked);
  const market = await openRunMarket(asked, options, replay, (barMs) => strategyHistory(agents, barMs));
  const { config, start, cycles: total } = market;
  const strategies = agents.map((s) => s.name);
  mkdirSync(options.out, { recursive: true, mode: 0o700 });
  const runStore = await openRunStore(join(options.out, RUN_STORE_FILE), {
    auditThread: options.auditThread ?? availableParallelism() > 1,
  });
  const clock = new SimulatedClock();
  clock.set(start);
  await runStore.store.control.initialise(new Date(start).toISOString());

  const seen = { last: null as MarketView | null };
  const flushEvery = env[TEST_FLUSH_ENV]?.trim() ? readInt(env, TEST_FLUSH_ENV, COMMIT_EVERY, 1, 1_000_000) : null;
  const output = createRunOutput(options.out, config, {
    start,
    market: market.description,
    strategies,
    cycles: total,
    ...(flushEvery === null ? {} : { csvBatchRows: flushEvery }),
  });
  const observer = createRunObserver(output.sink);
  const system = await createTradingSystem({
    config,
    store: { ...runStore.store, kv: createRunKv() },
    lines: { emit: (line: EventLine) => observer.line(line) },
    log: pino({ level: config.logLevel }, process.stderr),
    clock,
    timers: clock,
    backgroundTimers: false,
    // No API reads a run's heartbeat, account document or metrics: nothing is published.
    publishing: false,
    sessionId: 'sim',
    venuePersistence: 'process',
    feed: watched(market.feed, seen),
    // A simulated minute passes every cycle: the strategies' warnings are limited by the wall clock.
    warningClock: systemClock,
  });
  return { config, total, runStore, clock, seen, output, observer, system, commitEvery: flushEvery ?? COMMIT_EVERY };
}

interface LoopOutcome {
  done: number;
  interrupted: boolean;
  killed: boolean;
  loopMs: number;
}

/** The cycles, one after another, until the planned number, Ctrl-C or a kill. */
async function driveCycles(run: OpenRun, quiet: boolean, afterCycle?: CycleHook): Promise<LoopOutcome> {
  const { system, clock, config } = run;
  const outcome: LoopOutcome = { done: 0, interrupted: false, killed: false, loopMs: 0 };
  runInterrupt.loopStarted();
  const progress = quiet ? null : createProgressBar(run.total);
  const started = performance.now();
  try {
    // The first cycle starts at once; every later one when the clock has moved one cycle on.
    while (outcome.done < run.total && !runInterrupt.requested) {
      if (outcome.done > 0) clock.increment(config.cycleMs);
      await system.settled();
      const { lastCycle } = system.actor.getSnapshot().context;
      run.observer.cycleEnded(lastCycle, await system.venue.account(), run.seen.last, clock.now());
      const done = (outcome.done += 1);
      if (done % run.commitEvery === 0) run.runStore.commit();
      progress?.update(done, clock.now());
      afterCycle?.(done);
      // A cycle settles in microtasks alone: without a turn of the event loop now and then, the
      // SIGINT handler (and the progress bar's stream) would never run. Every 64 cycles is a few
      // tens of ms of wall time, and costs nothing measurable.
      if (done % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
      // CIRCUIT_BREAKER_DRAWDOWN tripped the kill switch: nothing trades any more, so the run ends here.
      if (system.state() === 'killed') {
        outcome.killed = true;
        break;
      }
    }
    outcome.loopMs = performance.now() - started;
    outcome.interrupted = runInterrupt.requested;
    return outcome;
  } finally {
    runInterrupt.loopEnded();
    progress?.finish();
  }
}

/** Stops the system (its last decision reaches the event store), commits and closes the run's store. */
async function closeRun(run: OpenRun, reason: string): Promise<void> {
  try {
    await run.system.stop(reason);
  } finally {
    run.runStore.commit();
    await run.runStore.store.close();
  }
}

/** The feed, remembering the last market it returned (the prices the report draws). */
function watched(feed: MarketFeed, market: { last: MarketView | null }): MarketFeed {
  return {
    instruments: feed.instruments,
    ...(feed.barMs === undefined ? {} : { barMs: feed.barMs }),
    async next(now) {
      market.last = await feed.next(now);
      return market.last;
    },
    // A replay's feed holds its data files open (it reads each candle when its cycle comes).
    ...(feed.close === undefined ? {} : { close: () => feed.close!() }),
  };
}
