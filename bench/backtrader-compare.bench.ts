/**
 * The SMA run against backtrader, side by side (issue 34, item 8): the same long/flat SMA(10/30)
 * crossover, fixed size 1, next-open market fills, 0.04 % taker fee, no spread, on 3 symbols × 60,480
 * one-minute bars with trends and gaps (backtrader/generate-data.ts), in `tcs simulate` (the compiled
 * CLI, audit trail written) and in backtrader (its source tree, BACKTRADER_DIR; never committed).
 * Three interleaved pairs (tcs, backtrader, tcs, …), each a whole process, start-up included, timed
 * by backtrader/measure.py: wall, CPU (the process and its children) and peak RSS. Bars per second
 * = 3 × 60,480 / wall; ratios tcs ÷ backtrader per pair. Before the timed runs, one untimed
 * backtrader run writes its fills, compared fill by fill with the first tcs run's trades.csv. Then the
 * cost of isolation per cycle: bench/strategy-isolation.ts run as a child, its 60-bar row × 3 calls.
 *
 *   BACKTRADER_DIR=/tmp/backtrader node bin/run-ts.mjs bench/backtrader-compare.bench.ts
 *
 * Without BACKTRADER_DIR it measures nothing and says so (not a failure). PYTHON overrides python3.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compareFills } from './backtrader/compare-fills.js';
import { BARS, SYMBOLS, TAKER_FEE, generateBars } from './backtrader/generate-data.js';
import { SMA_RUN_ENV } from './backtrader/run-env.js';
import { int, mb } from './stats.js';
import { REPO_ROOT, printResult, runDirectly } from './support.js';
import type { BenchResult } from './support.js';

const PAIRS = 3;
const TOTAL_BARS = SYMBOLS.length * BARS;
const AIM_RATIO = 1.0;
const STRETCH_RATIO = 1.5;
const AIM_RSS_MB = 250;
const PYTHON = process.env.PYTHON ?? 'python3';
const HERE = join(REPO_ROOT, 'bench/backtrader');
const COMMAND = 'BACKTRADER_DIR=/tmp/backtrader node bin/run-ts.mjs bench/backtrader-compare.bench.ts';

/** The run's configuration (run-env.ts), quiet. */
const TCS_ENV = { ...SMA_RUN_ENV, LOG_LEVEL: 'silent' };

type Engine = 'tcs' | 'backtrader';

interface Trial {
  pair: number;
  engine: Engine;
  wallS: number;
  cpuS: number;
  rssMb: number;
  fills: number;
  finalValue: number;
}

/** One whole process under measure.py; throws with the log's tail when it fails. */
function measured(
  log: string,
  command: string[],
  env: NodeJS.ProcessEnv,
): { wallS: number; cpuS: number; rssMb: number } {
  const out = execFileSync(PYTHON, [join(HERE, 'measure.py'), log, ...command], {
    cwd: REPO_ROOT,
    env,
    encoding: 'utf8',
  });
  const m = JSON.parse(out.trim().split('\n').pop()!) as {
    code: number;
    wall_s: number;
    cpu_s: number;
    max_rss_kb: number;
  };
  if (m.code !== 0)
    throw new Error(`${command.join(' ')} exited ${m.code}:\n${readFileSync(log, 'utf8').slice(-2000)}`);
  return { wallS: m.wall_s, cpuS: m.cpu_s, rssMb: m.max_rss_kb / 1024 };
}

function tcsTrial(pair: number, data: string, work: string): Trial {
  const out = join(work, `tcs-${pair}`);
  const strategy = join(HERE, 'sma-cross.ts');
  const cost = measured(
    join(work, `tcs-${pair}.log`),
    [
      process.execPath,
      join(REPO_ROOT, 'bin/tcs.mjs'),
      'simulate',
      '--data',
      data,
      '--strategies',
      strategy,
      '--out',
      out,
      '--quiet',
    ],
    { ...process.env, ...TCS_ENV },
  );
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { fills: number; final_nav: number };
  if (!existsSync(join(out, 'events.db'))) throw new Error(`tcs run ${pair} wrote no audit trail (events.db)`);
  return { pair, engine: 'tcs', ...cost, fills: summary.fills, finalValue: summary.final_nav };
}

function btTrial(pair: number, backtrader: string, data: string, work: string): Trial {
  const log = join(work, `bt-${pair}.log`);
  const cost = measured(log, [PYTHON, join(HERE, 'sma_cross.py'), backtrader, data], process.env);
  const line = readFileSync(log, 'utf8').trim().split('\n').pop()!;
  const result = JSON.parse(line) as { bars: number; fills: number; value: number };
  if (result.bars !== TOTAL_BARS) throw new Error(`backtrader read ${result.bars} bars, expected ${TOTAL_BARS}`);
  return { pair, engine: 'backtrader', ...cost, fills: result.fills, finalValue: result.value };
}

