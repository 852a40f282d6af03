/**
 * The live market feed (`MARKET_DATA=live:<exchange>`): public data through ccxt, no keys. Each
 * `next()` fetches, per symbol and in parallel, the top of the book (10 levels) and the recent 1m
 * candles (closes and volume over the window), and for perpetuals the current funding rate and next
 * funding time (refreshed once a minute or when a funding moment has passed: it changes slowly; a
 * perpetual's stamp is never later than its funding's fetch plus that interval, so funding that
 * cannot be refreshed makes the symbol stale too).
 *
 * A symbol's snapshot is stamped with the time its data arrived, not the cycle's `now`. When a
 * fetch fails (after retries within the cycle's budget) the previous snapshot is served again with
 * its old stamp, so the risk engine can see its age (FEED_STALE_MS) and refuse new exposure while
 * closes still have a price. `next()` always returns within its budget: hung requests are left to
 * ccxt's own timeout and the cycle goes on without them. Nothing here throws after start-up.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Exchange, OrderBook, OHLCV } from 'ccxt';
import { barsFromRows } from '../../../domain/bars.js';
import { VOLUME_WINDOW_BARS } from '../../../domain/market.js';
import type { BookLevel, Instrument, InstrumentKind, MarketSnapshot, MarketView } from '../../../domain/market.js';
import type { MarketFeed } from '../../../ports/market-feed.js';
import { openExchange } from '../../exchanges/open-exchange.js';
import { findProfile } from '../../exchanges/registry.js';
import type { CcxtErrors } from '../../exchanges/open-exchange.js';
import { toBase } from '../../exchanges/contract-units.js';
import { resolveMarkets } from './markets.js';
import { withRetry } from './retry.js';
import type { RetryPolicy } from './retry.js';

export type FeedLog = (level: 'debug' | 'info' | 'warn', message: string, details?: Record<string, unknown>) => void;

export interface LiveFeedOptions {
  /** A ccxt exchange id, e.g. binanceusdm. */
  exchangeId: string;
  /** The symbols to follow, with the kind the built-in table expects (a hint when both exist). */
  symbols: readonly { symbol: string; kind?: InstrumentKind }[];
  /** LIVE_EXCHANGE_URL: another origin for the exchange's REST API (tests, proxies). */
  baseUrl?: string;
  /** ccxt's throttle interval, ms (the exchange's own by default; tests against the fake set 1). */
  rateLimitMs?: number;
  /**
   * Told of the feed's ccxt client before its first request: the account's request gate installs
   * itself on it (src/adapters/live-venue/request-gate.ts), so a ban or a Retry-After the venue's
   * client was given holds the feed's reads too (the exchange limits the IP, not the client).
   */
  onClient?: (exchange: Exchange) => void;
  /** Longest one `next()` may take, ms (default 5 000). */
  budgetMs?: number;
  /** ccxt's per-request timeout, ms (default half the budget, so a retry still fits in a cycle). */
  requestTimeoutMs?: number;
  /** Longest start-up (loading markets and the first data) may take before it fails, ms (default 30 000). */
  startupMs?: number;
  /** One-minute candles of history fetched every cycle (the strategies' window; default 60). */
  historyLength?: number;
  /** Candles every symbol must have at start (the longest declared lookback); default 1. */
  requiredHistory?: number;
  /** Book levels per side (default 10). */
  bookLevels?: number;
  /** How often current funding is refreshed, ms (default 60 000). */
  fundingRefreshMs?: number;
  /** Receive time (epoch ms) stamped on snapshots; the process clock by default. Budgets run on `elapsed`. */
  now?: () => number;
  /** The time budgets, Retry-After and retry waits run on: real time unless a test steps it. */
  elapsed?: ElapsedTime;
  random?: () => number;
  log?: FeedLog;
}

