/**
 * The order book a candle implies. History gives only OHLCV, so the book is derived, the same way
 * every time (no randomness: a replay is repeatable), from three things the candle does say:
 *
 *  * spread  = by SPREAD_MODEL (`spread` below): `derived` (the default) max(1 tick, spreadOfRange
 *              × (high − low)); `fixed_bps` max(1 tick, bps × close / 10 000); `none` 0, bid =
 *              ask = close. On the tick grid; the close sits inside it (bid = close − ⌊spread/2⌋,
 *              ask = bid + spread), so bid ≤ last ≤ ask.
 *  * level gap = max(1 tick, gapOfRange × (high − low)), on the tick grid: a calm candle gives a
 *              tight book, a wild one a wide book.
 *  * depth   = the touch holds touchShareOfMinuteVolume of the candle's quote volume per minute
 *              (volume × close × 60 000 / timeframe ms, so the book does not grow with the
 *              timeframe); each level further holds `decay` of the one before; quantities are
 *              floored to the lot grid, at least one lot.
 *
 * Documented with numbers in docs/strategies/data-format.md.
 */
import type { BookLevel, Instrument, SpreadModel } from '../../../domain/market.js';
import { floorSteps, fromSteps, nearestSteps } from '../../../domain/steps.js';

export interface DerivedBookShape {
  levels: number;
  spread: SpreadModel;
  spreadOfRange: number;
  gapOfRange: number;
  touchShareOfMinuteVolume: number;
  decay: number;
}

export const DERIVED_BOOK_SHAPE: DerivedBookShape = {
  levels: 10,
  spread: { model: 'derived' },
  spreadOfRange: 0.01,
  gapOfRange: 0.05,
  touchShareOfMinuteVolume: 0.02,
  decay: 0.85,
};

export interface CandleBookInput {
  high: number;
  low: number;
  close: number;
  /** Base units over the candle. */
  volume: number;
  stepMs: number;
}

export interface DerivedBook {
  bid: number;
  ask: number;
  bids: BookLevel[];
  asks: BookLevel[];
}

export function deriveBook(candle: CandleBookInput, instrument: Instrument, shape: DerivedBookShape): DerivedBook {
  const { tickSize } = instrument;
  const range = candle.high - candle.low;
  const lastTicks = Math.max(1, nearestSteps(candle.close, tickSize));
  const spreadTicks = spreadInTicks(candle, range, tickSize, shape);
  const gapTicks = Math.max(1, nearestSteps(range * shape.gapOfRange, tickSize));
  const bidTicks = Math.max(1, lastTicks - Math.floor(spreadTicks / 2));
  const askTicks = bidTicks + spreadTicks;
  const touchNotional = shape.touchShareOfMinuteVolume * candle.volume * candle.close * (60_000 / candle.stepMs);
  return {
    bid: fromSteps(bidTicks, tickSize),
    ask: fromSteps(askTicks, tickSize),
    bids: side(bidTicks, -1, gapTicks, touchNotional, instrument, shape),
    asks: side(askTicks, 1, gapTicks, touchNotional, instrument, shape),
  };
}

function spreadInTicks(candle: CandleBookInput, range: number, tickSize: number, shape: DerivedBookShape): number {
  switch (shape.spread.model) {
    case 'none':
      return 0;
    case 'fixed_bps':
      return Math.max(1, nearestSteps((candle.close * shape.spread.bps) / 10_000, tickSize));
    case 'derived':
      return Math.max(1, nearestSteps(range * shape.spreadOfRange, tickSize));
  }
}

function side(
  bestTicks: number,
  direction: 1 | -1,
  gapTicks: number,
  touchNotional: number,
  instrument: Instrument,
  shape: DerivedBookShape,
): BookLevel[] {
  const { tickSize, lotSize } = instrument;
  const levels: BookLevel[] = [];
  let notional = touchNotional;
  for (let i = 0, ticks = bestTicks; i < shape.levels && ticks >= 1; i++, ticks += direction * gapTicks) {
    const price = fromSteps(ticks, tickSize);
    const lots = Math.max(1, floorSteps(notional / price, lotSize));
    levels.push({ price, qty: fromSteps(lots, lotSize) });
    notional *= shape.decay;
  }
  return levels;
}
