/**
 * `tcs data download`: the command-line side of the market data downloader — arguments, checks that
 * name the bad one (a ConfigError, so the CLI exits 2), the progress sink, and the summary. ccxt is
 * loaded only when a download actually starts.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, readInt } from './config.js';
import { TIMEFRAMES as TIMEFRAME_MS } from '../domain/timeframes.js';

const TEST_RATE_LIMIT_ENV = 'TCS_TEST_EXCHANGE_RATE_LIMIT_MS';

export const DATA_DOWNLOAD_HELP = `Usage: tcs data download --exchange ID --symbols A,B --timeframe TF --from ISO --to ISO --out DIR

Downloads OHLCV candles (and, for perpetuals, funding rate history) from an exchange's public
endpoints through ccxt (no keys) into a data directory: candles/<SYMBOL>.csv, funding/<SYMBOL>.csv
and manifest.json, the format that MARKET_DATA=file:<dir>, tcs data check and tcs simulate read.

Candles whose open time is in [--from, --to) are fetched, 1 000 per request, within the exchange's
rate limits. Re-running the same command after an interruption continues each file after its last
complete row (a cut-off last line is dropped), and gives the same files as an uninterrupted run.
Candles the exchange lacks between two it has (maintenance) are filled flat (the previous close,
volume 0) and listed in manifest.json under "filledGaps".

On stderr, before anything is fetched: the exchange, symbols, range and destination; then each
host as it is first contacted, and progress (a bar on a terminal, plain lines otherwise). Each
request is given 10 s. Network errors, timeouts, 5xx and 429s are retried with backoff, each retry
said with its reason (the first request 3 times within 20 s, later pages up to 10 times within a
minute); a host that does not resolve, refuses the connection or answers 403/451 fails at once.
A failure is one line: what was being fetched and why it failed.

Options:
  --exchange ID     A ccxt exchange id, e.g. binanceusdm (USD-M perpetuals).
  --symbols A,B     The system's symbols, e.g. BTCUSDT,ETHUSDT.
  --timeframe TF    One of 1m 3m 5m 15m 30m 1h 2h 4h 6h 8h 12h 1d (default 1m).
  --from ISO        Start, e.g. 2024-01-01 or 2024-01-01T00:00:00Z (UTC unless an offset is given).
  --to ISO          End (exclusive); a time in the future stops at the last closed candle.
  --out DIR         The data directory (created if missing).
  -h, --help        This help.

Environment: LIVE_EXCHANGE_URL serves the exchange's REST API from another origin (tests, proxies).
Exits 0 when done, 2 on bad arguments, 1 when the exchange fails.`;

const TIMEFRAMES = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d'];

export interface DataDownloadArgs {
  exchange: string;
  symbols: string[];
  timeframe: string;
  from: number;
  to: number;
  out: string;
}

export function parseDataDownloadArgs(args: string[]): DataDownloadArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      options: {
        exchange: { type: 'string' },
        symbols: { type: 'string' },
        timeframe: { type: 'string', default: '1m' },
        from: { type: 'string' },
        to: { type: 'string' },
        out: { type: 'string' },
      },
    }));
  } catch (err) {
    throw new ConfigError(`data download: ${(err as Error).message}`);
  }
  const text = (name: string): string => {
    const value = values[name];
    if (typeof value !== 'string' || value.trim() === '') throw new ConfigError(`data download: --${name} is required`);
    return value.trim();
  };
  const exchange = text('exchange');
  if (!/^[a-z][a-z0-9]*$/.test(exchange))
    throw new ConfigError(
      `data download: --exchange must be a ccxt exchange id such as binanceusdm, got "${exchange}"`,
    );
  const symbols = text('symbols')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const symbol of symbols) {
    if (!/^[A-Z0-9]+$/.test(symbol))
      throw new ConfigError(`data download: --symbols takes system symbols such as BTCUSDT, got "${symbol}"`);
  }
  if (symbols.length === 0) throw new ConfigError('data download: --symbols names no symbol');
  const timeframe = text('timeframe');
  if (!TIMEFRAMES.includes(timeframe))
    throw new ConfigError(`data download: --timeframe must be one of ${TIMEFRAMES.join(', ')}, got "${timeframe}"`);
  const from = time('from', text('from'));
  const to = time('to', text('to'));
  if (!(from < to)) throw new ConfigError('data download: --from must be before --to');
  return { exchange, symbols: [...new Set(symbols)], timeframe, from, to, out: text('out') };
}

/** An ISO date or date-time; UTC unless it carries an offset. */
function time(name: string, raw: string): number {
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
  const withZone = /T/.test(raw) && !/(Z|[+-]\d{2}:\d{2})$/.test(raw) ? `${raw}Z` : raw;
  const t = iso.test(raw) ? Date.parse(withZone) : Number.NaN;
  if (!Number.isFinite(t))
    throw new ConfigError(`data download: --${name} must be an ISO date such as 2024-01-01T00:00:00Z, got "${raw}"`);
  return t;
}