/** Elapsed time as the feed measures and waits it (real time by default). */
export interface ElapsedTime {
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts (the feed closed); never rejects. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

const REAL_TIME: ElapsedTime = {
  now: Date.now,
  sleep: (ms, signal) => delay(ms, undefined, { signal }).catch(() => {}),
};

export interface LiveFeed extends MarketFeed {
  /** ccxt's symbol for each system symbol, e.g. BTCUSDT → BTC/USDT:USDT. */
  readonly ccxtSymbols: ReadonlyMap<string, string>;
  /**
   * Stops the feed: retries waiting are woken and give up, nothing more is sent, and `next()` only
   * serves the last snapshots (ccxt's REST client keeps no sockets of its own to close).
   */
  close(): Promise<void>;
}

interface SymbolState {
  instrument: Instrument;
  ccxtSymbol: string;
  /** The base one contract is worth: book sizes arrive in contracts. */
  contractSize: number;
  snapshot: MarketSnapshot | null;
  funding: { rate: number | null; next: number | null; fetchedAt: number } | null;
  failing: boolean;
  /**
   * Refreshes (and funding fetches) are numbered as they start; a result is applied only when it
   * started after the one last applied. An abandoned refresh from an earlier cycle that answers late
   * would otherwise put older data over newer.
   */
  started: number;
  applied: number;
  fundingStarted: number;
  fundingApplied: number;
}

/** One candle: the feed reads one-minute candles. */
const MINUTE_MS = 60_000;

export async function createLiveFeed(options: LiveFeedOptions): Promise<LiveFeed> {
  const now = options.now ?? Date.now;
  const elapsed = options.elapsed ?? REAL_TIME;
  const budgetMs = options.budgetMs ?? 5_000;
  const historyLength = options.historyLength ?? 60;
  const bookLevels = options.bookLevels ?? 10;
  const fundingRefreshMs = options.fundingRefreshMs ?? 60_000;
  const log: FeedLog = options.log ?? (() => {});
  const { exchange, errors } = await openExchange(options.exchangeId, {
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.rateLimitMs === undefined ? {} : { rateLimitMs: options.rateLimitMs }),
    // One request never takes the whole cycle budget, so a retry still fits.
    timeoutMs: options.requestTimeoutMs ?? Math.max(250, Math.round(budgetMs / 2)),
  });
  options.onClient?.(exchange);
  const policy = (deadline: number): RetryPolicy => ({ baseMs: 200, maxMs: 5_000, deadline, attempts: 8 });
  // A Retry-After outlives the cycle that got it: until it passes no request is sent at all (the
  // last snapshots are served with their old stamps), or every cycle would knock again and extend the ban.
  const rateLimit = { blockedUntil: 0 };
  // Closing wakes every retry's wait (and clears its timer), and withRetry then stops instead of asking again.
  let closed = false;
  const closing = new AbortController();
  const sleep = (ms: number) => elapsed.sleep(ms, closing.signal);
  // A request already queued in ccxt's own throttle when the feed closes must not go out either:
  // the HTTP call behind the throttle refuses once closed (an error no retry repeats).
  const send = exchange.fetch.bind(exchange);
  exchange.fetch = (...args: Parameters<Exchange['fetch']>) =>
    closed ? Promise.reject(new Error('market feed closed: request not sent')) : send(...args);
  const hooks = {
    ...retryHooks(exchange, errors, log, options.random, (ms) => {
      rateLimit.blockedUntil = Math.max(rateLimit.blockedUntil, elapsed.now() + ms);
    }),
    aborted: () => closed,
    sleep,
    now: elapsed.now,
  };
  const startupDeadline = elapsed.now() + (options.startupMs ?? 30_000);

  const where = options.baseUrl ? ` at ${options.baseUrl}` : '';
  try {
    // reload: ccxt keeps a failed load's promise, so without it a retry would send nothing.
    await withRetry(() => exchange.loadMarkets(true), policy(startupDeadline), hooks);
  } catch (err) {
    throw new Error(`could not load ${options.exchangeId} markets${where}: ${(err as Error).message}`);
  }
  const resolved = resolveMarkets(
    exchange.markets ?? {},
    options.symbols,
    options.exchangeId,
    exchange.precisionMode === 4,
  );
  const states = new Map<string, SymbolState>(
    resolved.map((r) => [
      r.instrument.symbol,
      {
        instrument: r.instrument,
        ccxtSymbol: r.ccxtSymbol,
        contractSize: r.contractSize,
        snapshot: null,
        funding: null,
        failing: false,
        started: 0,
        applied: 0,
        fundingStarted: 0,
        fundingApplied: 0,
      },
    ]),
  );
  // The smallest depth the exchange serves that holds the levels wanted (its profile's `bookDepths`);
  // an exchange without a profile, or none deep enough: the levels as asked.
  const depths = findProfile(options.exchangeId)?.bookDepths ?? [];
  const bookLimit = depths.find((l) => l >= bookLevels) ?? bookLevels;

