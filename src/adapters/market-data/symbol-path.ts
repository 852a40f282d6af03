/**
 * One symbol's synthetic market: a geometric random walk driven by the shared market factor and
 * the symbol's own shock (one-factor model, see market-factor.ts), traded volume, the order book
 * and (for perpetuals) the funding rate, advanced one step at a time from the symbol's own seeded
 * stream. Everything a snapshot needs is produced in `step()`, so the sequence of random draws, and
 * therefore the whole path, depends only on the seed and the step count; `checkpoint()` captures
 * all of it, so a path resumed from one continues exactly as the original would have.
 * Prices and volumes are kept as whole tick and lot counts and become numbers only at the edge
 * (fromSteps), so every published price and quantity is the clean decimal multiple of its step.
 *
 * Candles: each step is one bar opening at market time epoch + (index − 1) × step (index 1 is the
 * first step after the warm-up, whose bars, index 0 and before, are the pre-history every fresh
 * market starts with; the epoch is SYNTHETIC_EPOCH unless the feed is told the run's start).
 * The open is the previous close (the market is continuous); the high and low extend the body by a
 * fraction of its length (at least one tick's worth) drawn from a hash of the symbol's seed and the
 * bar's index, not from the path's random stream, so a resumed market rebuilds the same candles from
 * its saved closes and the path itself is what it always was.
 */
import { BarWindow } from '../../domain/bars.js';
import type { Instrument, MarketSnapshot } from '../../domain/market.js';
import { VOLUME_WINDOW_BARS } from '../../domain/market.js';
import { fromSteps, nearestSteps } from '../../domain/steps.js';
import { fundingRate, initialFunding, nextFundingTime, stepFunding } from './funding.js';
import type { FundingState } from './funding.js';
import type { MarketFactor } from './market-factor.js';
import { shockWithJump } from './market-factor.js';
import type { SymbolProfile } from './market-profiles.js';
import { buildBook } from './order-book.js';
import type { Book, BookShape } from './order-book.js';
import { hashUniform } from './prng.js';
import type { Rng, RngState } from './prng.js';
import { TREND_DRIFT, VOL_PARAMS } from './regimes.js';

export interface SymbolPathOptions {
  instrument: Instrument;
  rng: Rng;
  profile: SymbolProfile;
  startPrice: number;
  /** Step length in units of 60 s; volatility, drift, volume and regime odds scale with it. */
  timeScale: number;
  /** Bars kept in the window. */
  historyLength: number;
  /** The index of the last bar before this path's first step (see the module comment). */
  lastIndex: number;
  /** Key of the candles' wick hash (hashKey of seed and symbol). */
  wickKey: number;
  /** Open time of bar index 1 (the first step after the warm-up); default SYNTHETIC_EPOCH. */
  epoch?: number;
  /** Weight of the market factor in the symbol's shock: √correlation. */
  marketWeight: number;
  /** Demo trend strength (0 = driftless). */
  trendStrength: number;
  fundingHalfLifeHours: number;
  book: BookShape;
  fundingIntervalMs: number;
  /** Where a resumed path continues from (its own stream state is in `rng`). */
  state?: Omit<SymbolPathState, 'rng'>;
}

/** Market time of bar index 0 of every synthetic market: 2024-01-01T00:00Z (documented in the README). */
export const SYNTHETIC_EPOCH = Date.UTC(2024, 0, 1);

/** Everything a path needs to continue: plain JSON. */
export interface SymbolPathState {
  rng: RngState;
  /** Index of the window's last bar (absent in checkpoints from before candles: taken from `steps`). */
  lastIndex?: number;
  logPrice: number;
  lastTicks: number;
  /** The window's closes, oldest first, as published prices. */
  closes: number[];
  /** The window's volumes in whole lots, oldest first. */
  volumeLots: number[];
  funding: FundingState | null;
}

export interface SymbolPath {
  /** Advances one step with `market`'s current regimes and shock (it has stepped first). */
  step(market: MarketFactor): void;
  /** The current state as a snapshot stamped `now`. */
  snapshot(now: number): MarketSnapshot;
  checkpoint(): SymbolPathState;
}

