/**
 * What the DEFAULT configuration does on the synthetic market over a long run (issue 19, item 3):
 * runs the real command, `tcs simulate --cycles N --seed S --out DIR --quiet`, with no setting at
 * all (an environment of PATH/HOME/TMPDIR only, a working directory without .env), then reads the
 * run's trades.csv, equity.csv and summary.json (turnover-figures.ts) and prints fills, traded
 * notional, turnover, fees, time in the market, how often positions change, return and drawdown as
 * one Markdown table row per run, ready to append under the same table in BENCHMARKS.md.
 *   node bin/run-ts.mjs bench/default-turnover.ts [--cycles 100000[,20000…]] [--seed 42]
 *     [--repo DIR] [--label TEXT]
 * --repo runs another checkout's `bin/tcs.mjs` (its dist/, built first when stale), e.g. the code
 * before a change beside the code after it. The runs are deterministic: same code, cycles and seed,
 * same figures. Nothing is asserted; the aim (< 5× NAV per day) is reported.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { int } from './stats.js';
import { REPO_ROOT, machine, printResult, runDirectly } from './support.js';
import type { BenchResult } from './support.js';
import { DEFINITIONS, turnoverFigures } from './turnover-figures.js';
import type { TurnoverFigures } from './turnover-figures.js';

/** Issue 19: "aim under 5× NAV per day". */
const AIM_TURNOVER_PER_DAY = 5;
/** `tcs simulate`'s own default seed (MARKET_SEED unset): the default configuration's market. */
const DEFAULT_SEED = 42;

interface Options {
  cycles: number[];
  seed: number;
  repo: string;
  label: string | null;
}

interface Run {
  cycles: number;
  seconds: number;
  figures: TurnoverFigures;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { cycles: [100_000], seed: DEFAULT_SEED, repo: REPO_ROOT, label: null };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--cycles') {
      options.cycles = value.split(',').map((v) => Number(v.replace(/_/g, '')));
      if (options.cycles.some((n) => !Number.isInteger(n) || n < 1))
        throw new Error(`--cycles: positive integers, comma-separated, got "${value}"`);
    } else if (flag === '--seed') {
      options.seed = Number(value);
      if (!Number.isInteger(options.seed) || options.seed < 0)
        throw new Error(`--seed: an integer ≥ 0, got "${value}"`);
    } else if (flag === '--repo') options.repo = resolve(value);
    else if (flag === '--label') options.label = value;
    else throw new Error(`unknown flag ${flag} (use --cycles, --seed, --repo, --label)`);
  }
  return options;
}

/** The commit measured, and whether the code under test (outside bench/) differs from it. */
function revision(repo: string): string {
  const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });
  try {
    const commit = git('rev-parse', '--short', 'HEAD').trim();
    // Not trimmed: each porcelain line starts with two status columns and a space.
    const dirty = git('status', '--porcelain', '--untracked-files=no')
      .split('\n')
      .map((line) => line.slice(3))
      .filter((path) => path !== '' && !path.startsWith('bench/') && path !== 'BENCHMARKS.md');
    return dirty.length === 0 ? commit : `${commit} + uncommitted ${dirty.join(', ')}`;
  } catch {
    return 'unknown commit';
  }
}

/** Only what a process needs to start: no trading variable of the caller's can leak into "default". */
function bareEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR']) if (process.env[name]) env[name] = process.env[name];
  return env;
}

/** Runs the command as a user would; its stdout (the summary table) is kept only to show on failure. */
function simulate(options: Options, cycles: number, out: string, cwd: string): Promise<void> {
  const tcs = join(options.repo, 'bin', 'tcs.mjs');
  const args = [tcs, 'simulate', '--cycles', String(cycles), '--seed', String(options.seed), '--out', out, '--quiet'];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd, env: bareEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0 ? done() : fail(new Error(`tcs simulate --cycles ${cycles} exited with ${code}:\n${output}`)),
    );
  });
}

const pct = (x: number, digits = 2) => `${(x * 100).toFixed(digits)} %`;
const money = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });

const HEADERS = [
  'code',
  'cycles (days)',
  'seed',
  'fills',
  'traded notional',
  'turnover × mean NAV: run / per day',
  'turnover × NAV₀ per day',
  'last fill (day)',
  'turnover per day to the last fill',
  'fees: run / per day',
  'fees per day, % of mean NAV',
  'in market',
  'position change every (any symbol / each symbol)',
  'side change every',
  'return',
  'max drawdown',
  'PnL before fees',
  'fees ÷ loss',
];

