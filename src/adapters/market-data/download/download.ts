/**
 * `tcs data download`: OHLCV candles, and funding history for perpetuals, from an exchange's public
 * endpoints through ccxt, paged (1 000 rows a request, ccxt's throttle keeping to the exchange's
 * rate limit), into the data directory format. Resumable: each file continues after its last
 * complete row, so a killed run re-run gives the same files as one that was never interrupted.
 *
 * The range is [from, to): candles whose open time is at or after `from` (rounded up to the
 * timeframe) and before `to`. Gaps: the format forbids them, and a real exchange misses candles
 * during maintenance, so a missing stretch between two candles is filled flat (open = high = low =
 * close = the previous close, volume 0) and listed in manifest.json under `filledGaps`; nothing is
 * invented before the first candle the exchange has or after its last one. A `to` in the future
 * stops at the last candle already closed.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Exchange, OHLCV } from 'ccxt';
import { openExchange } from '../../exchanges/open-exchange.js';
import { profileOf } from '../../exchanges/registry.js';
import type { CcxtErrors } from '../../exchanges/open-exchange.js';
import { resolveMarkets } from '../live/markets.js';
import type { ResolvedMarket } from '../live/markets.js';
import { withRetry } from '../live/retry.js';
import type { RetryPolicy } from '../live/retry.js';
import { appendLines, prepareCsv } from './csv-resume.js';
import { readManifestFor, writeManifest } from './manifest.js';
import type { FilledGap, Manifest } from './manifest.js';
import type { Progress } from './progress.js';
import { describeRequestFailure } from './request-failure.js';

export const TIMEFRAME_MS: Readonly<Record<string, number>> = {
  '1m': 60_000,
  '3m': 180_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '2h': 7_200_000,
  '4h': 14_400_000,
  '6h': 21_600_000,
  '8h': 28_800_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
};

export interface DownloadOptions {
  exchange: string;
  symbols: readonly string[];
  timeframe: string;
  /** Epoch ms; the range is [from, to). */
  from: number;
  to: number;
  out: string;
  /** LIVE_EXCHANGE_URL: another origin for the exchange's REST API (tests, proxies). */
  baseUrl?: string;
  /** ccxt's throttle interval, ms (the exchange's own by default; tests against the fake set 1). */
  rateLimitMs?: number;
  progress: Progress;
  /** A line for the person waiting: which host is contacted, each retry and why. */
  tell?: (line: string) => void;
}

/** The download failed: `what` it was doing, and `reason` (request-failure.ts), one line each. */
export class DownloadFailure extends Error {
  constructor(
    readonly what: string,
    readonly reason: string,
  ) {
    super(`${what}: ${reason}`);
    this.name = 'DownloadFailure';
  }
}

export interface DownloadResult {
  candles: Record<string, number>;
  funding: Record<string, number>;
  filledGaps: Record<string, FilledGap[]>;
}

/**
 * Rows asked for per request, and each request's window no longer than that many rows: an exchange
 * that answers a window newest first (Bybit's kline and funding history, OKX's) would otherwise hand
 * back the window's last page only, and the rows before it would be lost. The page is the exchange
 * profile's (`historyPages`; OKX's is 100), else 1 000 candles and 200 funding rows (Bybit's most;
 * Binance allows 1 000), a funding window as many hours (no perpetual settles more often than hourly).
 */
const PAGES_BY_DEFAULT = { candles: 1000, funding: 200 };
const HOUR_MS = 3_600_000;
/** A retry policy whose deadline is set when each request starts: `windowMs` from then. */
type RequestPolicy = Omit<RetryPolicy, 'deadline'> & { windowMs: number };
/**
 * ccxt's limit on one request, connection included. A page of 1 000 rows answers in well under a
 * second; 10 s is ample, and bounds how long a silent network keeps anyone waiting per attempt.
 */
const REQUEST_TIMEOUT_MS = 10_000;
/**
 * The first request (the exchange's markets) says whether the exchange can be reached at all: a
 * host that does not resolve, refuses or answers 451 fails at once, anything else is tried 3 times
 * within 20 s. Later pages keep trying longer: a blip mid-download is not worth losing the run for.
 */
const FIRST_CONTACT: RequestPolicy = {
  baseMs: 500,
  maxMs: 4_000,
  attempts: 3,
  windowMs: 20_000,
};
const PAGES: RequestPolicy = {
  baseMs: 500,
  maxMs: 10_000,
  attempts: 10,
  windowMs: 60_000,
};
const CANDLE_HEADER = 'timestamp,open,high,low,close,volume';
const FUNDING_HEADER = 'timestamp,rate';

interface Session {
  exchange: Exchange;
  errors: CcxtErrors;
  options: DownloadOptions;
  manifest: Manifest;
  tell: (line: string) => void;
}

