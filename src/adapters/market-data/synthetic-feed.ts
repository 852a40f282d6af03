/**
 * Seeded synthetic market feed, the default MarketFeed. A one-factor model: a market-wide stream
 * sets the volatility regime (and, for demos only, a trend regime) and draws a common shock; each
 * symbol mixes it with its own shock so symbols move with the configured correlation (default 0.8,
 * see DEFAULT_CORRELATION). By default nothing in past prices predicts the next move: the price is
 * a driftless random walk with volatility clusters and jumps, so a strategy that makes money here
 * was lucky, not right. Each symbol has its own spread, depth and volume (market-profiles.ts) and,
 * for perpetuals, a funding rate that persists for days. Same seed and instruments → the same
 * sequence, so paper runs, tests and benchmarks are reproducible; `historyLength` closes are
 * generated up front so strategies that need history can act from the first cycle.
 *
 * Market time: `checkpoint()` captures the whole state after the last `next()`, and the `resume`
 * option continues from one, so a restarted trading process carries on the path instead of
 * replaying it from the seed. What a checkpoint that does not fit is resumed as: see `resumeFrom`.
 *
 * Time: each `next(now)` advances the feed by one step of `stepMs` and stamps snapshots `now`.
 * Funding times sit on the fixed UTC grid of `fundingIntervalMs` (00:00, 08:00, 16:00 for 8 h)
 * measured in the same clock as `now`, so a venue comparing `ts` with `nextFundingTs` settles
 * exactly when the caller's time passes a funding moment.
 */
import type { Instrument, MarketSnapshot, MarketView } from '../../domain/market.js';
import type { MarketFeed } from '../../ports/market-feed.js';
import { CHECKPOINT_FORMAT, parseCheckpoint } from './checkpoint.js';
import type { SyntheticCheckpoint } from './checkpoint.js';
import { FUNDING_PARAMS } from './funding.js';
import { createMarketFactor } from './market-factor.js';
import type { MarketFactor } from './market-factor.js';
import { profileFor } from './market-profiles.js';
import type { SymbolProfile } from './market-profiles.js';
import { DEFAULT_BOOK_SHAPE } from './order-book.js';
import type { BookShape } from './order-book.js';
import { createRng, hashKey, restoreRng } from './prng.js';
import type { TrendRegime, VolRegime } from './regimes.js';
import { createSymbolPath } from './symbol-path.js';
import type { SymbolPath } from './symbol-path.js';

/**
 * Correlation of minute-to-daily returns between crypto majors: BTC–ETH has been about 0.8 (0.7–0.9
 * in most rolling 90-day windows since 2020), and the other large caps lie 0.6–0.85 against BTC.
 */
export const DEFAULT_CORRELATION = 0.8;

export interface SyntheticFeedOptions {
  instruments: readonly Instrument[];
  seed: number | string;
  /** Feed time one `next()` represents; default 60 000 ms (one cycle). */
  stepMs?: number;
  /** Bars kept per symbol (the strategies' history), generated up front from the seed; default 60. */
  historyLength?: number;
  /** Start price per symbol; defaults from a small table, else 100. */
  startPrices?: Readonly<Record<string, number>>;
  /** Correlation of any two symbols' returns, in [0, 1]; default DEFAULT_CORRELATION. */
  correlation?: number;
  /** Demo trend strength ≥ 0: 0 (default) is driftless, 1 the old trending market. */
  trend?: number;
  /** Half-life of the funding level in hours; default 72 (3 days). */
  fundingHalfLifeHours?: number;
  /** Spread, depth, volume and volatility per symbol, over the table in market-profiles.ts. */
  profiles?: Readonly<Record<string, Partial<SymbolProfile>>>;
  /** Book shape; default 10 levels decaying ×0.85 per level. */
  book?: Partial<BookShape>;
  /** Funding interval; default 8 h. */
  fundingIntervalMs?: number;
  /** Open time of the first bar after the warm-up (a simulation's start); default SYNTHETIC_EPOCH. */
  epoch?: number;
  /** A checkpoint (from `checkpoint()`, as stored) to continue from; see `resumeFrom`. */
  resume?: unknown;
}

/** How the feed started: which symbols continue a checkpoint, which start from the seed, and why. */
export interface FeedOrigin {
  resumed: string[];
  fresh: string[];
  /** Why a checkpoint was not used (in whole or for some symbols); empty when it fit. */
  notes: string[];
  /** `next()` calls the market had made before this feed (0 from the seed). */
  steps: number;
}

export interface SyntheticFeed extends MarketFeed {
  /** The regimes the market is in now (shared by all symbols); undefined for unknown symbols. */
  regime(symbol: string): { vol: VolRegime; trend: TrendRegime } | undefined;
  /** The whole state after the last `next()`, as plain JSON. */
  checkpoint(): SyntheticCheckpoint;
  readonly origin: FeedOrigin;
}

