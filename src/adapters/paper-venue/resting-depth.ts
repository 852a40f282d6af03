/**
 * What the resting limit orders of one symbol and side can fill against in one market update,
 * shared by them in price-time priority (execution.ts matchResting) and used up as they fill.
 *
 * A live or synthetic market: the book's levels at or through each order's limit (a BUY against the
 * asks at or below it, a SELL against the bids at or above), crossing when the best quote reaches it.
 *
 * A replayed bar (a snapshot with `execution`, market-data/file/bar-execution.ts): a candle says
 * where trading went, not how the book looked, so an order fills when the bar's range crosses its
 * limit — *through* (a BUY's limit above the low, a SELL's below the high) fills; a *touch* (the low
 * or high exactly at the limit) fills `touchShare` of it, none by default, since the queue ahead at
 * the bar's extreme may have taken all that traded there — and all the orders together take at most
 * `volumeShare` of the bar's volume (config.ts BarFillRules). freqtrade and NautilusTrader's default
 * fill model fill on a touch; FILL_TOUCH_SHARE=1 does the same.
 */
import type { MarketSnapshot } from '../../domain/market.js';
import type { Side } from '../../domain/orders.js';
import type { BarFillRules } from './config.js';
import { crosses } from './fill-pricing.js';

export interface Depth {
  /** Whether the market reached the limit at all (a resting reduce-only order is re-checked then). */
  crossed(limit: number): boolean;
  /** Quantity left for an order resting at `limit`. */
  available(limit: number): number;
  /** Takes `qty` (the best levels first, for a book). */
  consume(qty: number): void;
}

export function restingDepth(snapshot: MarketSnapshot, side: Side, rules: BarFillRules): Depth {
  return snapshot.execution === undefined ? bookDepth(snapshot, side) : barDepth(snapshot.execution, side, rules);
}

function bookDepth(snapshot: MarketSnapshot, side: Side): Depth {
  // A resting BUY fills against the offers (asks) at or below its limit, a SELL against bids at or above.
  const levels = (side === 'BUY' ? snapshot.asks : snapshot.bids)
    .filter((l) => l.qty > 0 && l.price > 0 && Number.isFinite(l.qty))
    .map((l) => ({ price: l.price, qty: l.qty }));
  const within = (price: number, limit: number): boolean => (side === 'BUY' ? price <= limit : price >= limit);
  return {
    crossed: (limit) => crosses(side, limit, snapshot),
    available(limit) {
      let total = 0;
      for (const level of levels) if (within(level.price, limit)) total += level.qty;
      return total;
    },
    consume(qty) {
      let left = qty;
      for (const level of levels) {
        const take = Math.min(left, level.qty);
        level.qty -= take;
        left -= take;
        if (left <= 0) break;
      }
    },
  };
}

function barDepth(bar: NonNullable<MarketSnapshot['execution']>, side: Side, rules: BarFillRules): Depth {
  let left = rules.volumeShare * bar.volume;
  const extreme = side === 'BUY' ? bar.low : bar.high;
  // Prices from a file are decimals read as doubles, limits are on the tick grid: equal within a hair is a touch.
  const reach = (limit: number): 'through' | 'touch' | 'none' => {
    const beyond = side === 'BUY' ? limit - extreme : extreme - limit;
    const hair = Math.abs(limit) * 1e-12;
    return beyond > hair ? 'through' : beyond >= -hair ? 'touch' : 'none';
  };
  const shareOf = (limit: number): number => {
    const how = reach(limit);
    return how === 'through' ? 1 : how === 'touch' ? rules.touchShare : 0;
  };
  return {
    crossed: (limit) => shareOf(limit) > 0,
    available: (limit) => Math.max(0, left * shareOf(limit)),
    consume(qty) {
      left -= qty;
    },
  };
}