export async function downloadMarketData(options: DownloadOptions): Promise<DownloadResult> {
  const step = TIMEFRAME_MS[options.timeframe];
  if (!step) throw new Error(`unknown timeframe ${options.timeframe}`);
  const from = Math.ceil(options.from / step) * step;
  // A candle still open (its period not over) would change after it was written: the range ends before it.
  const to = Math.min(Math.floor(options.to / step), Math.floor(Date.now() / step)) * step;
  const { exchange, errors } = await openExchange(options.exchange, {
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.rateLimitMs === undefined ? {} : { rateLimitMs: options.rateLimitMs }),
    timeoutMs: REQUEST_TIMEOUT_MS,
  });
  const tell = options.tell ?? (() => {});
  announceHosts(exchange, tell);
  // reload = true: ccxt keeps a failed load's rejected promise, so a plain retry would send nothing.
  await request({ exchange, errors, tell }, `loading ${options.exchange}'s markets`, FIRST_CONTACT, () =>
    exchange.loadMarkets(true),
  );
  const markets = resolveMarkets(
    exchange.markets ?? {},
    options.symbols.map((symbol) => ({ symbol })),
    options.exchange,
    exchange.precisionMode === 4,
  );
  await mkdir(join(options.out, 'candles'), { recursive: true });
  await mkdir(join(options.out, 'funding'), { recursive: true });
  const iso = (t: number) => new Date(t).toISOString();
  const run = { exchange: options.exchange, timeframe: options.timeframe, from: iso(from) };
  const previous = await readManifestFor(options.out, run);
  const manifest: Manifest = {
    format: 1,
    ...run,
    instruments: { ...previous?.instruments },
    to: iso(to),
    filledGaps: { ...previous?.filledGaps },
  };
  for (const { instrument: i, ccxtSymbol } of markets) {
    const { kind, lotSize, tickSize, minNotional } = i;
    manifest.instruments[i.symbol] = { kind, lotSize, tickSize, minNotional, ccxtSymbol };
  }
  await writeManifest(options.out, manifest);

  const session: Session = { exchange, errors, options, manifest, tell };
  const result: DownloadResult = { candles: {}, funding: {}, filledGaps: manifest.filledGaps };
  for (const market of markets) {
    result.candles[market.instrument.symbol] = await downloadCandles(session, market, from, to, step);
    if (market.instrument.kind === 'perp') {
      result.funding[market.instrument.symbol] = await downloadFunding(session, market, from, to);
    }
  }
  return result;
}

/**
 * One public request with retries (network errors, timeouts, 429s) under `policy`, each retry told
 * with its reason; what cannot heal (request-failure.ts) is not retried. Fails as a DownloadFailure
 * naming `what` and why.
 */
async function request<T>(
  s: Pick<Session, 'exchange' | 'errors' | 'tell'>,
  what: string,
  policy: RequestPolicy,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await withRetry(
      run,
      { ...policy, deadline: Date.now() + policy.windowMs },
      {
        retryable: (err) => err instanceof s.errors.NetworkError && !describeRequestFailure(err).permanent,
        retryAfterMs: () => {
          const headers = (s.exchange.last_response_headers ?? {}) as Record<string, string | undefined>;
          const seconds = Number(headers['retry-after'] ?? headers['Retry-After']);
          return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null;
        },
        onRetry: (err, attempt, waitMs) =>
          s.tell(
            `${what}: ${describeRequestFailure(err).reason}; ` +
              `retrying in ${(waitMs / 1000).toFixed(1)} s (attempt ${attempt + 1} of ${policy.attempts})`,
          ),
      },
    );
  } catch (err) {
    // Only what the exchange or the network did; our own errors (a bad file, a bug) stay as they are.
    if (err instanceof s.errors.NetworkError) throw new DownloadFailure(what, describeRequestFailure(err).reason);
    throw err;
  }
}

/** Tells each origin the first time a request goes to it: the host a silent wait is waiting on. */
function announceHosts(exchange: Exchange, tell: (line: string) => void): void {
  const seen = new Set<string>();
  const fetch = exchange.fetch.bind(exchange);
  exchange.fetch = (url: string, ...rest: unknown[]) => {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    const origin = parsed?.origin ?? url;
    if (!seen.has(origin)) {
      seen.add(origin);
      tell(`contacting ${origin}${parsed ? ` (${parsed.pathname})` : ''}`);
    }
    return (fetch as (url: string, ...rest: unknown[]) => Promise<unknown>)(url, ...rest);
  };
}

/** Open time, open, high, low, close and volume all present and finite. */
function isWholeCandle(c: OHLCV): boolean {
  for (let i = 0; i < 6; i++) if (typeof c[i] !== 'number' || !Number.isFinite(c[i])) return false;
  return true;
}

