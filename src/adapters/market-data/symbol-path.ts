/**
 * One symbol's synthetic market: a geometric random walk driven by the shared market factor and
 * the symbol's own shock (one-factor model, see market-factor.ts), traded volume, the order book
 * and (for perpetuals) the funding rate, advanced one step at a time from the symbol's own seeded
 * stream. Everything a snapshot needs is produced in `step()`, so the sequence of random draws, and
 * therefore the whole path, depends only on the seed and the step count; `checkpoint()` captures
 * all of it, so a path resumed from one continues exactly as the original would have.
 * Prices and volumes are kept as whole tick and lot counts and become numbers only at the edge
 * (fromSteps), so every published price and quantity is the clean decimal multiple of its step.
 */
import type { Instrument, MarketSnapshot } from '../../domain/market.js';
import { fromSteps, nearestSteps } from '../../domain/steps.js';
import { fundingRate, initialFunding, nextFundingTime, stepFunding } from './funding.js';
import type { FundingState } from './funding.js';
import type { MarketFactor } from './market-factor.js';
import { shockWithJump } from './market-factor.js';
import type { SymbolProfile } from './market-profiles.js';
import { buildBook } from './order-book.js';
import type { Book, BookShape } from './order-book.js';
import type { Rng, RngState } from './prng.js';
import { TREND_DRIFT, VOL_PARAMS } from './regimes.js';

export interface SymbolPathOptions {
  instrument: Instrument;
  rng: Rng;
  profile: SymbolProfile;
  startPrice: number;
  /** Step length in units of 60 s; volatility, drift, volume and regime odds scale with it. */
  timeScale: number;
  /** Closes (and per-step volumes) kept in the window. */
  historyLength: number;
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

/** Everything a path needs to continue: plain JSON. */
export interface SymbolPathState {
  rng: RngState;
  logPrice: number;
  lastTicks: number;
  /** The window, oldest first, as published prices. */
  closes: number[];
  /** Per-step volumes in whole lots, oldest first. */
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
  // Ring buffers: a step writes one slot, nothing shifts; `filled` counts the slots in use.
  const closes = new Array<number>(historyLength).fill(0);
  const volumeLots = new Array<number>(historyLength).fill(0);
  let head = 0;
  let filled = 0;
  let volumeSum = 0;
  const push = (close: number, lots: number) => {
    if (filled === historyLength) volumeSum -= volumeLots[head] ?? 0;
    else filled += 1;
    closes[head] = close;
    volumeLots[head] = lots;
    volumeSum += lots;
    head = (head + 1) % historyLength;
  };
  const window = <T>(ring: T[]): T[] => {
    const out = new Array<T>(filled);
    const start = (head - filled + historyLength) % historyLength;
    for (let i = 0; i < filled; i++) out[i] = ring[(start + i) % historyLength] as T;
    return out;
  };
  if (state) for (let i = 0; i < state.closes.length; i++) push(state.closes[i] ?? 0, state.volumeLots[i] ?? 0);

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
    push(fromSteps(lastTicks, tickSize), lots);
    book = buildBook({ lastTicks, tickSize, lotSize, regime: params, shape: options.book, ...profile }, rng);
    if (funding !== null) {
      const fundingStep = {
        minutes: stepMinutes,
        halfLifeHours: options.fundingHalfLifeHours,
        trend: market.trend,
        trendStrength: options.trendStrength,
        vol: market.vol,
        ret,
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
      closes: window(closes),
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
      closes: window(closes),
      volumeLots: window(volumeLots),
      funding: funding === null ? null : { ...funding },
    }),
  };
}
