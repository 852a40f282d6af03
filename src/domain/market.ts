/**
 * Market vocabulary: instruments and the per-symbol snapshot every strategy, guard and the paper
 * venue read. Prices in quote currency (USDT), quantities in base units.
 */
import { floorToStep } from './steps.js';

export type InstrumentKind = 'perp' | 'spot';

export interface Instrument {
  symbol: string;
  kind: InstrumentKind;
  /** Quantities are whole multiples of this. */
  lotSize: number;
  /** Prices are whole multiples of this. */
  tickSize: number;
  /** Smallest order notional (qty × price) the venue accepts. */
  minNotional: number;
}

export interface BookLevel {
  price: number;
  qty: number;
}

export interface MarketSnapshot {
  symbol: string;
  /** Epoch ms of the snapshot. */
  ts: number;
  /** Last traded price. */
  last: number;
  bid: number;
  ask: number;
  /** Best first (highest bid first). */
  bids: BookLevel[];
  /** Best first (lowest ask first). */
  asks: BookLevel[];
  /** Recent closes, oldest first (one per cycle); the last one equals `last`. */
  closes: number[];
  /** Base-unit volume traded over the recent window (the same window as `closes`). */
  volume: number;
  /** Current perpetual funding rate per funding interval (e.g. 0.0001 = 0.01 %); null for spot. */
  fundingRate: number | null;
  /** Epoch ms of the next funding payment; null for spot. */
  nextFundingTs: number | null;
}

/** All symbols' snapshots for one cycle. */
export type MarketView = ReadonlyMap<string, MarketSnapshot>;

/**
 * Rounds a quantity down to the lot size (never more than asked for). Kept as the named entry the
 * sizing and deleveraging code call; the rounding itself lives in steps.ts with everything else.
 */
export function floorToLot(qty: number, lotSize: number): number {
  if (!(lotSize > 0)) throw new RangeError('lotSize must be positive');
  return floorToStep(qty, lotSize);
}