async function downloadCandles(s: Session, market: ResolvedMarket, from: number, to: number, step: number) {
  const symbol = market.instrument.symbol;
  const path = join(s.options.out, 'candles', `${symbol}.csv`);
  const resume = await prepareCsv(path, CANDLE_HEADER);
  const pageSize = (profileOf(s.exchange).historyPages ?? PAGES_BY_DEFAULT).candles;
  const total = Math.max(0, (to - from) / step);
  let rows = resume.rows;
  let prevTs = resume.lastRow ? Number(resume.lastRow[0]) : null;
  let prevClose = resume.lastRow ? Number(resume.lastRow[4]) : null;
  let since = prevTs === null ? from : prevTs + step;
  // Gaps filled after the resume point are found again below; the ones already in the file stay.
  const kept = (s.manifest.filledGaps[symbol] ?? []).filter((g) => prevTs !== null && Date.parse(g.to) <= prevTs);
  s.manifest.filledGaps[symbol] = kept;
  const task = `${symbol} candles`;
  while (since < to) {
    const windowEnd = Math.min(to, since + pageSize * step);
    const page: OHLCV[] = await request(s, `${task} from ${new Date(since).toISOString()}`, PAGES, () =>
      s.exchange.fetchOHLCV(market.ccxtSymbol, s.options.timeframe, since, pageSize, { until: windowEnd - 1 }),
    );
    const fresh = page.filter((c) => typeof c[0] === 'number' && c[0] >= since && c[0] < windowEnd);
    if (fresh.length === 0) {
      if (windowEnd >= to) break; // the exchange has nothing more in the range
      since = windowEnd; // nothing in this window (before the listing, a long maintenance): the next one
      continue;
    }
    const lines: string[] = [];
    for (const c of fresh) {
      const ts = c[0] as number;
      // A candle with a field the exchange left out or garbled is not written as "undefined": it is
      // treated as missing, so it is filled flat below and listed in the manifest like any gap.
      if (!isWholeCandle(c)) continue;
      if (prevTs !== null && ts <= prevTs) continue; // a repeated candle: the first one stands
      if (prevTs !== null && prevClose !== null && ts > prevTs + step) {
        const missing = (ts - prevTs) / step - 1;
        for (let t = prevTs + step; t < ts; t += step)
          lines.push(`${t},${prevClose},${prevClose},${prevClose},${prevClose},0`);
        kept.push({ from: new Date(prevTs + step).toISOString(), to: new Date(ts).toISOString(), candles: missing });
      }
      lines.push(c.map((v) => String(v)).join(','));
      prevTs = ts;
      prevClose = c[4] as number;
    }
    // The manifest first: a crash between the two leaves it listing a gap the file does not reach
    // yet (dropped and found again on resume), never file rows filled flat that it does not list.
    await writeManifest(s.options.out, s.manifest);
    await appendLines(path, lines);
    rows += lines.length;
    since = (prevTs as number) + step;
    s.options.progress.update(task, rows, total, prevTs);
  }
  const short = total - rows;
  s.options.progress.finish(
    task,
    rows,
    total,
    short > 0 ? `${short} candles at the ends not offered by the exchange` : undefined,
  );
  return rows;
}

async function downloadFunding(s: Session, market: ResolvedMarket, from: number, to: number) {
  const symbol = market.instrument.symbol;
  const path = join(s.options.out, 'funding', `${symbol}.csv`);
  const resume = await prepareCsv(path, FUNDING_HEADER);
  let rows = resume.rows;
  let since = resume.lastRow ? Number(resume.lastRow[0]) + 1 : from;
  const task = `${symbol} funding`;
  const fundingUntil = profileOf(s.exchange).fundingHistoryUntil ?? ((end: number) => ({ until: end - 1 }));
  const pageSize = (profileOf(s.exchange).historyPages ?? PAGES_BY_DEFAULT).funding;
  while (since < to) {
    const windowEnd = Math.min(to, since + pageSize * HOUR_MS);
    const page = await request(s, `${task} from ${new Date(since).toISOString()}`, PAGES, () =>
      s.exchange.fetchFundingRateHistory(market.ccxtSymbol, since, pageSize, fundingUntil(windowEnd)),
    );
    const fresh = page
      .filter((f) => typeof f.timestamp === 'number' && f.timestamp >= since && f.timestamp < windowEnd)
      .filter((f) => typeof f.fundingRate === 'number' && Number.isFinite(f.fundingRate))
      .sort((a, b) => (a.timestamp as number) - (b.timestamp as number));
    if (fresh.length === 0) {
      if (windowEnd >= to) break;
      since = windowEnd;
      continue;
    }
    await appendLines(
      path,
      fresh.map((f) => `${f.timestamp},${f.fundingRate}`),
    );
    rows += fresh.length;
    since = (fresh[fresh.length - 1]!.timestamp as number) + 1;
    s.options.progress.update(task, rows, rows, since - 1);
  }
  s.options.progress.finish(task, rows, rows);
  return rows;
}