export const DEFAULT_START_PRICES: Readonly<Record<string, number>> = {
  BTCUSDT: 60_000,
  ETHUSDT: 3_000,
  SOLUSDT: 150,
  BNBUSDT: 550,
  XRPUSDT: 0.55,
};
const FALLBACK_START_PRICE = 100;

/**
 * The markets the synthetic market data knows (a start price and a book profile each). The feed
 * itself makes up any other symbol from fallbacks (tests use that); a configuration is held to these,
 * so a typo in SYMBOLS is an error, not a new market.
 */
export const SYNTHETIC_SYMBOLS: readonly string[] = Object.keys(DEFAULT_START_PRICES);

export function createSyntheticFeed(options: SyntheticFeedOptions): SyntheticFeed {
  const settings = readSettings(options);
  const { stepMs, historyLength, seed } = settings;
  const instruments = options.instruments.map((instrument) => ({ ...instrument }));
  const timeScale = stepMs / 60_000;
  const trending = settings.trend > 0;
  const { checkpoint, origin } = resumeFrom(options.resume, settings, instruments);
  const market: MarketFactor = createMarketFactor({
    rng: checkpoint ? restoreRng(checkpoint.market.rng) : createRng(`${seed}:market`),
    timeScale,
    trending,
    ...(checkpoint ? { state: checkpoint.market } : {}),
  });
  const paths = new Map<string, SymbolPath>();
  const fresh: Array<[Instrument, SymbolPath]> = [];
  for (const instrument of instruments) {
    const saved = checkpoint?.symbols[instrument.symbol];
    const startPrice =
      options.startPrices?.[instrument.symbol] ?? DEFAULT_START_PRICES[instrument.symbol] ?? FALLBACK_START_PRICE;
    if (!(startPrice > 0)) throw new RangeError(`start price for ${instrument.symbol} must be positive`);
    const resumed = saved !== undefined && origin.resumed.includes(instrument.symbol);
    const path = createSymbolPath({
      instrument,
      rng:
        saved && origin.resumed.includes(instrument.symbol)
          ? restoreRng(saved.rng)
          : createRng(`${seed}:${instrument.symbol}`),
      profile: profileFor(instrument.symbol, options.profiles?.[instrument.symbol]),
      startPrice,
      timeScale,
      historyLength,
      // Fresh: the warm-up's last bar is index 0 (a resumed market's: its step count).
      lastIndex: (checkpoint === null ? 0 : origin.steps) - historyLength,
      wickKey: hashKey(`${seed}:${instrument.symbol}:wicks`),
      ...(options.epoch === undefined ? {} : { epoch: options.epoch }),
      marketWeight: Math.sqrt(settings.correlation),
      trendStrength: settings.trend,
      fundingHalfLifeHours: settings.fundingHalfLifeHours,
      book: settings.book,
      fundingIntervalMs: settings.fundingIntervalMs,
      ...(resumed ? { state: { ...saved, lastIndex: saved.lastIndex ?? origin.steps } } : {}),
    });
    paths.set(instrument.symbol, path);
    if (!origin.resumed.includes(instrument.symbol)) fresh.push([instrument, path]);
  }
  warmUp(
    fresh,
    checkpoint === null ? market : createMarketFactor({ rng: createRng(`${seed}:market`), timeScale, trending }),
    historyLength,
  );
  let steps = origin.steps;

  return {
    instruments,
    barMs: stepMs,
    origin,
    async next(now: number): Promise<MarketView> {
      market.step();
      steps += 1;
      const view = new Map<string, MarketSnapshot>();
      for (const [symbol, path] of paths) {
        path.step(market);
        view.set(symbol, path.snapshot(now));
      }
      return view;
    },
    regime(symbol: string) {
      return paths.has(symbol) ? { vol: market.vol, trend: market.trend } : undefined;
    },
    checkpoint(): SyntheticCheckpoint {
      const symbols: SyntheticCheckpoint['symbols'] = {};
      for (const instrument of instruments) {
        const path = paths.get(instrument.symbol);
        if (path) symbols[instrument.symbol] = { kind: instrument.kind, ...path.checkpoint() };
      }
      return { format: CHECKPOINT_FORMAT, seed, stepMs, historyLength, steps, market: market.checkpoint(), symbols };
    },
  };
}

type Settings = ReturnType<typeof readSettings>;