function row(label: string, seed: number, f: TurnoverFigures): string[] {
  return [
    label,
    `${int(f.cycles)} (${f.days.toFixed(1)})`,
    String(seed),
    int(f.fills),
    money(f.notional),
    `${f.turnover.toFixed(1)}× / ${f.turnoverPerDay.toFixed(2)}×`,
    `${f.turnoverStartPerDay.toFixed(2)}×`,
    f.lastFillDay.toFixed(1),
    f.turnoverPerTradingDay === null ? '—' : `${f.turnoverPerTradingDay.toFixed(2)}×`,
    `${money(f.fees)} / ${money(f.feesPerDay)}`,
    pct(f.feesPctNavPerDay, 3),
    pct(f.inMarket),
    `${f.minutesPerChangeCycle.toFixed(1)} / ${f.minutesPerChangePerSymbol.toFixed(1)} min`,
    `${f.minutesPerSideChange.toFixed(1)} min`,
    pct(f.totalReturn),
    pct(f.maxDrawdown),
    money(f.pnlBeforeFees),
    f.feesShareOfLoss === null ? '—' : pct(f.feesShareOfLoss, 0),
  ];
}

export async function run(options: Options = parseArgs([])): Promise<BenchResult> {
  const started = performance.now();
  // A stale dist/ would measure other code than the commit named in the row.
  execFileSync(process.execPath, [join(options.repo, 'bin', 'build.mjs'), '--if-stale'], {
    cwd: options.repo,
    stdio: 'inherit',
  });
  const label = options.label ?? revision(options.repo);
  const tmp = mkdtempSync(join(tmpdir(), 'tcs-default-turnover-'));
  const runs: Run[] = [];
  try {
    const cwd = join(tmp, 'cwd');
    mkdirSync(cwd);
    for (const cycles of options.cycles) {
      const out = join(tmp, `run-${cycles}`);
      const t0 = performance.now();
      await simulate(options, cycles, out, cwd);
      const seconds = (performance.now() - t0) / 1000;
      runs.push({ cycles, seconds, figures: turnoverFigures(out) });
      rmSync(out, { recursive: true, force: true }); // events.db is ~3 kB a cycle
      console.error(`default-turnover: ${cycles} cycles done in ${seconds.toFixed(1)} s`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }

  const host = machine();
  const command =
    'node bin/run-ts.mjs bench/default-turnover.ts' +
    (options.cycles.length === 1 && options.cycles[0] === 100_000 ? '' : ` --cycles ${options.cycles.join(',')}`) +
    (options.seed === DEFAULT_SEED ? '' : ` --seed ${options.seed}`);
  const notes = runs.flatMap((r) => [
    `${int(r.cycles)} cycles: ${r.seconds.toFixed(1)} s wall for the command; final NAV ${money(r.figures.finalNav)}, mean NAV ${money(r.figures.meanNav)}, ` +
      `${int(r.figures.positionChanges)} position changes in ${int(r.figures.changeCycles)} cycles, ${int(r.figures.sideChanges)} side changes.`,
    ...r.figures.mismatches.map((m) => `${int(r.cycles)} cycles: **differs from summary.json**: ${m}`),
  ]);
  const result: BenchResult = {
    id: 'default-turnover',
    title: `The default configuration's trading on the synthetic market (seed ${options.seed})`,
    command,
    method: [
      `\`tcs simulate --cycles N --seed ${options.seed} --out DIR --quiet\` of ${label} (${options.repo}), compiled dist/, in an environment of PATH/HOME/TMPDIR only and a working directory without .env: default strategies, symbols, cash, 60 s cycles, order style and risk settings.`,
      `Machine: ${host.nproc} cores, ${host.cpu}, ${host.memory}, Node ${host.node}, ${host.platform}.`,
      ...DEFINITIONS,
    ],
    tables: [{ headers: HEADERS, rows: runs.map((r) => row(label, options.seed, r.figures)) }],
    // Judged while the run trades: a run that stops trading early would meet it by standing still.
    figures: runs.map(({ cycles, figures: f }) => ({
      figure: `default configuration: turnover per day up to the last fill (${int(cycles)} cycles, seed ${options.seed})`,
      aim: `< ${AIM_TURNOVER_PER_DAY}× mean NAV`,
      latest:
        `${f.turnoverPerTradingDay?.toFixed(2) ?? 'n/a'}× (last fill on day ${f.lastFillDay.toFixed(1)}; ` +
        `${f.turnoverPerDay.toFixed(2)}× over the whole run)`,
      met: f.turnoverPerTradingDay === null ? true : f.turnoverPerTradingDay < AIM_TURNOVER_PER_DAY,
    })),
    aims: runs.map(({ cycles, figures: f }) => ({
      text:
        `${int(cycles)} cycles: turnover < ${AIM_TURNOVER_PER_DAY}× mean NAV per day up to the last fill ` +
        `(measured ${f.turnoverPerTradingDay?.toFixed(2) ?? 'n/a'}× over ${f.lastFillDay.toFixed(1)} days; ${f.turnoverPerDay.toFixed(2)}× over the whole run)`,
      met: f.turnoverPerTradingDay === null ? true : f.turnoverPerTradingDay < AIM_TURNOVER_PER_DAY,
    })),
    notes,
    seconds: (performance.now() - started) / 1000,
    data: runs,
  };
  printResult(result);
  return result;
}

runDirectly(() => run(parseArgs(process.argv.slice(2))));
