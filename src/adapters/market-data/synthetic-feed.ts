/**
 * Seeded synthetic market feed, the default MarketFeed: per symbol a geometric random walk with
 * Markov-switching volatility and trend regimes, a ten-level book, windowed volume and (perps)
 * a mean-reverting funding rate. Same seed and instruments → the same sequence, so paper runs,
 * tests and benchmarks are reproducible. `historyLength` closes are generated up front so
 * strategies that need history can act from the first cycle.
 *
 * Time: each `next(now)` advances the feed by one step of `stepMs` and stamps snapshots `now`.
 * Funding times sit on the fixed UTC grid of `fundingIntervalMs` (00:00, 08:00, 16:00 for 8 h)
 * measured in the same clock as `now`, so a venue comparing `ts` with `nextFundingTs` settles
 * exactly when the caller's time passes a funding moment.
 */
import type { Instrument, MarketSnapshot, MarketView } from '../../domain/market.js';
import type { MarketFeed } from '../../ports/market-feed.js';
import { DEFAULT_BOOK_SHAPE } from './order-book.js';
import type { BookShape } from './order-book.js';
import { createRng } from './prng.js';
import type { TrendRegime, VolRegime } from './regimes.js';
import { createSymbolPath } from './symbol-path.js';
import type { SymbolPath } from './symbol-path.js';

export interface SyntheticFeedOptions {
  instruments: readonly Instrument[];
  seed: number | string;
  /** Feed time one `next()` represents; default 60 000 ms (one cycle). */
  stepMs?: number;
  /** Closes kept per symbol (and the volume window); default 60. */
  historyLength?: number;
  /** Start price per symbol; defaults from a small table, else 100. */
  startPrices?: Readonly<Record<string, number>>;
  /** Quote notional traded per 60 s in a normal regime; default 1 500 000 USDT. */
  volumeNotional?: number;
  /** Book shape; default 10 levels, 150 000 USDT at the touch, decaying ×0.85 per level. */
  book?: Partial<BookShape>;
  /** Funding interval; default 8 h. */
  fundingIntervalMs?: number;
}

export interface SyntheticFeed extends MarketFeed {
  /** The regimes a symbol is in now (diagnostics and tests); undefined for unknown symbols. */
  regime(symbol: string): { vol: VolRegime; trend: TrendRegime } | undefined;
}

export const DEFAULT_START_PRICES: Readonly<Record<string, number>> = {
  BTCUSDT: 60_000,
  ETHUSDT: 3_000,
  SOLUSDT: 150,
  BNBUSDT: 550,
  XRPUSDT: 0.55,
};
const FALLBACK_START_PRICE = 100;

export function createSyntheticFeed(options: SyntheticFeedOptions): SyntheticFeed {
  const stepMs = options.stepMs ?? 60_000;
  const historyLength = options.historyLength ?? 60;
  if (!(stepMs > 0)) throw new RangeError('stepMs must be positive');
  if (!Number.isInteger(historyLength) || historyLength < 1)
    throw new RangeError('historyLength must be a positive integer');
  const book: BookShape = { ...DEFAULT_BOOK_SHAPE, ...options.book };
  const instruments = options.instruments.map((instrument) => ({ ...instrument }));
  const paths = new Map<string, SymbolPath>();
  for (const instrument of instruments) {
    const startPrice =
      options.startPrices?.[instrument.symbol] ?? DEFAULT_START_PRICES[instrument.symbol] ?? FALLBACK_START_PRICE;
    if (!(startPrice > 0)) throw new RangeError(`start price for ${instrument.symbol} must be positive`);
    const path = createSymbolPath({
      instrument,
      rng: createRng(`${String(options.seed)}:${instrument.symbol}`),
      startPrice,
      timeScale: stepMs / 60_000,
      historyLength,
      volumeNotional: options.volumeNotional ?? 1_500_000,
      book,
      fundingIntervalMs: options.fundingIntervalMs ?? 8 * 3_600_000,
    });
    // History first, so the first snapshot already carries a full window of closes.
    for (let i = 0; i < historyLength; i++) path.step();
    paths.set(instrument.symbol, path);
  }

  return {
    instruments,
    async next(now: number): Promise<MarketView> {
      const view = new Map<string, MarketSnapshot>();
      for (const [symbol, path] of paths) {
        path.step();
        view.set(symbol, path.snapshot(now));
      }
      return view;
    },
    regime(symbol: string) {
      const path = paths.get(symbol);
      return path === undefined ? undefined : { vol: path.vol, trend: path.trend };
    },
  };
}
