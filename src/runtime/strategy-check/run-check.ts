/**
 * `tcs strategy check`: records the market once (tape.ts), then replays each strategy over it with a
 * fresh agent every time and compares the answers (compare.ts):
 *
 * - determinism: the full run twice; answers that differ come from something outside the bars
 *   (a clock, randomness, state the module keeps between agents), and every other verdict is moot;
 * - look-ahead: at each sampled cut, a run from the first cycle to the cut on a tape that ends there;
 *   an answer at or before the cut that differs from the full run's read a later bar;
 * - recursion: at each sampled cycle, an agent started there, once with the window a run gives it and
 *   once with twice as many bars; an answer that differs from the full run's depends on how much
 *   history came first (an EMA seeded from the first bar it was handed, a state built from the run's start);
 * - indicators: the same recursion runs, comparing the values of the indicators the strategy declared
 *   through trackIndicators (indicator-readings.ts) instead of its answers, so a biased indicator
 *   shows even where the signals happen to agree.
 */
import type { StrategyAgent } from '../../domain/strategy-agent.js';
import { historyBars, historyPlan, MAX_HISTORY_BARS } from '../../domain/strategy-input.js';
import { createRng } from '../../adapters/market-data/prng.js';
import { loadStrategies } from '../../strategies/registry.js';
import { ConfigError } from '../config.js';
import { dataSymbols, openRunMarket } from '../simulate/simulation-market.js';
import { replayDirectory, simulationConfig } from '../simulate/simulation-env.js';
import type { SimulateOptions } from '../simulate/simulate-options.js';
import type { TradingConfig } from '../trading/trading-config.js';
import { observeTrackers } from '../../strategies/indicators/observer.js';
import type { TrackerView } from '../../strategies/indicators/observer.js';
import type { Answer, Difference } from './compare.js';
import { firstDifference } from './compare.js';
import type { IndicatorDifference, Reading } from './indicator-readings.js';
import { firstIndicatorDifference, readTrackers } from './indicator-readings.js';
import type { CheckOptions } from './check-options.js';
import { whileWatched } from './data-reads.js';
import { replay } from './replay.js';
import type { ReplaySpan } from './replay.js';
import { recordTape, truncate } from './tape.js';
import type { Tape } from './tape.js';

export type CheckName = 'determinism' | 'look-ahead' | 'recursion' | 'indicators';

export interface Finding {
  check: CheckName;
  /** n/a: the indicators check of a strategy that declared none through trackIndicators. */
  verdict: 'ok' | 'bias' | 'n/a';
  /** When biased: where it first shows, and what the full run and the other run answered. */
  first?: Difference & { barTime: number | null; other: string };
  /** The indicators check, when biased: the first value that differs (barTime: the bar it is after). */
  indicator?: IndicatorDifference & { barTime: number; other: string };
  /** The indicators check: values of the full run (per symbol and bar) the other runs were compared with. */
  readings?: number;
  /**
   * The look-ahead check: files of the data directory the strategy opened itself (relative paths),
   * at import or while replayed (data-reads.ts); each is bias, whatever its answers.
   */
  dataFiles?: string[];
}

export interface StrategyReport {
  entry: string;
  /** The market as opened for this strategy (its warm-up decides the first cycle). */
  market: string;
  name: string;
  /** Bars a run gives the agent (its declared need, at least 60) and the longer window of the recursion check. */
  window: number;
  longWindow: number;
  cycles: number;
  /** Signals the full run gave (all symbols): a check of a strategy that never signalled proves little. */
  signals: number;
  /** Cycles sampled as cuts and starts. */
  samples: number[];
  findings: Finding[];
  notes: string[];
}

export interface CheckResult {
  tolerance: number;
  strategies: StrategyReport[];
  bias: boolean;
}

export async function runStrategyCheck(env: NodeJS.ProcessEnv, options: CheckOptions): Promise<CheckResult> {
  // Every strategy loads before any is checked: a typo in the third is told at once, not after two checks.
  const checks = [];
  for (const entry of options.entries) checks.push(await prepare(env, options, entry));
  const reports: StrategyReport[] = [];
  for (const check of checks) reports.push(await check());
  return {
    tolerance: options.tolerance,
    strategies: reports,
    bias: reports.some((r) => r.findings.some((f) => f.verdict === 'bias')),
  };
}

