/**
 * Builds the synthetic order book around the last price: the symbol's typical spread (its profile,
 * src/adapters/market-data/market-profiles.ts) widened by volatility, then `levels` price levels a side, further apart and thinner when volatile, with quantities that
 * decay away from the touch and carry noise so that walking the book is never a straight line.
 */
import type { BookLevel } from '../../domain/market.js';
import { floorSteps, fromSteps, nearestSteps } from '../../domain/steps.js';
import type { Rng } from './prng.js';
import type { VolParams } from './regimes.js';

export interface BookShape {
  /** Number of levels per side. */
  levels: number;
  /** Each level holds this fraction of the previous one, before noise. */
  decay: number;
  /** Typical gap between levels in basis points of price (at least one tick). */
  levelGapBps: number;
}

export const DEFAULT_BOOK_SHAPE: BookShape = { levels: 10, decay: 0.85, levelGapBps: 0.5 };

export interface Book {
  bid: number;
  ask: number;
  bids: BookLevel[];
  asks: BookLevel[];
}

export interface BookInput {
  /** The last price as whole ticks. */
  lastTicks: number;
  tickSize: number;
  lotSize: number;
  regime: VolParams;
  shape: BookShape;
  /** The symbol's typical spread in a normal regime, in basis points. */
  spreadBps: number;
  /** The symbol's quote notional at the best level in a normal regime. */
  topNotional: number;
}

export function buildBook(input: BookInput, rng: Rng): Book {
  const { lastTicks, tickSize, regime, shape } = input;
  const price = lastTicks * tickSize;
  // 0.6 + 0.5·|z| averages 1, so the typical spread is the profile's; it never drops below a tick.
  const spreadBps = input.spreadBps * regime.spreadFactor * (0.6 + 0.5 * Math.abs(rng.normal()));
  const spreadTicks = Math.max(1, nearestSteps((price * spreadBps) / 1e4, tickSize));
  // The last trade sits inside the spread, so bid ≤ last ≤ ask always holds.
  const bidTicks = Math.max(1, lastTicks - Math.floor(spreadTicks / 2));
  const askTicks = bidTicks + spreadTicks;
  const gapTicks = Math.max(1, nearestSteps((price * shape.levelGapBps * regime.levelGapFactor) / 1e4, tickSize));
  return {
    bid: fromSteps(bidTicks, tickSize),
    ask: fromSteps(askTicks, tickSize),
    bids: side(bidTicks, -1, gapTicks, input, rng),
    asks: side(askTicks, 1, gapTicks, input, rng),
  };
}

function side(bestTicks: number, direction: 1 | -1, gapTicks: number, input: BookInput, rng: Rng): BookLevel[] {
  const { tickSize, lotSize, regime, shape } = input;
  const levels: BookLevel[] = [];
  let ticks = bestTicks;
  let notional = input.topNotional * regime.depthFactor;
  for (let i = 0; i < shape.levels && ticks >= 1; i++) {
    const price = ticks * tickSize;
    // Lognormal noise with mean ≈ 1 so the expected depth matches the shape.
    const noisy = notional * Math.exp(0.35 * rng.normal() - 0.06);
    const lots = Math.max(1, floorSteps(noisy / price, lotSize));
    levels.push({ price: fromSteps(ticks, tickSize), qty: fromSteps(lots, lotSize) });
    notional *= shape.decay;
    // Gaps of one to three base gaps: a book with holes, not a comb.
    ticks += direction * gapTicks * (1 + Math.floor(rng.next() * 3));
  }
  return levels;
}
