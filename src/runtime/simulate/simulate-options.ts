/**
 * The arguments of `tcs simulate`, checked before anything is opened: every mistake is a
 * ConfigError (exit 2) that says what to type instead. Flags that name a trading variable
 * (--strategies, --symbols, --cash, --cycle-seconds, --seed, --fill-model) override it; every other trading
 * variable is read from the environment as usual (see simulation-env.ts).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FILL_MODELS } from '../../domain/market.js';
import { BUILTIN_STRATEGY_NAMES } from '../../strategies/registry.js';
import { ConfigError } from '../config.js';

export const SIMULATE_HELP = `Usage: tcs simulate --cycles N [--seed S] --out DIR [options]
       tcs simulate --data DIR [--from ISO] [--to ISO] --out DIR [options]

Runs the trading actor system — the same machines, risk engine, approval tokens, order manager and
paper venue as \`tcs trade\` — on a simulated clock, as fast as the machine allows, and writes the
run's results to --out: events.db (the run's event store; \`STORE_URL=sqlite:DIR/events.db tcs audit
verify\` checks it), summary.json, trades.csv, equity.csv, round-trips.csv and report.html (one
self-contained page).
The summary is printed as a table at the end. The same data, configuration and seed give a
byte-identical summary.json. Ctrl-C stops after the current cycle and still writes the (partial)
report; the exit code is then 130. A run whose circuit breaker (CIRCUIT_BREAKER_DRAWDOWN) kills
trading ends there, with a partial report. The run itself goes on in a child Node process with its
young generation chosen (--max-semi-space-size=8: peak memory against garbage collection time); if
NODE_OPTIONS already sets a semi-space size, it runs in this process.
On a machine with a second core, events.db is written by a worker thread (the cycle hashes each
entry, the thread inserts and commits it, every 2,000 cycles); a run killed mid-way leaves the audit
trail whole up to its last commit.

Market:
  --cycles N          Cycles to run (synthetic market: required unless --to is given; with --data:
                      at most N cycles).
  --seed S            Seed of the synthetic market (default MARKET_SEED, else 42).
  --data DIR          Replay a data directory (see docs/strategies/data-format.md; \`tcs data check DIR\`).
                      data/sample is a small one to start with: two synthetic days of BTCUSDT
                      and ETHUSDT 1-minute candles (made by \`npm run data:sample\`).
  --from ISO          First cycle's time (default: the data's first candle; synthetic:
                      2026-01-01T00:00:00Z).
  --to ISO            Stop before this time (default: the data's end).

Trading (each overrides its environment variable; the rest come from the environment/.env):
  --strategies LIST   STRATEGIES, e.g. ${BUILTIN_STRATEGY_NAMES.join(',')}
  --symbols LIST      SYMBOLS, e.g. BTCUSDT,ETHUSDT,SOLUSDT (a replay: the data's symbols by default)
  --cash N            PAPER_STARTING_CASH in USDT (default 100000)
  --cycle-seconds N   CYCLE_SECONDS (default 60; with --data: the data's timeframe, and it must be)
  --fill-model M      FILL_MODEL, with --data: next_open (default: an order decided on a candle fills
                      at the next candle's open) or close (at the close the strategy saw)

Costs and marks (environment only; docs/strategies/data-format.md "Fill models"):
  SPREAD_MODEL        derived (default), none or fixed_bps (with SPREAD_BPS): a replayed candle's spread
  SLIPPAGE_BPS        taker fills pay this many bps beyond the book (default 0); the risk engine counts it
  MARK_PRICE          mid (default) or close: what positions (and so NAV, equity.csv) are marked at
  Fees, spread and slippage are itemised in summary.json "costs", trades.csv and the printed summary.

Output:
  --out DIR           Where the run is written; must not exist or be empty.
  --quiet             No progress bar on stderr.
  -h, --help          This help.

Exit codes: 0 done, 1 the run failed, 2 bad arguments or configuration, 130 stopped by Ctrl-C.`;

export interface SimulateOptions {
  out: string;
  cycles: number | null;
  seed: number | null;
  data: string | null;
  from: number | null;
  to: number | null;
  strategies: string | null;
  symbols: string | null;
  cash: string | null;
  cycleSeconds: string | null;
  /** --fill-model: FILL_MODEL for this run (optional, so callers that build options need not say it). */
  fillModel?: string | null;
  /**
   * The audit trail written by a worker thread (run-store.ts); default: when this machine has a second
   * core. A sweep's trials say false: its workers already keep every core busy.
   */
  auditThread?: boolean;
  quiet: boolean;
}