export function createSymbolPath(options: SymbolPathOptions): SymbolPath {
  const { instrument, rng, profile, timeScale, historyLength } = options;
  const { tickSize, lotSize } = instrument;
  const idiosyncraticWeight = Math.sqrt(Math.max(0, 1 - options.marketWeight ** 2));
  const stepMinutes = timeScale;
  const sqrtTime = Math.sqrt(timeScale);
  const state = options.state;
  let logPrice = state?.logPrice ?? Math.log(options.startPrice);
  let lastTicks = state?.lastTicks ?? Math.max(1, nearestSteps(options.startPrice, tickSize));
  let book: Book | null = null;
  const funding: FundingState | null =
    instrument.kind !== 'perp' ? null : state?.funding ? { ...state.funding } : initialFunding(rng);
  const stepMs = Math.round(timeScale * 60_000);
  const bars = new BarWindow(historyLength);
  // Close ticks and volume lots of the window and the bar before it (whose close is the window's
  // first open), for the checkpoint: whole numbers, as published.
  const closeTicks = new BarWindow(historyLength + 1);
  // The liquidity guard's volume: whole lots over the last VOLUME_WINDOW_BARS bars.
  const recentLots = new Array<number>(VOLUME_WINDOW_BARS).fill(0);
  let volumeSlot = 0;
  let volumeSum = 0;
  let index = state?.lastIndex ?? options.lastIndex;
  let prevTicks: number | null = null;
  const push = (ticks: number, lots: number) => {
    index += 1;
    const openTicks = prevTicks ?? ticks;
    const body = Math.abs(ticks - openTicks);
    const reach = Math.max(body, 1);
    const up = Math.floor(hashUniform(options.wickKey, 2 * index) * (reach + 1));
    const down = Math.min(
      Math.floor(hashUniform(options.wickKey, 2 * index + 1) * (reach + 1)),
      Math.min(ticks, openTicks) - 1,
    );
    bars.push({
      time: (options.epoch ?? SYNTHETIC_EPOCH) + (index - 1) * stepMs,
      open: fromSteps(openTicks, tickSize),
      high: fromSteps(Math.max(ticks, openTicks) + up, tickSize),
      low: fromSteps(Math.min(ticks, openTicks) - Math.max(0, down), tickSize),
      close: fromSteps(ticks, tickSize),
      volume: fromSteps(lots, lotSize),
    });
    closeTicks.push({ time: 0, open: 0, high: 0, low: 0, close: ticks, volume: lots });
    volumeSum += lots - recentLots[volumeSlot]!;
    recentLots[volumeSlot] = lots;
    volumeSlot = (volumeSlot + 1) % VOLUME_WINDOW_BARS;
    prevTicks = ticks;
  };
  if (state) {
    // Rebuilt from the saved closes: the window's bars end at the saved index.
    const kept = Math.min(state.closes.length, historyLength + 1);
    const from = state.closes.length - kept;
    index -= kept;
    for (let i = from; i < state.closes.length; i++)
      push(Math.max(1, nearestSteps(state.closes[i] ?? 0, tickSize)), state.volumeLots[i] ?? 0);
  }

  function step(market: MarketFactor): void {
    const params = VOL_PARAMS[market.vol];
    const sigma = params.sigma * profile.volScale * sqrtTime;
    const own = shockWithJump(rng, params.jumpProb, timeScale);
    const shock = options.marketWeight * market.shock + idiosyncraticWeight * own;
    const drift = TREND_DRIFT[market.trend] * options.trendStrength * timeScale;
    // −σ²/2 keeps the price itself (not just its logarithm) without drift.
    const ret = drift - (sigma * sigma) / 2 + sigma * shock;
    logPrice += ret;
    lastTicks = Math.max(1, nearestSteps(Math.exp(logPrice), tickSize));
    const price = lastTicks * tickSize;
    // Volume rises with the regime and with the size of this step's move, as real volume does.
    const activity = params.volumeFactor * (1 + (0.5 * Math.abs(ret)) / sigma) * Math.exp(0.4 * rng.normal() - 0.08);
    const lots = Math.max(0, nearestSteps((profile.volumeNotional * timeScale * activity) / price, lotSize));
    push(lastTicks, lots);
    book = buildBook({ lastTicks, tickSize, lotSize, regime: params, shape: options.book, ...profile }, rng);
    if (funding !== null) {
      const fundingStep = {
        minutes: stepMinutes,
        halfLifeHours: options.fundingHalfLifeHours,
        trend: market.trend,
        trendStrength: options.trendStrength,
        vol: market.vol,
        // The move without its −σ²/2: zero on average, so leaning on it adds no carry (leaning on
        // ret, whose mean is −σ²/2, made funding negative on average: −0.5 to −2 % a year).
        ret: ret + (sigma * sigma) / 2,
      };
      stepFunding(funding, fundingStep, rng);
    }
  }

  function snapshot(now: number): MarketSnapshot {
    if (book === null) throw new Error(`synthetic path for ${instrument.symbol} has not stepped yet`);
    return {
      symbol: instrument.symbol,
      ts: now,
      last: fromSteps(lastTicks, tickSize),
      bid: book.bid,
      ask: book.ask,
      // The book is built afresh every step and never touched again, so it is handed out as is.
      bids: book.bids,
      asks: book.asks,
      bars: bars.view(),
      volume: fromSteps(volumeSum, lotSize),
      fundingRate: funding === null ? null : fundingRate(funding),
      nextFundingTs: funding === null ? null : nextFundingTime(now, options.fundingIntervalMs),
    };
  }

  return {
    step,
    snapshot,
    checkpoint: () => ({
      rng: rng.state(),
      logPrice,
      lastTicks,
      lastIndex: index,
      closes: Array.from(closeTicks.view().close, (t) => fromSteps(t, tickSize)),
      volumeLots: Array.from(closeTicks.view().volume),
      funding: funding === null ? null : { ...funding },
    }),
  };
}
