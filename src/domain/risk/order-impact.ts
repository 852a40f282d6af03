/**
 * What an order would do to the account, computed once and shared by the four guards so they all
 * judge the same numbers. Pricing: the order's own notional uses its execution reference (limit
 * price, else the ask for a BUY and the bid for a SELL); positions are valued at the current market
 * (`last`) for the order's symbol and at their own mark for every other symbol.
 *
 * Reduce-only: an order flagged reduceOnly whose side is opposite to the current position can only
 * shrink it (venues enforce reduce-only by capping the fill at the position), so its effective
 * quantity is min(qty, |position|) and `reducesPosition` is true; the drawdown, leverage and exposure
 * guards then always pass it. A reduceOnly flag on an order that could not reduce anything (no
 * position, or the same side) earns no exemption and is evaluated at its full quantity.
 */
import type { MarketSnapshot } from '../market.js';
import type { OrderRequest } from '../orders.js';
import { sideSign } from '../orders.js';
import type { AccountSnapshot } from '../portfolio.js';
import { positionNotional } from '../portfolio.js';

export interface OrderImpact {
  order: OrderRequest;
  market: MarketSnapshot;
  nav: number;
  peakNav: number;
  /** Execution reference price of the order. */
  price: number;
  /** Price the order's symbol is valued at (market.last). */
  markPrice: number;
  /** Quantity the order can actually trade (capped at the position for a reducing reduce-only order). */
  qty: number;
  /** qty × price. */
  notional: number;
  /** Signed position in the order's symbol before and after. */
  positionBefore: number;
  positionAfter: number;
  /** |position| × markPrice before and after. */
  symbolNotionalBefore: number;
  symbolNotionalAfter: number;
  /** Σ |notional| of all positions before and after (what leverage measures). */
  grossBefore: number;
  grossAfter: number;
  /**
   * Σ signed notional (qty × mark: long +, short −) of all positions before and after, so offsetting
   * longs and shorts cancel; its absolute value is the net directional exposure.
   */
  netBefore: number;
  netAfter: number;
  /** A reduce-only order that shrinks (never flips or grows) the position. */
  reducesPosition: boolean;
}

export type ImpactResult = { ok: true; impact: OrderImpact } | { ok: false; message: string };

export function computeImpact(order: OrderRequest, account: AccountSnapshot, market: MarketSnapshot): ImpactResult {
  if (order.symbol !== market.symbol)
    return invalid(`order is for ${order.symbol} but the market snapshot is for ${market.symbol}`);
  if (!(Number.isFinite(order.qty) && order.qty > 0)) return invalid(`qty must be positive, got ${order.qty}`);
  if (!Number.isFinite(account.nav) || !Number.isFinite(account.peakNav))
    return invalid('account NAV is not a finite number');
  if (!(Number.isFinite(market.last) && market.last > 0))
    return invalid(`market last price must be positive, got ${market.last}`);
  let price: number;
  if (order.type === 'limit') {
    if (order.limitPrice === null || !(Number.isFinite(order.limitPrice) && order.limitPrice > 0)) {
      return invalid(`a limit order needs a positive limitPrice, got ${order.limitPrice}`);
    }
    price = order.limitPrice;
  } else {
    price = order.side === 'BUY' ? market.ask : market.bid;
    if (!(Number.isFinite(price) && price > 0))
      return invalid(`no usable ${order.side === 'BUY' ? 'ask' : 'bid'} price (${price}) for a market order`);
  }

  let positionBefore = 0;
  let othersGross = 0;
  let othersNet = 0;
  for (const p of account.positions) {
    if (p.symbol === order.symbol) {
      positionBefore += p.qty;
    } else {
      othersGross += positionNotional(p);
      othersNet += p.qty * p.markPrice;
    }
  }
  if (!Number.isFinite(positionBefore) || !Number.isFinite(othersGross) || !Number.isFinite(othersNet))
    return invalid('account positions contain non-finite figures');

  const sign = sideSign(order.side);
  const reducesPosition = order.reduceOnly && positionBefore !== 0 && Math.sign(positionBefore) === -sign;
  const qty = reducesPosition ? Math.min(order.qty, Math.abs(positionBefore)) : order.qty;
  const positionAfter = positionBefore + sign * qty;
  const markPrice = market.last;
  const symbolNotionalBefore = Math.abs(positionBefore) * markPrice;
  const symbolNotionalAfter = Math.abs(positionAfter) * markPrice;
  return {
    ok: true,
    impact: {
      order,
      market,
      nav: account.nav,
      peakNav: account.peakNav,
      price,
      markPrice,
      qty,
      notional: qty * price,
      positionBefore,
      positionAfter,
      symbolNotionalBefore,
      symbolNotionalAfter,
      grossBefore: othersGross + symbolNotionalBefore,
      grossAfter: othersGross + symbolNotionalAfter,
      netBefore: othersNet + positionBefore * markPrice,
      netAfter: othersNet + positionAfter * markPrice,
      reducesPosition,
    },
  };
}

function invalid(message: string): ImpactResult {
  return { ok: false, message };
}