function readSettings(options: SyntheticFeedOptions) {
  const stepMs = options.stepMs ?? 60_000;
  const historyLength = options.historyLength ?? 60;
  const correlation = options.correlation ?? DEFAULT_CORRELATION;
  const trend = options.trend ?? 0;
  const fundingHalfLifeHours = options.fundingHalfLifeHours ?? FUNDING_PARAMS.halfLifeHours;
  if (!(stepMs > 0)) throw new RangeError('stepMs must be positive');
  if (!Number.isInteger(historyLength) || historyLength < 1)
    throw new RangeError('historyLength must be a positive integer');
  if (!(correlation >= 0 && correlation <= 1)) throw new RangeError('correlation must be between 0 and 1');
  if (!(trend >= 0 && Number.isFinite(trend))) throw new RangeError('trend must be a number ≥ 0');
  if (!(fundingHalfLifeHours > 0 && Number.isFinite(fundingHalfLifeHours)))
    throw new RangeError('fundingHalfLifeHours must be positive');
  return {
    seed: String(options.seed),
    stepMs,
    historyLength,
    correlation,
    trend,
    fundingHalfLifeHours,
    book: { ...DEFAULT_BOOK_SHAPE, ...options.book },
    fundingIntervalMs: options.fundingIntervalMs ?? 8 * 3_600_000,
  };
}

/**
 * What of a checkpoint is used. The market continues only from a checkpoint of the same seed, step
 * length and window (another seed means the operator asked for another market; another step or
 * window would make the saved history mean something else); then every configured symbol it holds
 * with the same kind continues, a symbol added since starts from the seed, and one removed is
 * dropped. A checkpoint that is damaged or does not fit is not used at all: the market starts from
 * the seed and `origin.notes` says why, for the caller to log. Correlation, trend, funding
 * half-life and profiles are settings, not state: they apply from the next step on.
 */
function resumeFrom(
  raw: unknown,
  settings: Settings,
  instruments: readonly Instrument[],
): { checkpoint: SyntheticCheckpoint | null; origin: FeedOrigin } {
  const symbols = instruments.map((i) => i.symbol);
  const fromSeed = (notes: string[]) => ({
    checkpoint: null,
    origin: { resumed: [], fresh: symbols, notes, steps: 0 },
  });
  if (raw === undefined || raw === null) return fromSeed([]);
  let checkpoint: SyntheticCheckpoint;
  try {
    checkpoint = parseCheckpoint(raw);
  } catch (err) {
    return fromSeed([`${(err as Error).message}; the market starts from the seed`]);
  }
  const mismatch = (
    [
      ['seed', checkpoint.seed, settings.seed],
      ['stepMs', checkpoint.stepMs, settings.stepMs],
    ] as const
  ).find(([, saved, wanted]) => saved !== wanted);
  if (mismatch) {
    const [what, saved, wanted] = mismatch;
    return fromSeed([`the checkpoint is for ${what} ${saved}, not ${wanted}: the market starts from the seed`]);
  }
  // A longer saved window serves a shorter one (its oldest bars are dropped); a shorter one cannot
  // give the history the strategies now declare, and a strategy never sees less than it declared.
  if (checkpoint.historyLength < settings.historyLength)
    return fromSeed([
      `the checkpoint holds ${checkpoint.historyLength} bars, fewer than the ${settings.historyLength} the strategies need: the market starts from the seed`,
    ]);
  const resumed: string[] = [];
  const fresh: string[] = [];
  const notes: string[] = [];
  for (const instrument of instruments) {
    const saved = checkpoint.symbols[instrument.symbol];
    if (saved === undefined) {
      fresh.push(instrument.symbol);
      notes.push(`${instrument.symbol} is not in the checkpoint: it starts from the seed`);
    } else if (saved.kind !== instrument.kind) {
      fresh.push(instrument.symbol);
      notes.push(`${instrument.symbol} was saved as ${saved.kind}, now ${instrument.kind}: it starts from the seed`);
    } else resumed.push(instrument.symbol);
  }
  const dropped = Object.keys(checkpoint.symbols).filter((s) => !symbols.includes(s));
  if (dropped.length > 0) notes.push(`no longer configured, dropped from the market: ${dropped.join(', ')}`);
  return { checkpoint, origin: { resumed, fresh, notes, steps: checkpoint.steps } };
}

/**
 * Fills the windows of paths that start from the seed. On a fresh feed they share the live market
 * factor; added to a resumed market they get a private copy from the seed for their history (that
 * history is not correlated with the others', which no strategy can tell from a 60-close window).
 */
function warmUp(paths: ReadonlyArray<[Instrument, SymbolPath]>, market: MarketFactor, historyLength: number): void {
  if (paths.length === 0) return;
  for (let i = 0; i < historyLength; i++) {
    market.step();
    for (const [, path] of paths) path.step(market);
  }
}
