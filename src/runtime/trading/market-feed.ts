/**
 * Opens the market feed MARKET_DATA names. `synthetic` is built by `openSyntheticFeed` once the
 * trading lease is held, because it continues from the checkpoint the last process stored;
 * `file:<dir>` loads and checks the data directory (its manifest's instruments and fees apply);
 * `live:<exchange>` loads
 * ccxt (only then), the exchange's markets and a first snapshot of every symbol, and its
 * instruments (lot, tick, minimum notional from the exchange) replace the built-in table's for
 * this process, so orders are sized to what the exchange would accept.
 */
import type { Logger } from 'pino';
import type { RequestGate } from '../../adapters/live-venue/request-gate.js';
import { createSyntheticFeed } from '../../adapters/market-data/index.js';
import { persistingFeed, savedMarketCheckpoint } from '../../application/market-time.js';
import type { Instrument } from '../../domain/market.js';
import { REPLAY_CURSOR_KEY } from '../../domain/runtime-documents.js';
import { DEFAULT_HISTORY_BARS } from '../../domain/strategy-input.js';
import { readDocument, writeDocument } from '../../ports/documents.js';
import type { KeyValueStore } from '../../ports/key-value-store.js';
import type { MarketFeed } from '../../ports/market-feed.js';
import { ConfigError } from '../config.js';
import type { TradingConfig } from './trading-config.js';

/** What the strategies need of a feed with bars `barMs` long: its window and the first cycle's minimum. */
export type HistoryFor = (barMs: number) => { bars: number; required: number };

const NO_DECLARATIONS: HistoryFor = () => ({ bars: DEFAULT_HISTORY_BARS, required: 1 });

/** One live fetch may hold a cycle up to this long, however long CYCLE_SECONDS is (ms). */
const LIVE_BUDGET_CEILING_MS = 5_000;

/**
 * The feed, and the configuration with the feed's instruments (the exchange's steps for a live
 * feed). A feed `given` by the caller (tests, simulations) is used as it is, with the config's table.
 * The synthetic market is null here: `openSyntheticFeed` opens it once the store is held.
 */
export async function openMarketFeed(
  config: TradingConfig,
  log: Logger,
  given?: MarketFeed,
  historyFor: HistoryFor = NO_DECLARATIONS,
  /** The exchange account's request gate when the feed reads the exchange the venue trades on. */
  gate?: RequestGate,
): Promise<{ feed: MarketFeed | null; config: TradingConfig }> {
  if (given) return { feed: given, config };
  if (config.marketData === 'synthetic') return { feed: null, config };
  if (config.marketData.startsWith('file:'))
    return openReplay(config, config.marketData.slice('file:'.length), historyFor);
  const exchangeId = config.marketData.slice('live:'.length);
  const { createLiveFeed } = await import('../../adapters/market-data/live/index.js');
  const feed = await createLiveFeed({
    exchangeId,
    symbols: config.instruments.map((i) => ({ symbol: i.symbol, kind: i.kind })),
    ...(config.liveExchangeUrl ? { baseUrl: config.liveExchangeUrl } : {}),
    budgetMs: Math.min(LIVE_BUDGET_CEILING_MS, Math.max(1_000, config.cycleMs)),
    historyLength: historyFor(60_000).bars,
    requiredHistory: historyFor(60_000).required,
    log: (level, message, details) => log[level]({ exchange: exchangeId, ...details }, message),
    ...(gate ? { onClient: (exchange) => gate.install(exchange) } : {}),
  });
  log.info(
    { exchange: exchangeId, symbols: Object.fromEntries(feed.ccxtSymbols), instruments: feed.instruments },
    'live market data: instruments from the exchange',
  );
  return { feed, config: withFeedInstruments(config, feed) };
}

/**
 * A historical replay, one candle per cycle from the data's start, stamped with the process's clock
 * (see docs/strategies/data-format.md). The manifest's instruments replace the built-in table's. When the data
 * runs out, each cycle fails loudly (FEED_EXHAUSTED) and nothing trades on repeated prices.
 */
async function openReplay(
  config: TradingConfig,
  dir: string,
  historyFor: HistoryFor,
): Promise<{ feed: MarketFeed; config: TradingConfig }> {
  const { applyManifestInstruments, createFileFeed, DataFileError, readManifest } =
    await import('../../adapters/market-data/file/index.js');
  try {
    const manifest = await readManifest(dir);
    const instruments = applyManifestInstruments(config.instruments, manifest?.instruments ?? []);
    const feed = await createFileFeed({
      dir,
      instruments,
      fillModel: config.fills.model,
      book: { spread: config.fills.spread },
      ...replayHistory(historyFor),
    });
    return { feed, config: withManifestFees({ ...config, instruments }, manifest?.fees) };
  } catch (err) {
    // Bad data is a configuration error (exit 2: restarting cannot fix it), named file and line.
    if (err instanceof DataFileError) throw new ConfigError(`MARKET_DATA=file:${dir}: ${err.message}`);
    throw err;
  }
}

