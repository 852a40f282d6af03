/**
 * The arguments and help of `tcs sweep` and `tcs sweep-worker`, checked before anything starts:
 * each mistake is a ConfigError (exit 2) that says what to type instead.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { ConfigError } from '../config.js';
import { checkPrefix, checkQueueUrl, DEFAULT_PREFIX } from './sweep-queue.js';
import type { QueueSettings } from './sweep-queue.js';
import type { WorkerSettings } from './queue-worker.js';

export const SWEEP_HELP = `Usage: tcs sweep SPEC --out DIR [--workers N | --queue redis://…] [--quiet]

Runs a parameter search: one deterministic \`tcs simulate\` run (a trial) per parameter set of SPEC,
ranks the trials by the objective and writes DIR/results.csv (one row per trial: its parameters and
the figures of its summary.json), DIR/results.json and DIR/results.html (ranked, sortable, a heatmap
for two axes, each local trial linked to its report). The best trial's
parameters are printed at the end; with walk-forward, each fold's in-sample best and how it did out
of sample. A trial sees only the spec (its env and params, the defaults for everything else), never
this machine's environment or .env: the same spec gives the same results on any machine.

SPEC is a JSON file:
  {
    "search": "grid",                      "grid" (every combination) or "random"
    "trials": 20, "seed": 1,               random only: how many sets, and the sampling seed
    "params": {                            the variables to vary (any variable tcs simulate reads)
      "RISK_FRACTION": [0.05, 0.1],        a list of values (objects become JSON, e.g. PROTECTION_PARAMS)
      "NO_TRADE_BAND": {"min": 0.1, "max": 0.3, "step": 0.1}
    },                                     a range (random: step optional, "log": true log-uniform)
    "strategy_params": {                   strategy parameters to vary, per STRATEGIES entry, as
      "momentum_ma_crossover": {           lists or ranges; each trial gets STRATEGY_PARAMS built
        "fastPeriod": {"min": 5, "max": 15, "step": 5}, "slowPeriod": [30, 60]
      }                                    from them (over env's STRATEGY_PARAMS); params optional
    },
    "env": {"STRATEGIES": "momentum_ma_crossover", "SYMBOLS": "BTCUSDT"},   fixed for every trial
    "data": {"seed": 3, "cycles": 2000},   synthetic market (seed, cycles, from, to), or a replay:
                                           {"dir": "data/jan24", "from": "2024-01-08", "to": "…"}
    "objective": "sharpe",                 a summary.json figure (sharpe, sortino, calmar…) or
                                           return_over_drawdown, or {"metric": "max_drawdown",
                                           "goal": "min"} (losses and costs default to min)
    "constraints": {"trades": {"min": 20}, "max_drawdown": {"max": 0.25}},
                                           optional: a trial breaking one ranks after all that don't
    "walk_forward": {                      optional: choose in sample, trade it out of sample
      "mode": "rolling",                   "rolling" (the in-sample window slides) or "anchored"
      "folds": 4,                          (it starts at data.from and grows); folds start at
      "in_sample": "14d",                  data.from (a replay's, required), each out-of-sample
      "out_of_sample": "7d"                window right after its in-sample one; durations in
    }                                      m, h, d or w. Or folds by hand, a list:
                                           [{"in_sample": {"from": …, "to": …},
                                             "out_of_sample": {"from": …, "to": …}}, …]
                                           (synthetic windows differ by "seed" instead)
  }

Walk-forward writes DIR/walk_forward/equity.csv (the out-of-sample runs stitched, each compounded
from the NAV the previous fold ended at) and reports per fold and overall (stitched return, max
drawdown, walk-forward efficiency, pooled) in DIR/results.json, results.html and on stdout; how
they are computed: docs/strategies/sweeps.md#walk-forward.

Execution:
  --workers N      Worker processes on this machine (default: one per core, here ${availableParallelism()}).
  --queue URL      Send trials through BullMQ on this Redis (redis://host:port/db) instead; run
                   \`tcs sweep-worker --queue URL\` on as many machines as you like to take them. A
                   worker killed mid-trial loses nothing: the trial is retried on another worker
                   and its result is recorded once. Running the same spec again picks up results
                   still in the queue, if its data and strategy modules have not changed since.
                   Only workers of this same build take its trials.
  --prefix P       BullMQ key prefix (default ${DEFAULT_PREFIX}); workers must use the same.

Output:
  --out DIR        Where the results go (DIR/trials/<trial>/ holds each local trial's run); must
                   not exist or be empty.
  --quiet          No progress bar on stderr.
  -h, --help       This help.

Names are checked before the first trial: a variable in params or env that no code reads
(RISK_FRACTOIN) and a STRATEGY_PARAMS parameter a strategy does not declare are exit 2, with the
nearest known name.

Exit codes: 0 done, 1 a trial or the queue failed, 2 a bad spec or arguments (the message names the
field), 130 stopped by Ctrl-C (the trials done by then are written; Ctrl-C twice stops at once).`;

export const SWEEP_WORKER_HELP = `Usage: tcs sweep-worker --queue redis://… [options]

Takes trials of \`tcs sweep --queue\` from BullMQ, one at a time, runs each in this process and
hands back its figures; runs until stopped. Start one per core, on any number of machines (a
replay's data directory must be at the same path on each, with the same files). A worker takes
only trials of a sweep of its own build, and refuses one whose replay data or STRATEGIES modules
differ from the sweep's (the sweep then fails, naming the trial); a module's own imports are not
compared. A worker that dies or is stopped
mid-trial (Ctrl-C and SIGTERM stop it at once) holds the trial's lock no longer: after the lock
duration another worker's stalled check gives the trial back to the queue, and it runs again.
Runs are faster with a larger young generation: NODE_OPTIONS="--max-semi-space-size=64".

Options:
  --queue URL           The Redis of the sweep (required).
  --prefix P            BullMQ key prefix (default ${DEFAULT_PREFIX}), as given to tcs sweep.
  --lock-seconds S      How long a trial's lock lasts without renewal (default 30; renewed every
                        half of it): how soon a dead worker's trial is taken again.
  --stalled-seconds S   How often this worker looks for stalled trials (default 30).
  --max-stalled N       Times a trial may stall before it counts as failed (default 2).
  --runs DIR            Keep each trial's run in DIR/<trial>/ (default: a temporary directory,
                        removed after the trial).
  --ipc                 Be a local worker of tcs sweep, over its IPC channel (tcs sweep starts these).
  -h, --help            This help.

stdout: each trial's summary table, as tcs simulate prints it; stderr: a line per trial taken and done.`;

export interface SweepOptions {
  spec: string;
  out: string;
  workers: number;
  queue: QueueSettings | null;
  quiet: boolean;
}

export function parseSweepArgs(args: string[]): SweepOptions {
  const { values, positionals } = readArgs(args, {
    out: { type: 'string' },
    workers: { type: 'string' },
    queue: { type: 'string' },
    prefix: { type: 'string' },
    quiet: { type: 'boolean' },
  });
  if (positionals.length !== 1)
    throw new ConfigError(
      `tcs sweep needs one SPEC file${positionals.length > 1 ? `, got ${positionals.length}` : ''}`,
    );
  const out = typeof values.out === 'string' ? values.out.trim() : '';
  if (out === '') throw new ConfigError('tcs sweep needs --out DIR (where the results are written)');
  assertFreshOut(out);
  if (values.workers !== undefined && values.queue !== undefined)
    throw new ConfigError('--workers is for the local pool; with --queue, start tcs sweep-worker processes instead');
  if (values.prefix !== undefined && values.queue === undefined)
    throw new ConfigError('--prefix only goes with --queue');
  return {
    spec: positionals[0]!,
    out,
    workers:
      values.workers === undefined
        ? availableParallelism()
        : number('--workers', values.workers as string, 1, 256, true),
    queue:
      values.queue === undefined
        ? null
        : { url: checkQueueUrl(values.queue as string), prefix: checkPrefix(values.prefix as string | undefined) },
    quiet: values.quiet === true,
  };
}

export type SweepWorkerOptions = { ipc: true } | ({ ipc: false } & WorkerSettings);

export function parseSweepWorkerArgs(args: string[]): SweepWorkerOptions {
  const { values, positionals } = readArgs(args, {
    ipc: { type: 'boolean' },
    queue: { type: 'string' },
    prefix: { type: 'string' },
    'lock-seconds': { type: 'string' },
    'stalled-seconds': { type: 'string' },
    'max-stalled': { type: 'string' },
    runs: { type: 'string' },
  });
  if (positionals.length > 0)
    throw new ConfigError(`tcs sweep-worker takes no positional arguments, got "${positionals[0]}"`);
  if (values.ipc === true) return { ipc: true };
  if (values.queue === undefined) throw new ConfigError('tcs sweep-worker needs --queue redis://host:port/db');
  const seconds = (flag: string, fallback: number) =>
    values[flag] === undefined
      ? fallback * 1000
      : Math.round(number(`--${flag}`, values[flag] as string, 0.1, 3600) * 1000);
  return {
    ipc: false,
    url: checkQueueUrl(values.queue as string),
    prefix: checkPrefix(values.prefix as string | undefined),
    lockMs: seconds('lock-seconds', 30),
    stalledMs: seconds('stalled-seconds', 30),
    maxStalled:
      values['max-stalled'] === undefined ? 2 : number('--max-stalled', values['max-stalled'] as string, 1, 100, true),
    runsDir: typeof values.runs === 'string' && values.runs.trim() !== '' ? values.runs.trim() : null,
  };
}

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

function readArgs(args: string[], options: OptionSpec) {
  try {
    return parseArgs({ args, strict: true, allowPositionals: true, options });
  } catch (err) {
    if (String((err as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS'))
      throw new ConfigError((err as Error).message);
    throw err;
  }
}

function number(flag: string, text: string, min: number, max: number, whole = false): number {
  const value = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isFinite(value) || value < min || value > max || (whole && !Number.isInteger(value)))
    throw new ConfigError(`${flag} must be a ${whole ? 'whole ' : ''}number from ${min} to ${max}, got "${text}"`);
  return value;
}

/** A sweep never writes over another: --out is new or empty. */
function assertFreshOut(out: string): void {
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory()) throw new ConfigError(`--out ${out} exists and is not a directory`);
  if (readdirSync(out).length > 0)
    throw new ConfigError(`--out ${out} is not empty: choose a new directory or remove the old sweep`);
}