/** Runs `tcs data download ARGS`; resolves with the exit code (bad arguments throw a ConfigError: exit 2). */
export async function runDataDownload(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parseDataDownloadArgs(args);
  const baseUrl = env.LIVE_EXCHANGE_URL?.trim();
  // Said before ccxt loads (seconds on a slow disk) and before any request: what, from where, to where.
  const tell = (line: string) => process.stderr.write(`download: ${line}\n`);
  tell(downloadPlan(parsed, baseUrl));
  // Test-only (not in .env.example): the e2e test against the local fake exchange turns ccxt's
  // throttle down to 1 ms, rather than wait out Binance's request weights.
  const rateLimitMs = env[TEST_RATE_LIMIT_ENV]?.trim() ? readInt(env, TEST_RATE_LIMIT_ENV, 0, 1, 60_000) : undefined;
  const { downloadMarketData, DownloadFailure } = await import('../adapters/market-data/download/download.js');
  const { createProgress } = await import('../adapters/market-data/download/progress.js');
  const progress = createProgress(process.stderr);
  let result: Awaited<ReturnType<typeof downloadMarketData>>;
  try {
    result = await downloadMarketData({
      ...parsed,
      ...(baseUrl ? { baseUrl } : {}),
      ...(rateLimitMs === undefined ? {} : { rateLimitMs }),
      progress,
      tell,
    });
  } catch (err) {
    if (!(err instanceof DownloadFailure)) throw err;
    // One line: what it was doing and why it failed. Rows already written stay; a re-run resumes.
    process.stderr.write(`tcs data download: failed ${err.what}: ${err.reason}\n`);
    return 1;
  }
  const gaps = Object.entries(result.filledGaps).filter(([, list]) => list.length > 0);
  for (const [symbol, list] of gaps) {
    const candles = list.reduce((sum, g) => sum + g.candles, 0);
    process.stderr.write(
      `download: ${symbol}: ${candles} missing candles filled flat (see manifest.json filledGaps)\n`,
    );
  }
  // A perpetual's range that spans a day settles funding at least once: none back is a gap, not a
  // quiet market (Bitget's history pages by number with no time bound and ends before old ranges).
  for (const [symbol, rows] of Object.entries(result.funding)) {
    const days = (parsed.to - parsed.from) / 86_400_000;
    if (rows === 0 && days >= 1)
      process.stderr.write(
        `download: ${symbol}: no funding rates came back for ${Math.floor(days)} days of a perpetual (the exchange offered none for this range); a simulation over this data books no funding for it\n`,
      );
  }
  process.stdout.write(`${parsed.out}: ${Object.keys(result.candles).length} symbols downloaded\n`);
  return 0;
}

/** The first line: exchange (and the origin it is reached through), symbols, range and destination. */
export function downloadPlan(args: DataDownloadArgs, baseUrl: string | undefined): string {
  const step = TIMEFRAME_MS[args.timeframe]!;
  const candles = Math.max(0, Math.floor(args.to / step) - Math.ceil(args.from / step));
  const iso = (t: number) => new Date(t).toISOString();
  return (
    `${args.symbols.join(', ')} from ${args.exchange}'s public API (ccxt, no keys)` +
    `${baseUrl ? ` through LIVE_EXCHANGE_URL ${baseUrl}` : ''}: ` +
    `${args.timeframe} candles from ${iso(args.from)} to ${iso(args.to)} ` +
    `(up to ${candles.toLocaleString('en-US')} a symbol) and funding rates for perpetuals, into ${resolve(args.out)}`
  );
}