/** Loads the strategy (a bad entry is a ConfigError here) and returns its check, to run later. */
async function prepare(
  env: NodeJS.ProcessEnv,
  options: CheckOptions,
  entry: string,
): Promise<() => Promise<StrategyReport>> {
  const sim = simulateOptions(options, entry);
  const dataDir = replayDirectory(env, sim);
  const symbols = dataDir !== null && sim.symbols === null && !env.SYMBOLS?.trim() ? await dataSymbols(dataDir) : null;
  const config = simulationConfig(env, symbols === null ? sim : { ...sim, symbols });
  const params = config.strategyParams[entry];
  const fresh = async (): Promise<StrategyAgent> => {
    try {
      return (await loadStrategies(entry, params === undefined ? {} : { [entry]: params }))[0]!;
    } catch (err) {
      throw new ConfigError((err as Error).message);
    }
  };
  // The module is imported here: a read of the data files at import is the strategy's too.
  const loaded = await whileWatched(dataDir, async () => {
    const agent = await fresh();
    return { first: agent, shared: agent === (await fresh()) };
  });
  const { first, shared } = loaded.value;
  const readAtImport = loaded.read;
  const notes: string[] = [];
  if (shared)
    notes.push(
      'the module exports one agent object, not a factory: every replay shares its state, which shows as bias; export a factory',
    );
  return () => checkLoaded(options, entry, { sim, dataDir, config, first, fresh, notes, readAtImport });
}

interface Loaded {
  sim: SimulateOptions;
  dataDir: string | null;
  config: TradingConfig;
  first: StrategyAgent;
  fresh: () => Promise<StrategyAgent>;
  notes: string[];
  /** Files of the data directory the strategy read while it was imported. */
  readAtImport: string[];
}

async function checkLoaded(
  options: CheckOptions,
  entry: string,
  { sim, dataDir, config, first, fresh, notes, readAtImport }: Loaded,
): Promise<StrategyReport> {
  const windows = { short: 0, long: 0 };
  const opened = await openRunMarket(config, sim, dataDir, (barMs) => {
    try {
      windows.short = historyBars([historyPlan(first, barMs)]);
    } catch (err) {
      throw new ConfigError((err as Error).message);
    }
    windows.long = Math.min(2 * windows.short, MAX_HISTORY_BARS);
    // As a simulation: the first cycle waits for the declared need only; the tape keeps the long
    // window where the data has it (a recursion sample near the start gets what there is).
    return { bars: windows.long, required: Math.max(1, historyPlan(first, barMs).baseBars) };
  });
  const tape = await recordTape(opened.feed, opened.start, opened.config.cycleMs, opened.cycles);
  const nav = opened.config.startingCash;
  // Watched from here on, past the recording (the feed's own reading): the replays are the strategy's.
  const replayed = await whileWatched(dataDir, () =>
    checkTape(tape, fresh, {
      ...windows,
      nav,
      samples: options.samples,
      seed: options.sampleSeed,
      tolerance: options.tolerance,
    }),
  );
  const report = replayed.value;
  const dataFiles = [...new Set([...readAtImport, ...replayed.read])];
  if (dataFiles.length > 0)
    report.findings = report.findings.map((f) =>
      f.check === 'look-ahead' ? { ...f, verdict: 'bias' as const, dataFiles } : f,
    );
  return {
    entry,
    market: opened.description,
    name: first.name,
    window: windows.short,
    longWindow: windows.long,
    ...report,
    notes: [
      ...notes,
      ...(report.signals === 0
        ? ['the full run gave no signal: there was nothing to compare, so "ok" says little']
        : []),
      ...(report.findings.some((f) => f.check === 'indicators' && f.verdict === 'ok' && f.readings === 0)
        ? ['its declared indicators never had a value in the full run: none were compared, so "ok" says little']
        : []),
    ],
  };
}

interface TapeCheckOptions {
  short: number;
  long: number;
  nav: number;
  samples: number;
  seed: number;
  tolerance: number;
}

