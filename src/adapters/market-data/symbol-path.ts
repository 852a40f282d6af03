/**
 * One symbol's synthetic market: regimes, a geometric random walk for the price, traded volume,
 * the order book and (for perpetuals) the funding rate, advanced one step at a time from the
 * symbol's own seeded stream. Everything a snapshot needs is produced in `step()`, so the sequence
 * of random draws, and therefore the whole path, depends only on the seed and the step count.
 * Prices and volumes are kept as whole tick and lot counts and become numbers only at the edge
 * (fromSteps), so every published price and quantity is the clean decimal multiple of its step.
 */
import type { Instrument, MarketSnapshot } from '../../domain/market.js';
import { fromSteps, nearestSteps } from '../../domain/steps.js';
import { initialFundingRate, nextFundingRate, nextFundingTime } from './funding.js';
import { buildBook } from './order-book.js';
import type { Book, BookShape } from './order-book.js';
import type { Rng } from './prng.js';
import { nextTrendRegime, nextVolRegime, TREND_DRIFT, VOL_PARAMS } from './regimes.js';
import type { TrendRegime, VolRegime } from './regimes.js';

export interface SymbolPathOptions {
  instrument: Instrument;
  rng: Rng;
  startPrice: number;
  /** Step length in units of 60 s; volatility, drift, volume and regime odds scale with it. */
  timeScale: number;
  /** Closes (and per-step volumes) kept in the window. */
  historyLength: number;
  /** Quote notional traded per 60 s in a normal regime, before noise. */
  volumeNotional: number;
  book: BookShape;
  fundingIntervalMs: number;
}

export interface SymbolPath {
  readonly vol: VolRegime;
  readonly trend: TrendRegime;
  /** Advances one step. */
  step(): void;
  /** The current state as a snapshot stamped `now`. */
  snapshot(now: number): MarketSnapshot;
}

export function createSymbolPath(options: SymbolPathOptions): SymbolPath {
  const { instrument, rng, timeScale, historyLength } = options;
  const { tickSize, lotSize } = instrument;
  const isPerp = instrument.kind === 'perp';
  let vol: VolRegime = 'normal';
  let trend: TrendRegime = 'flat';
  let logPrice = Math.log(options.startPrice);
  let lastTicks = Math.max(1, nearestSteps(options.startPrice, tickSize));
  let book: Book | null = null;
  let funding: number | null = isPerp ? initialFundingRate(rng) : null;
  const closes: number[] = [];
  /** Per-step volumes in whole lots, summed for the window's volume. */
  const volumeLots: number[] = [];

  function step(): void {
    vol = nextVolRegime(vol, rng, timeScale);
    trend = nextTrendRegime(trend, rng, timeScale);
    const params = VOL_PARAMS[vol];
    const sigma = params.sigma * Math.sqrt(timeScale);
    let ret = TREND_DRIFT[trend] * timeScale - (sigma * sigma) / 2 + sigma * rng.normal();
    if (rng.next() < params.jumpProb * timeScale) {
      ret += (rng.next() < 0.5 ? -1 : 1) * sigma * (3 + 3 * rng.next());
    }
    logPrice += ret;
    lastTicks = Math.max(1, nearestSteps(Math.exp(logPrice), tickSize));
    const price = lastTicks * tickSize;
    // Volume rises with the regime and with the size of this step's move, as real volume does.
    const activity = params.volumeFactor * (1 + (0.5 * Math.abs(ret)) / sigma) * Math.exp(0.4 * rng.normal() - 0.08);
    const lots = Math.max(0, nearestSteps((options.volumeNotional * timeScale * activity) / price, lotSize));
    push(closes, fromSteps(lastTicks, tickSize), historyLength);
    push(volumeLots, lots, historyLength);
    book = buildBook({ lastTicks, tickSize, lotSize, regime: params, shape: options.book }, rng);
    if (funding !== null) funding = nextFundingRate(funding, trend, vol, rng, timeScale);
  }

  function snapshot(now: number): MarketSnapshot {
    if (book === null) throw new Error(`synthetic path for ${instrument.symbol} has not stepped yet`);
    const volumeTotal = volumeLots.reduce((sum, lots) => sum + lots, 0);
    return {
      symbol: instrument.symbol,
      ts: now,
      last: fromSteps(lastTicks, tickSize),
      bid: book.bid,
      ask: book.ask,
      bids: book.bids.map((level) => ({ ...level })),
      asks: book.asks.map((level) => ({ ...level })),
      closes: [...closes],
      volume: fromSteps(volumeTotal, lotSize),
      fundingRate: funding,
      nextFundingTs: isPerp ? nextFundingTime(now, options.fundingIntervalMs) : null,
    };
  }

  return {
    get vol() {
      return vol;
    },
    get trend() {
      return trend;
    },
    step,
    snapshot,
  };
}

function push<T>(window: T[], value: T, max: number): void {
  window.push(value);
  if (window.length > max) window.splice(0, window.length - max);
}