  const fetchFunding = async (state: SymbolState, deadline: number): Promise<void> => {
    if (state.instrument.kind !== 'perp') return;
    const t = now();
    const f = state.funding;
    if (f && t - f.fetchedAt < fundingRefreshMs && (f.next === null || t < f.next)) return;
    const seq = ++state.fundingStarted;
    try {
      const rate = await withRetry(() => exchange.fetchFundingRate(state.ccxtSymbol), policy(deadline), hooks);
      if (seq < state.fundingApplied) return;
      state.fundingApplied = seq;
      state.funding = {
        rate: finiteOrNull(rate.fundingRate),
        next: finiteOrNull(rate.fundingTimestamp ?? rate.nextFundingTimestamp),
        fetchedAt: now(),
      };
    } catch (err) {
      // Funding moves slowly: the last known rate stays until a fetch succeeds.
      log('debug', 'funding rate not refreshed', { symbol: state.instrument.symbol, err: (err as Error).message });
    }
  };

  const refresh = async (state: SymbolState, deadline: number): Promise<void> => {
    const symbol = state.instrument.symbol;
    const seq = ++state.started;
    const fundingDone = fetchFunding(state, deadline);
    try {
      const [book, candles] = await Promise.all([
        // Fresh as of when it arrived, or as of the exchange's own stamp when that is older: a reply
        // that was late in reaching this process (a loaded machine, a slow network) is old data.
        withRetry(() => exchange.fetchOrderBook(state.ccxtSymbol, bookLimit), policy(deadline), hooks).then((b) => ({
          b,
          at: Math.min(now(), typeof b.timestamp === 'number' && Number.isFinite(b.timestamp) ? b.timestamp : Infinity),
        })),
        withRetry(
          // One more than the window: the newest is the minute still forming, which buildSnapshot drops.
          () => exchange.fetchOHLCV(state.ccxtSymbol, '1m', undefined, historyLength + 1),
          policy(deadline),
          hooks,
        ).then((c) => ({ c, at: now() })),
      ]);
      await fundingDone;
      const snapshot = buildSnapshot(state, book.b, candles.c, Math.min(book.at, candles.at), bookLevels);
      if (seq < state.applied) return;
      state.applied = seq;
      state.snapshot = snapshot;
      if (state.failing) log('info', 'market data fresh again', { symbol });
      state.failing = false;
    } catch (err) {
      if (seq < state.applied) return;
      if (!state.failing)
        log('warn', 'market data not refreshed: serving the last snapshot', { symbol, err: (err as Error).message });
      state.failing = true;
    }
  };

  const fetchAll = async (deadline: number): Promise<void> => {
    if (closed) return;
    if (elapsed.now() < rateLimit.blockedUntil) {
      log('debug', 'rate limited: no market data requests until Retry-After passes', {
        until: new Date(rateLimit.blockedUntil).toISOString(),
      });
      return;
    }
    const work = Promise.all([...states.values()].map((s) => refresh(s, deadline)));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - elapsed.now()))));
    await Promise.race([work, late]);
    clearTimeout(timer);
  };

  // The first snapshot of every symbol (and a perpetual's funding) before trading starts: no cycle
  // runs on a market it never saw.
  const unready = () =>
    [...states.values()].filter((s) => s.snapshot === null || (s.instrument.kind === 'perp' && s.funding === null));
  while (unready().length > 0) {
    if (elapsed.now() >= startupDeadline) {
      const missing = unready().map((s) => s.instrument.symbol);
      throw new Error(`no market data from ${options.exchangeId}${where} for ${missing.join(', ')}`);
    }
    await fetchAll(Math.min(startupDeadline, elapsed.now() + budgetMs));
  }
  // The strategies' history comes from the exchange: a symbol with less than they declared is refused.
  const required = Math.min(historyLength, options.requiredHistory ?? 1);
  const short = [...states.values()].filter((s) => (s.snapshot?.bars.length ?? 0) < required);
  if (short.length > 0)
    throw new Error(
      `too little history from ${options.exchangeId}${where}: the strategies need ${required} one-minute candles; ` +
        short.map((s) => `${s.instrument.symbol} has ${s.snapshot?.bars.length ?? 0}`).join(', '),
    );

  return {
    instruments: [...states.values()].map((s) => ({ ...s.instrument })),
    barMs: 60_000,
    ccxtSymbols: new Map([...states.values()].map((s) => [s.instrument.symbol, s.ccxtSymbol])),
    async next(): Promise<MarketView> {
      await fetchAll(elapsed.now() + budgetMs);
      const view = new Map<string, MarketSnapshot>();
      for (const [symbol, state] of states) if (state.snapshot) view.set(symbol, withFunding(state, fundingRefreshMs));
      return view;
    },
    async close() {
      closed = true;
      closing.abort();
      await exchange.close();
    },
  };
}