/** The three checks of one strategy on one tape. */
export async function checkTape(
  tape: Tape,
  fresh: () => Promise<StrategyAgent>,
  o: TapeCheckOptions,
): Promise<{ cycles: number; signals: number; samples: number[]; findings: Finding[] }> {
  const last = tape.cycles - 1;
  const run = (t: Tape, span: ReplaySpan) => observedRun(fresh, t, span);
  const full = await run(tape, { from: 0, to: last, window: o.short, nav: o.nav });
  const again = await run(tape, { from: 0, to: last, window: o.short, nav: o.nav });
  const samples = sampleCycles(tape.cycles, o.samples, o.seed);

  let lookAhead: { d: Difference; how: string } | null = null;
  for (const cut of samples) {
    const { answers } = await run(truncate(tape, cut), { from: 0, to: cut, window: o.short, nav: o.nav });
    const d = firstDifference(full.answers, answers, o.tolerance);
    if (d !== null && (lookAhead === null || d.cycle < lookAhead.d.cycle))
      lookAhead = { d, how: `data cut after cycle ${cut}` };
  }

  let recursion: { d: Difference; how: string } | null = null;
  let indicators: { d: IndicatorDifference; how: string } | null = null;
  for (const start of samples)
    for (const window of o.long > o.short ? [o.short, o.long] : [o.short]) {
      const other = await run(tape, { from: start, to: start, window, nav: o.nav });
      const how = `a fresh agent started at this bar with ${window} bars of history`;
      const d = firstDifference(full.answers, other.answers, o.tolerance);
      if (d !== null && (recursion === null || d.cycle < recursion.d.cycle)) recursion = { d, how };
      const v = firstIndicatorDifference(full.readings, other.readings, o.tolerance);
      if (v !== null && (indicators === null || v.cycle < indicators.d.cycle)) indicators = { d: v, how };
    }

  return {
    cycles: tape.cycles,
    signals: full.answers.filter((answer) => answer.outcome.kind === 'signal').length,
    samples,
    findings: [
      finding('determinism', firstDifference(full.answers, again.answers, o.tolerance), 'the full run again', tape),
      finding('look-ahead', lookAhead?.d ?? null, lookAhead?.how ?? '', tape),
      finding('recursion', recursion?.d ?? null, recursion?.how ?? '', tape),
      indicatorFinding(full, indicators),
    ],
  };
}

/**
 * One replay by a fresh agent, with the readings of every tracker it makes (in its factory or
 * later): the observer is installed only while this agent is made and run.
 */
async function observedRun(
  fresh: () => Promise<StrategyAgent>,
  tape: Tape,
  span: ReplaySpan,
): Promise<{ answers: Answer[]; readings: Reading[]; trackers: number }> {
  const trackers: TrackerView[] = [];
  const stop = observeTrackers((view) => trackers.push(view));
  try {
    const agent = await fresh();
    const readings: Reading[] = [];
    const last = new Map<string, number>();
    const answers = replay(agent, tape, span, (cycle, symbols) =>
      readTrackers(trackers, symbols, cycle, readings, last),
    );
    return { answers, readings, trackers: trackers.length };
  } finally {
    stop();
  }
}

function indicatorFinding(
  full: { readings: Reading[]; trackers: number },
  d: { d: IndicatorDifference; how: string } | null,
): Finding {
  const readings = full.readings.length;
  if (full.trackers === 0) return { check: 'indicators', verdict: 'n/a', readings };
  if (d === null) return { check: 'indicators', verdict: 'ok', readings };
  return { check: 'indicators', verdict: 'bias', readings, indicator: { ...d.d, barTime: d.d.time, other: d.how } };
}

function finding(check: CheckName, d: Difference | null, other: string, tape: Tape): Finding {
  if (d === null) return { check, verdict: 'ok' };
  const t = tape.symbols.get(d.symbol);
  const q = t?.quotes[d.cycle];
  const barTime = t && q ? t.columns.time[q.end]! : null;
  return { check, verdict: 'bias', first: { ...d, barTime, other } };
}

/**
 * `count` distinct cycles from 0 to `cycles − 2` (the last cycle has no later bar to read), sorted;
 * from a seeded stream, so a check is repeatable. All of them when there are no more than `count`.
 */
export function sampleCycles(cycles: number, count: number, seed: number): number[] {
  const span = cycles - 1;
  if (span <= count) return Array.from({ length: Math.max(0, span) }, (_, i) => i);
  const rng = createRng(`strategy-check:${seed}`);
  const picked = new Set<number>();
  while (picked.size < count) picked.add(Math.floor(rng.next() * span));
  return [...picked].sort((a, b) => a - b);
}

/** The options of `tcs simulate` that open the same market. */
function simulateOptions(o: CheckOptions, entry: string): SimulateOptions {
  return {
    out: '',
    cycles: o.cycles,
    seed: o.seed,
    data: o.data,
    from: o.from,
    to: o.to,
    strategies: entry,
    symbols: o.symbols,
    cash: null,
    cycleSeconds: null,
    quiet: true,
  };
}

/** The command: prints the table (or JSON) and returns the exit code, 0 clean and 1 on bias. */
export async function runStrategyCheckCommand(env: NodeJS.ProcessEnv, options: CheckOptions): Promise<number> {
  const result = await runStrategyCheck(env, options);
  const { checkJson, checkTable } = await import('./check-report.js');
  process.stdout.write(`${options.json ? checkJson(result) : checkTable(result)}\n`);
  return result.bias ? 1 : 0;
}
