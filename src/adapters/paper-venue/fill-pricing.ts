/**
 * Fill pricing against a market snapshot. A taker starts at the best quote on its side (half the
 * spread away from mid) and walks the book level by level, paying the volume-weighted price of
 * the levels it consumes; that walk is the size impact. Market orders larger than the visible
 * depth fill the remainder beyond the last level at a penalty (ImpactModel). Marketable limit
 * orders only take levels at or better than their limit. Resting limits fill at their own price.
 * A taker's average price is rounded onto the tick grid against the taker (up for BUY, down for
 * SELL): a fill then reads as a price the venue could quote, and the rounding, under one tick,
 * never flatters the strategy. A marketable limit's rounded average still respects its limit,
 * because every level it took did and the limit is on the grid.
 */
import type { BookLevel, MarketSnapshot, Quotes } from '../../domain/market.js';
import type { Side } from '../../domain/orders.js';
import { walkBook } from '../../domain/risk/expected-fill.js';
import { ceilToStep, floorToStep } from '../../domain/steps.js';
import type { ImpactModel } from './config.js';

export interface TakerFill {
  qty: number;
  /** Volume-weighted average price over everything taken, rounded to the tick against the taker. */
  price: number;
  /** Quantity that found no visible level and was priced with the overflow penalty. */
  overflowQty: number;
}

/** The levels a taker on `side` consumes, best first; the best quote alone when the book is empty. */
function takingLevels(snapshot: Quotes, side: Side): BookLevel[] {
  const levels = (side === 'BUY' ? snapshot.asks : snapshot.bids).filter(
    (l) => l.qty > 0 && l.price > 0 && Number.isFinite(l.qty),
  );
  if (levels.length > 0) return levels;
  return [{ price: side === 'BUY' ? snapshot.ask : snapshot.bid, qty: 0 }];
}

/**
 * Prices a market order of `qty` in full. Beyond the visible depth D the remainder R fills at
 * P_last × (1 ± overflowPenalty × (1 + R / D)) (+ for BUY, − for SELL), rounded to the tick
 * against the taker; with no visible depth at all the ratio counts as 1.
 */
export function priceMarketOrder(
  snapshot: Quotes,
  side: Side,
  qty: number,
  impact: ImpactModel,
  tickSize: number,
): TakerFill {
  const levels = takingLevels(snapshot, side);
  // The same walk the risk engine expects fills at (src/domain/risk/expected-fill.ts).
  const walk = walkBook(levels, qty);
  const remaining = qty - walk.taken;
  const visible = walk.visible;
  let cost = walk.cost;
  // Float residue from subtraction is not overflow.
  const overflowQty = remaining > qty * 1e-12 ? remaining : 0;
  if (overflowQty > 0) {
    const lastPrice = levels[levels.length - 1]?.price ?? (side === 'BUY' ? snapshot.ask : snapshot.bid);
    const penalty = impact.overflowPenalty * (1 + (visible > 0 ? overflowQty / visible : 1));
    const price =
      side === 'BUY'
        ? ceilToStep(lastPrice * (1 + penalty), tickSize)
        : Math.max(tickSize, floorToStep(lastPrice * (1 - penalty), tickSize));
    cost += overflowQty * price;
  }
  return { qty, price: againstTaker(side, cost / qty, tickSize), overflowQty };
}

/**
 * The part of a limit order that is marketable now: levels at or better than `limitPrice`, each
 * taken in whole lots, up to `qty`. Returns null when nothing is marketable.
 */
export function priceMarketableLimit(
  snapshot: Quotes,
  side: Side,
  qty: number,
  limitPrice: number,
  lotSize: number,
  tickSize: number,
): TakerFill | null {
  let remaining = qty;
  let taken = 0;
  let cost = 0;
  for (const level of takingLevels(snapshot, side)) {
    if (side === 'BUY' ? level.price > limitPrice : level.price < limitPrice) break;
    const take = floorToStep(Math.min(remaining, level.qty), lotSize);
    taken += take;
    cost += take * level.price;
    remaining = floorToStep(remaining - take, lotSize);
    if (remaining <= 0) break;
  }
  if (taken <= 0) return null;
  return { qty: floorToStep(taken, lotSize), price: againstTaker(side, cost / taken, tickSize), overflowQty: 0 };
}

/** `price` on the tick grid, rounded the way that costs the taker: up for BUY, down for SELL. */
function againstTaker(side: Side, price: number, tickSize: number): number {
  return side === 'BUY' ? ceilToStep(price, tickSize) : floorToStep(price, tickSize);
}

/** Whether the market trades through a resting limit: BUY when ask ≤ limit, SELL when bid ≥ limit. */
export function crosses(side: Side, limitPrice: number, snapshot: Quotes): boolean {
  return side === 'BUY' ? snapshot.ask <= limitPrice : snapshot.bid >= limitPrice;
}

/**
 * The book an order arriving now takes from: a replay's taker book (the next bar's open under
 * FILL_MODEL=next_open, see market-data/file/bar-execution.ts), else the snapshot's own. Null when a
 * replay has no next bar to fill in.
 */
export function takerQuotes(snapshot: MarketSnapshot): Quotes | null {
  return snapshot.execution === undefined ? snapshot : snapshot.execution.taker();
}