function finiteOrNull(value: number | undefined | null): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * A perpetual's snapshot with its funding, stamped no fresher than the funding is current (fetched
 * within one refresh interval): when funding fetches keep failing the symbol goes stale like any
 * other outage, however fresh the book, rather than serving the last rate indefinitely.
 */
function withFunding(state: SymbolState, fundingRefreshMs: number): MarketSnapshot {
  const snapshot = state.snapshot as MarketSnapshot;
  if (state.instrument.kind !== 'perp') return snapshot;
  const funding = state.funding;
  return {
    ...snapshot,
    ts: funding ? Math.min(snapshot.ts, funding.fetchedAt + fundingRefreshMs) : snapshot.ts,
    fundingRate: funding?.rate ?? null,
    nextFundingTs: funding?.next ?? null,
  };
}

/** The best `count` levels of a side, sizes in the base (ccxt gives a derivative's in contracts). */
function levels(side: OrderBook['bids'], count: number, contractSize: number): BookLevel[] {
  const out: BookLevel[] = [];
  for (const [price, qty] of side) {
    if (out.length >= count) break;
    if (typeof price === 'number' && typeof qty === 'number' && price > 0 && qty > 0)
      out.push({ price, qty: toBase(qty, contractSize) });
  }
  return out;
}

/** One snapshot from a book and the recent candles; throws when either is unusable (the old one stays). */
function buildSnapshot(
  state: SymbolState,
  book: OrderBook,
  candles: OHLCV[],
  ts: number,
  depth: number,
): MarketSnapshot {
  const bids = levels(book.bids, depth, state.contractSize);
  const asks = levels(book.asks, depth, state.contractSize);
  // Closed candles only: the exchange's newest is the minute still forming, whose close is not final
  // (a strategy would act on a bar that is not over, and a resampled bucket would count as complete).
  const rows = candles.filter(
    (c) => typeof c[4] === 'number' && (c[4] as number) > 0 && typeof c[0] === 'number' && c[0] + MINUTE_MS <= ts,
  );
  if (bids.length === 0 || asks.length === 0) throw new Error('empty order book');
  if (rows.length === 0) throw new Error('no candles');
  const num = (x: unknown, fallback: number) => (typeof x === 'number' && Number.isFinite(x) ? x : fallback);
  const bars = barsFromRows(
    rows.map((c) => {
      const close = c[4] as number;
      return {
        time: num(c[0], 0),
        open: num(c[1], close),
        high: num(c[2], close),
        low: num(c[3], close),
        close,
        // In the base already: ccxt reads OKX's volCcy for a swap, and the others' contracts are 1.
        volume: Math.max(0, num(c[5], 0)),
      };
    }),
  );
  let volume = 0;
  for (let i = Math.max(0, bars.length - VOLUME_WINDOW_BARS); i < bars.length; i++) volume += bars.volume[i]!;
  return {
    symbol: state.instrument.symbol,
    ts,
    last: bars.close[bars.length - 1]!,
    bid: bids[0]!.price,
    ask: asks[0]!.price,
    bids,
    asks,
    bars,
    volume,
    fundingRate: null,
    nextFundingTs: null,
  };
}

function retryHooks(
  exchange: Exchange,
  errors: CcxtErrors,
  log: FeedLog,
  random: (() => number) | undefined,
  /** Told of every Retry-After the exchange gives, ms. */
  onRetryAfter: (ms: number) => void,
) {
  return {
    retryable: (err: unknown) => err instanceof errors.NetworkError,
    retryAfterMs: (err: unknown) => {
      if (!(err instanceof errors.RateLimitExceeded || err instanceof errors.DDoSProtection)) return null;
      const headers = (exchange.last_response_headers ?? {}) as Record<string, string | undefined>;
      const seconds = Number(headers['retry-after'] ?? headers['Retry-After']);
      if (!(Number.isFinite(seconds) && seconds > 0)) return null;
      onRetryAfter(seconds * 1000);
      return seconds * 1000;
    },
    onRetry: (err: unknown, attempt: number, waitMs: number) =>
      log('debug', 'retrying a market data request', { attempt, waitMs, err: (err as Error).message }),
    ...(random ? { random } : {}),
  };
}
