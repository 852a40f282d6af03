/**
 * `tcs simulate`: one simulation run, start to end. The trading actor system is built exactly as
 * the trading process builds it (createTradingSystem), on a SimulatedClock that is both its clock
 * and its timers, with the run's own store in --out; the loop advances the clock by one cycle,
 * waits until the cycle has settled (decision recorded, order manager idle) and hands what happened
 * to the recorder. Ctrl-C ends the loop after the current cycle; the report is written either way.
 */
import { mkdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { pino } from 'pino';
import { SimulatedClock } from 'xstate';
import { createRunKv } from '../../adapters/memory/run-kv.js';
import { openRunStore } from '../../adapters/sqlite/sqlite-store.js';
import type { EventLine } from '../../domain/event-lines.js';
import type { MarketView } from '../../domain/market.js';
import type { MarketFeed } from '../../ports/market-feed.js';
import { loadStrategies } from '../../strategies/registry.js';
import { createTradingSystem } from '../trading/trading-system.js';
import { createProgressBar } from './progress-bar.js';
import { createRunObserver } from './run-observer.js';
import { createRunOutput } from './run-output.js';
import { replayDirectory, RUN_STORE_FILE, simulationConfig } from './simulation-env.js';
import { dataSymbols, openRunMarket } from './simulation-market.js';
import type { SimulateOptions } from './simulate-options.js';

/** Commit the run's store this often (cycles): bounded loss on a crash, few commits. */
const COMMIT_EVERY = 2_000;

export interface SimulationResult {
  exitCode: 0 | 130;
  cycles: number;
  /** Wall time of the cycle loop alone (not opening, not writing the report), ms. */
  loopMs: number;
}

/** Called after every cycle with the number done so far (benchmarks sample memory with it). */
export type CycleHook = (done: number) => void;

export async function runSimulation(
  env: NodeJS.ProcessEnv,
  options: SimulateOptions,
  afterCycle?: CycleHook,
): Promise<SimulationResult> {
  const dataDir = replayDirectory(env, options);
  // A replay trades the directory's symbols unless told otherwise.
  const symbols =
    dataDir !== null && options.symbols === null && !env.SYMBOLS?.trim() ? await dataSymbols(dataDir) : null;
  const asked = simulationConfig(env, symbols === null ? options : { ...options, symbols });
  const market = await openRunMarket(asked, options, dataDir);
  const { config, start, cycles: total } = market;
  mkdirSync(options.out, { recursive: true, mode: 0o700 });
  const run = await openRunStore(join(options.out, RUN_STORE_FILE));
  const clock = new SimulatedClock();
  clock.set(start);
  await run.store.control.initialise(new Date(start).toISOString());

  const seen = { last: null as MarketView | null };
  const feed = watched(market.feed, seen);
  const strategies = (await loadStrategies(config.strategies, config.strategyParams)).map((s) => s.name);
  const output = createRunOutput(options.out, config, { start, market: market.description, strategies, cycles: total });
  const recorder = createRunObserver(output.sink);
  const system = await createTradingSystem({
    config,
    store: { ...run.store, kv: createRunKv() },
    lines: { emit: (line: EventLine) => recorder.line(line) },
    log: pino({ level: config.logLevel }, process.stderr),
    clock,
    timers: clock,
    backgroundTimers: false,
    sessionId: 'sim',
    venuePersistence: 'process',
    feed,
  });

  let interrupted = false;
  const onSigint = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
  };
  process.on('SIGINT', onSigint);
  const progress = options.quiet ? null : createProgressBar(total);
  let done = 0;
  const loopStarted = performance.now();
  let loopMs = 0;
  try {
    // The first cycle starts at once; every later one when the clock has moved one cycle on.
    while (done < total && !interrupted) {
      if (done > 0) clock.increment(config.cycleMs);
      await system.settled();
      const snapshot = system.actor.getSnapshot().context;
      recorder.cycleEnded(snapshot.lastCycle, await system.venue.account(), seen.last, clock.now());
      done += 1;
      if (done % COMMIT_EVERY === 0) run.commit();
      progress?.update(done, clock.now());
      afterCycle?.(done);
      // A cycle settles in microtasks alone: without a turn of the event loop now and then, the
      // SIGINT handler (and the progress bar's stream) would never run. Every 64 cycles is a few
      // tens of ms of wall time, and costs nothing measurable.
      if (done % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    loopMs = performance.now() - loopStarted;
  } finally {
    process.off('SIGINT', onSigint);
    progress?.finish();
    await system.stop(interrupted ? 'interrupted' : 'simulation finished');
    run.commit();
    await run.store.close();
  }
  output.finish({ to: clock.now(), partial: interrupted || done < total });
  if (!options.quiet) {
    const rate = Math.round(done / Math.max(loopMs / 1000, 1e-3));
    process.stderr.write(
      `tcs simulate: ${done} cycles in ${(loopMs / 1000).toFixed(1)} s (${rate} cycles/s); results in ${options.out}\n`,
    );
  }
  return { exitCode: interrupted ? 130 : 0, cycles: done, loopMs };
}

/** The feed, remembering the last market it returned (the prices the report draws). */
function watched(feed: MarketFeed, market: { last: MarketView | null }): MarketFeed {
  return {
    instruments: feed.instruments,
    async next(now) {
      market.last = await feed.next(now);
      return market.last;
    },
  };
}