/** ns per analyse call of the isolation (own copy of 60 closes) beyond reading the feed's memory, from strategy-isolation.ts. */
function isolationNs(): number {
  const out = execFileSync(process.execPath, [join(REPO_ROOT, 'bin/run-ts.mjs'), 'bench/strategy-isolation.ts'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  const row = out.split('\n').find((line) => /^\|\s*60\s*\|/.test(line));
  const cells = row?.split('|').map((c) => Number(c.trim()));
  if (!cells || !Number.isFinite(cells[2]) || !Number.isFinite(cells[3]))
    throw new Error(`bench/strategy-isolation.ts printed no 60-bar row:\n${out}`);
  return cells[3]! - cells[2]!;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function skipped(started: number): BenchResult {
  const message =
    'skipped: BACKTRADER_DIR is not set. Export backtrader (github.com/mementum/backtrader) outside the repository and name its directory, e.g. BACKTRADER_DIR=/tmp/backtrader';
  console.log(message);
  return {
    id: 'backtrader-compare',
    title: 'The SMA run against backtrader, side by side (skipped)',
    command: COMMAND,
    method: [],
    tables: [],
    aims: [],
    figures: [],
    notes: [message],
    seconds: (performance.now() - started) / 1000,
    data: null,
  };
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const backtrader = process.env.BACKTRADER_DIR;
  if (!backtrader) return skipped(started);
  if (!existsSync(join(backtrader, 'backtrader', '__init__.py')))
    throw new Error(
      `BACKTRADER_DIR=${backtrader} holds no backtrader/__init__.py (export the repository's tree there)`,
    );
  // The tcs runs use the compiled CLI, as a user runs it: bring dist/ up to date first (untimed).
  execFileSync(process.execPath, [join(REPO_ROOT, 'bin/build.mjs'), '--if-stale'], { stdio: 'inherit' });
  const work = mkdtempSync(join(tmpdir(), 'tcs-btbench-'));
  try {
    const data = generateBars(work);
    // Untimed: backtrader's fills, one by one, to compare with the first tcs run's trades.
    const btFills = join(work, 'bt-fills.csv');
    execFileSync(PYTHON, [join(HERE, 'sma_cross.py'), backtrader, data.bt, btFills], { encoding: 'utf8' });
    const trials: Trial[] = [];
    for (let pair = 1; pair <= PAIRS; pair++) {
      trials.push(tcsTrial(pair, data.tcs, work));
      trials.push(btTrial(pair, backtrader, data.bt, work));
    }
    const fills = compareFills(readFileSync(join(work, 'tcs-1', 'trades.csv'), 'utf8'), readFileSync(btFills, 'utf8'));
    const isoNs = isolationNs();
    return report(trials, fills, isoNs, (performance.now() - started) / 1000);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function report(
  trials: Trial[],
  fills: { differ: number; first: string | null },
  isoNs: number,
  seconds: number,
): BenchResult {
  const of = (engine: Engine) => trials.filter((t) => t.engine === engine);
  const tcs = of('tcs');
  const bt = of('backtrader');
  const ratios = tcs.map((t, i) => bt[i]!.wallS / t.wallS); // bars/s ratio = inverse wall ratio
  const cpuRatios = tcs.map((t, i) => t.cpuS / bt[i]!.cpuS);
  const ratio = median(ratios);
  const tcsRate = TOTAL_BARS / median(tcs.map((t) => t.wallS));
  const btRate = TOTAL_BARS / median(bt.map((t) => t.wallS));
  const tcsRss = Math.max(...tcs.map((t) => t.rssMb));
  const btRss = Math.max(...bt.map((t) => t.rssMb));
  const fillCounts = new Set(trials.map((t) => t.fills));
  const sameFills = fillCounts.size === 1 && fills.differ === 0;
  const cycleUs = (median(tcs.map((t) => t.wallS)) / BARS) * 1e6;
  const isoCycleUs = (isoNs * SYMBOLS.length) / 1000;
  const list = (xs: number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(', ');
  const result: BenchResult = {
    id: 'backtrader-compare',
    title: 'The SMA run against backtrader, side by side (3 × 60,480 one-minute bars)',
    command: COMMAND,
    method: [
      `Data: bench/backtrader/generate-data.ts, ${SYMBOLS.length} symbols × ${int(BARS)} one-minute bars (trends changing every 4 h, 2 % of bars opening up to 0.5 % away from the previous close), prices to 6 decimals; the same numbers as a tcs data directory (spot, fee ${TAKER_FEE}) and as CSV for GenericCSVData.`,
      `tcs: \`node bin/tcs.mjs simulate --data … --strategies bench/backtrader/sma-cross.ts --quiet\` (compiled CLI; the strategy through the public entry, target { qty: 1 }), with ${Object.entries(
        TCS_ENV,
      )
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}; the audit trail (events.db) written as always.`,
      'backtrader: bench/backtrader/sma_cross.py on its source tree (BACKTRADER_DIR, not installed, not committed): SMA(10/30) on the closes, buy 1 when SMA(10) > SMA(30) and flat, close when not and long; market orders fill at the next open (cheat-on-open off), commission 0.0004, cash 100,000, stdstats off.',
      `${PAIRS} interleaved pairs (tcs then backtrader), each a whole process from spawn to exit, start-up included, timed by bench/backtrader/measure.py (wall; CPU = user + system of the process and its children; peak RSS = ru_maxrss of the largest). Bars/s = ${int(TOTAL_BARS)} / wall.`,
      'Fills: counted in every run (tcs summary.json, backtrader notify_order); compared fill by fill (time, symbol, side, price) between the first tcs run and one untimed backtrader run.',
      'Isolation: bench/strategy-isolation.ts run after the pairs; own copy of a 60-bar window read for the closes minus reading the feed memory, × 3 analyse calls per cycle (one agent, 3 symbols).',
    ],
    tables: [
      {
        caption: 'each run (whole process)',
        headers: ['pair', 'engine', 'wall', 'CPU', 'peak RSS', 'bars/s', 'fills', 'final value'],
        rows: trials.map((t) => [
          String(t.pair),
          t.engine,
          `${t.wallS.toFixed(1)} s`,
          `${t.cpuS.toFixed(1)} s`,
          mb(t.rssMb * 2 ** 20),
          int(Math.round(TOTAL_BARS / t.wallS)),
          int(t.fills),
          t.finalValue.toFixed(4),
        ]),
      },
      {
        caption: 'tcs ÷ backtrader per pair',
        headers: ['pair', 'bars/s ratio (higher: tcs faster)', 'CPU ratio (higher: tcs costlier)'],
        rows: ratios.map((r, i) => [String(i + 1), r.toFixed(3), cpuRatios[i]!.toFixed(3)]),
      },
    ],
    aims: [
      { text: `tcs ≥ ${AIM_RATIO.toFixed(1)}× backtrader's bars/s (median of the pairs)`, met: ratio >= AIM_RATIO },
      { text: `stretch: ≥ ${STRETCH_RATIO}×`, met: ratio >= STRETCH_RATIO },
      { text: `tcs peak RSS < ${AIM_RSS_MB} MB`, met: tcsRss < AIM_RSS_MB },
      { text: 'the same fills in both engines', met: sameFills },
    ],
    figures: [
      {
        figure: 'SMA(10/30) run vs backtrader: tcs ÷ backtrader bars/s (3 × 60,480 1-min bars, whole process)',
        aim: `≥ ${AIM_RATIO.toFixed(1)} (stretch ${STRETCH_RATIO})`,
        latest: `${ratio.toFixed(3)} (median of ${PAIRS} interleaved pairs: ${list(ratios, 3)})`,
        met: ratio >= AIM_RATIO,
      },
      {
        figure: 'SMA(10/30) run vs backtrader: bars/s, tcs simulate / backtrader (whole process)',
        aim: '—',
        latest: `${int(Math.round(tcsRate))} / ${int(Math.round(btRate))} (medians; CPU ratio tcs ÷ backtrader ${list(cpuRatios, 2)})`,
        met: null,
      },
      {
        figure: 'SMA(10/30) run vs backtrader: tcs simulate peak RSS (audit trail on)',
        aim: `< ${AIM_RSS_MB} MB`,
        latest: `${tcsRss.toFixed(0)} MB (backtrader ${btRss.toFixed(0)} MB; largest of ${PAIRS} runs each)`,
        met: tcsRss < AIM_RSS_MB,
      },
      {
        figure: 'SMA(10/30) run vs backtrader: fills, tcs / backtrader',
        aim: 'equal',
        latest: `${[...new Set(tcs.map((t) => int(t.fills)))].join(', ')} / ${[...new Set(bt.map((t) => int(t.fills)))].join(', ')}; ${fills.differ === 0 ? 'fill by fill identical (time, symbol, side, price)' : `${fills.differ} fills differ, first ${fills.first}`}`,
        met: sameFills,
      },
      {
        figure: 'strategy isolation per cycle of the SMA run (own copy of 60 closes, 3 analyse calls)',
        aim: '—',
        latest: `${isoCycleUs.toFixed(2)} µs of ${int(Math.round(cycleUs))} µs wall per cycle (${((isoCycleUs / cycleUs) * 100).toFixed(3)} %)`,
        met: null,
      },
    ],
    notes: [
      `Final values: tcs ${tcs[0]!.finalValue.toFixed(8)}, backtrader ${bt[0]!.finalValue.toFixed(8)} (tcs rounds summary.json to 8 decimals).`,
      `Isolation: ${isoNs.toFixed(0)} ns per analyse call in this run (strategy-isolation.ts, 200,000 calls, best of 5).`,
    ],
    seconds,
    data: { trials, ratios, cpuRatios, fills, isoNs },
  };
  printResult(result);
  return result;
}

runDirectly(run);