export const MAX_CYCLES = 100_000_000;

export function parseSimulateArgs(args: string[]): SimulateOptions {
  const { values, positionals } = readArgs(args);
  if (positionals.length > 0)
    throw new ConfigError(`tcs simulate takes no positional arguments, got "${positionals[0]}"`);
  if (values.out === undefined || values.out.trim() === '')
    throw new ConfigError('tcs simulate needs --out DIR (where the run is written)');
  const out = values.out.trim();
  assertFreshOut(out);
  const options: SimulateOptions = {
    out,
    cycles: values.cycles === undefined ? null : wholeNumber('--cycles', values.cycles, 1, MAX_CYCLES),
    seed: values.seed === undefined ? null : wholeNumber('--seed', values.seed, 0, 2 ** 31 - 1),
    data: values.data?.trim() || null,
    from: values.from === undefined ? null : isoTime('--from', values.from),
    to: values.to === undefined ? null : isoTime('--to', values.to),
    strategies: values.strategies ?? null,
    symbols: values.symbols ?? null,
    cash: values.cash ?? null,
    cycleSeconds: values['cycle-seconds'] ?? null,
    fillModel: values['fill-model'] ?? null,
    quiet: values.quiet === true,
  };
  if (options.fillModel != null && !(FILL_MODELS as readonly string[]).includes(options.fillModel))
    throw new ConfigError(`--fill-model must be one of ${FILL_MODELS.join(', ')}, got "${options.fillModel}"`);
  if (options.data !== null && options.seed !== null)
    throw new ConfigError('--seed is for the synthetic market; a --data replay has no randomness to seed');
  if (options.data === null && options.cycles === null && options.to === null)
    throw new ConfigError('tcs simulate needs --cycles N (or --to ISO) for the synthetic market, or --data DIR');
  if (options.data !== null && !isDirectory(options.data))
    throw new ConfigError(`--data ${options.data}: no such directory`);
  if (options.from !== null && options.to !== null && options.to <= options.from)
    throw new ConfigError('--to must be after --from');
  return options;
}

/** node:util's parser, its complaints (unknown option, missing value, `--seed -1`) as ConfigErrors. */
function readArgs(args: string[]) {
  try {
    return parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        cycles: { type: 'string' },
        seed: { type: 'string' },
        data: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        out: { type: 'string' },
        strategies: { type: 'string' },
        symbols: { type: 'string' },
        cash: { type: 'string' },
        'cycle-seconds': { type: 'string' },
        'fill-model': { type: 'string' },
        quiet: { type: 'boolean' },
      },
    });
  } catch (err) {
    if (String((err as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS'))
      throw new ConfigError((err as Error).message);
    throw err;
  }
}

export function wholeNumber(flag: string, text: string, min: number, max: number): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new ConfigError(`${flag} must be a whole number from ${min} to ${max}, got "${text}"`);
  return value;
}

/** An ISO 8601 date or date-time; a time without a zone is refused rather than read as local time. */
export function isoTime(flag: string, text: string): number {
  const trimmed = text.trim();
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(trimmed);
  const zoned = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(trimmed);
  const ms = dateOnly || zoned ? Date.parse(dateOnly ? `${trimmed}T00:00:00Z` : trimmed) : Number.NaN;
  if (!Number.isFinite(ms))
    throw new ConfigError(
      `${flag} must be an ISO date or date-time with a zone, e.g. 2024-01-01 or 2024-01-01T00:00:00Z, got "${text}"`,
    );
  return ms;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A run never writes over another: --out is new or empty. */
function assertFreshOut(out: string): void {
  if (!existsSync(out)) return;
  if (!isDirectory(out)) throw new ConfigError(`--out ${out} exists and is not a directory`);
  if (readdirSync(out).length > 0)
    throw new ConfigError(`--out ${out} is not empty: choose a new directory or remove the old run`);
}