/**
 * The synthetic market. Each cycle advances it by one market minute, whatever CYCLE_SECONDS is. It
 * continues from the checkpoint the last process saved (what of it fits: see the feed's
 * resumeFrom) and saves its own after every read, through the fenced key-value store.
 */
export async function openSyntheticFeed(
  config: TradingConfig,
  kv: KeyValueStore,
  log: Logger,
  historyFor: HistoryFor = NO_DECLARATIONS,
): Promise<MarketFeed> {
  const feed = createSyntheticFeed({
    instruments: config.instruments,
    seed: config.marketSeed,
    stepMs: 60_000,
    historyLength: historyFor(60_000).bars,
    correlation: config.synthetic.correlation,
    trend: config.synthetic.trend,
    fundingHalfLifeHours: config.synthetic.fundingHalfLifeHours,
    resume: await savedMarketCheckpoint(kv),
  });
  const { origin } = feed;
  for (const note of origin.notes) log.warn({ note }, `synthetic market checkpoint not fully used: ${note}`);
  if (origin.resumed.length > 0)
    log.info(
      { steps: origin.steps, resumed: origin.resumed, fresh: origin.fresh },
      `synthetic market continues at step ${origin.steps}`,
    );
  return persistingFeed(feed, kv);
}

function withFeedInstruments(config: TradingConfig, feed: MarketFeed): TradingConfig {
  const bySymbol = new Map(feed.instruments.map((i) => [i.symbol, i]));
  const instruments: Instrument[] = config.instruments.map((i) => ({ ...(bySymbol.get(i.symbol) ?? i) }));
  return { ...config, instruments };
}

/**
 * A replay that continues where the last process stopped, as the synthetic market does: the paper
 * account persists, so a replay restarted from its first candle would mark the account's positions at
 * prices from days before. Read once the lease is held; the cursor is saved through the fenced store
 * after every market read. A cursor of another directory is ignored (the replay starts at its data's
 * start, and the log says so); a replay whose data had run out stays run out.
 */
export async function continueReplay(
  config: TradingConfig,
  opened: MarketFeed,
  kv: KeyValueStore,
  log: Logger,
  historyFor: HistoryFor = NO_DECLARATIONS,
): Promise<MarketFeed> {
  const dir = config.marketData.slice('file:'.length);
  const { createFileFeed, FeedExhaustedError } = await import('../../adapters/market-data/file/index.js');
  // A refused cursor (malformed, another version) fails the start with a DocumentError naming it:
  // starting over at the data's start would mark the persisted account at old prices.
  const saved = await readDocument(kv, REPLAY_CURSOR_KEY);
  let feed = opened as Awaited<ReturnType<typeof createFileFeed>>;
  if (saved !== null && saved.dir !== dir) {
    log.warn(
      { saved: saved.dir, dir },
      'the stored replay position is for another data directory: starting at its start',
    );
  } else if (saved?.next === null) {
    log.warn({ dir }, 'this replay had reached the end of its data: every cycle fails FEED_EXHAUSTED');
    return {
      instruments: opened.instruments,
      next: () =>
        Promise.reject(new FeedExhaustedError(`the replay of ${dir} had already reached the end of its data`)),
    };
  } else if (typeof saved?.next === 'number' && saved.next !== feed.nextCandleTime) {
    await opened.close?.(); // its data files: the replay continues from a feed of its own
    feed = await createFileFeed({
      dir,
      instruments: config.instruments,
      fillModel: config.fills.model,
      book: { spread: config.fills.spread },
      from: saved.next,
      ...replayHistory(historyFor),
    });
    log.info({ dir, next: new Date(saved.next).toISOString() }, 'the replay continues where the last process stopped');
  }
  return {
    instruments: feed.instruments,
    ...(feed.barMs === undefined ? {} : { barMs: feed.barMs }),
    async next(now) {
      const view = await feed.next(now);
      await writeDocument(kv, REPLAY_CURSOR_KEY, { dir, next: feed.nextCandleTime });
      return view;
    },
    close: () => feed.close(),
  };
}

/**
 * The config with a replay manifest's per-symbol fees over FEE_MAKER/FEE_TAKER for those symbols:
 * the exchange the data came from knows what it charged.
 */
export function withManifestFees(
  config: TradingConfig,
  fees: TradingConfig['fills']['feesBySymbol'] | undefined,
): TradingConfig {
  if (fees === undefined || Object.keys(fees).length === 0) return config;
  return { ...config, fills: { ...config.fills, feesBySymbol: { ...config.fills.feesBySymbol, ...fees } } };
}

/** A replay's window and warm-up, from the strategies' needs once its candle length is known. */
export function replayHistory(historyFor: HistoryFor) {
  return {
    historyLength: (stepMs: number) => historyFor(stepMs).bars,
    warmUp: (stepMs: number) => historyFor(stepMs).required,
  };
}
