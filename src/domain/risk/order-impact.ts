/**
 * What an order would do to the account, computed once and shared by the four guards so they all
 * judge the same numbers. The account is the projection of ./projection.ts: positions plus every
 * resting order and every order approved earlier in this cycle, and each figure is the worst case —
 * all orders on the order's side filling (for the other symbols' gross and margin, the larger of their
 * two sides, since those orders can fill whichever way this one goes).
 *
 * Pricing: the order's own notional uses its expected fill price (./expected-fill.ts: a market
 * order walks the visible book past what this cycle's earlier orders on its side took; a limit order
 * at its limit); the order's symbol is valued as the venue marks it (../market.ts valuationPrice: mid,
 * else last), every other symbol at this cycle's mark when `marks` has it, else its position's mark (or, with no position, the
 * price of its orders).
 *
 * NAV: the ratios before the order divide by the NAV once this cycle's earlier orders have paid
 * their expected costs (`navBefore`), those after it by that less the order's own fee and cost of
 * crossing the spread (`navAfter`), so an order that lands exactly on a limit at the NAV before it
 * does not end above it once it has paid to fill. Drawdown keeps the account's NAV.
 *
 * Reduce-only: an order flagged reduceOnly whose side is opposite to the current position can only
 * shrink it (venues enforce reduce-only by capping the fill at the position), so its effective
 * quantity is min(qty, |position|) and `reducesPosition` is true; the drawdown, leverage and exposure
 * guards then always pass it. A reduceOnly flag on an order that could not reduce anything (no
 * position, or the same side) earns no exemption and is evaluated at its full quantity.
 */
import type { InstrumentKind, MarketSnapshot, MarkPrice } from '../market.js';
import { valuationPrice } from '../market.js';
import { DEFAULT_MARGIN_TABLE, marginRatesFor } from '../margin.js';
import type { MarginTable } from '../margin.js';
import type { OrderRequest } from '../orders.js';
import { sideSign } from '../orders.js';
import type { AccountSnapshot } from '../portfolio.js';
import { expectedFill, takenThisCycle } from './expected-fill.js';
import { projectAccount, worstAbsPosition, worstPosition } from './projection.js';
import type { PendingOrder, SymbolBook } from './projection.js';

export interface OrderImpact {
  order: OrderRequest;
  market: MarketSnapshot;
  nav: number;
  peakNav: number;
  /** Expected fill price of the order (./expected-fill.ts). */
  price: number;
  /** Price the order's symbol is valued at: as the venue marks it (valuationPrice: mid, else last). */
  markPrice: number;
  /** Quantity the order can actually trade (capped at the position for a reducing reduce-only order). */
  qty: number;
  /** qty × price. */
  notional: number;
  /** NAV less the expected costs of this cycle's earlier orders, and less this order's too. */
  navBefore: number;
  navAfter: number;
  /** This order's expected fee, and fee plus the cost of crossing to its fill price from the mark. */
  fee: number;
  cost: number;
  /** Quantity this cycle's earlier orders take on the order's side of its symbol, and their notional. */
  takenQty: number;
  takenNotional: number;
  /** Signed position held now in the order's symbol, and after this order alone fills. */
  positionBefore: number;
  positionAfter: number;
  /** Worst-case |position| × markPrice in the order's symbol (resting and pending orders filling). */
  symbolNotionalBefore: number;
  symbolNotionalAfter: number;
  /**
   * The other symbol with the largest worst-case |notional| (both sides' orders considered), or null:
   * the order does not change its quantity, but its costs lower the NAV its ratio divides by.
   */
  largestOther: { symbol: string; notional: number } | null;
  /** Worst-case Σ |notional| over all symbols before and after (what leverage measures). */
  grossBefore: number;
  grossAfter: number;
  /**
   * Σ signed notional (long +, short −) with every order on the order's side filling, before and
   * after, so offsetting longs and shorts cancel; its absolute value is the net directional exposure.
   */
  netBefore: number;
  netAfter: number;
  /** Initial margin the worst-case perpetual positions tie up, before and after. */
  marginBefore: number;
  marginAfter: number;
  /** Resting orders at the venue and orders approved earlier this cycle that were counted. */
  restingCounted: number;
  pendingCounted: number;
  /** A reduce-only order that shrinks (never flips or grows) the position. */
  reducesPosition: boolean;
}

export type ImpactResult = { ok: true; impact: OrderImpact } | { ok: false; message: string };

/** What the projection needs beyond the account: this cycle's earlier approvals and margin rates. */
export interface ImpactOptions {
  pending?: readonly PendingOrder[];
  /** Instrument kinds by symbol: spot needs no margin. A symbol not listed counts as a perpetual. */
  kinds?: ReadonlyMap<string, InstrumentKind>;
  marginTable?: MarginTable;
  /** This cycle's mark per symbol (valuationPrice): every symbol is valued at it (see projection.ts). */
  marks?: ReadonlyMap<string, number>;
  /** Fee rate the order is expected to pay (the venue's taker rate); default 0. */
  feeRate?: number;
  /** The symbol's tick: the expected average is rounded against the taker as the venue rounds it. */
  tickSize?: number;
  /** SLIPPAGE_BPS: a market order is expected that far beyond its walked price, as the venue fills it. */
  slippageBps?: number;
  /** MARK_PRICE: the order's symbol is valued as the venue marks it (the mid by default, or the last price). */
  markPrice?: MarkPrice;
}

export function computeImpact(
  order: OrderRequest,
  account: AccountSnapshot,
  market: MarketSnapshot,
  options: ImpactOptions = {},
): ImpactResult {
  if (order.symbol !== market.symbol)
    return invalid(`order is for ${order.symbol} but the market snapshot is for ${market.symbol}`);
  if (!(Number.isFinite(order.qty) && order.qty > 0)) return invalid(`qty must be positive, got ${order.qty}`);
  if (!Number.isFinite(account.nav) || !Number.isFinite(account.peakNav))
    return invalid('account NAV is not a finite number');
  if (!(Number.isFinite(market.last) && market.last > 0))
    return invalid(`market last price must be positive, got ${market.last}`);
  const reference = executionPrice(order, market);
  if (typeof reference === 'string') return invalid(reference);

  const projection = projectAccount(account, options.pending ?? [], options.marks);
  const markPrice = valuationPrice(market, options.markPrice);
  const book: SymbolBook = projection.books.get(order.symbol) ?? {
    symbol: order.symbol,
    kind: null,
    position: 0,
    mark: markPrice,
    open: { BUY: 0, SELL: 0 },
    reduceOnly: { BUY: 0, SELL: 0 },
    orders: 0,
  };
  const table = options.marginTable ?? DEFAULT_MARGIN_TABLE;
  const marginRate = (b: SymbolBook): number => {
    const kind = options.kinds?.get(b.symbol) ?? b.kind ?? 'perp';
    return kind === 'spot' ? 0 : marginRatesFor(table, b).initial;
  };
  let othersGross = 0;
  let othersNet = 0;
  let othersMargin = 0;
  let largestOther: OrderImpact['largestOther'] = null;
  for (const other of projection.books.values()) {
    if (other.symbol === order.symbol) continue;
    const worst = worstAbsPosition(other) * other.mark;
    if (worst > 0 && (largestOther === null || worst > largestOther.notional))
      largestOther = { symbol: other.symbol, notional: worst };
    othersGross += worst;
    othersMargin += worst * marginRate(other);
    othersNet += worstPosition(other, order.side) * other.mark;
  }
  const positionBefore = book.position;
  if (![positionBefore, othersGross, othersNet, othersMargin].every(Number.isFinite))
    return invalid('account positions or orders contain non-finite figures');

  const sign = sideSign(order.side);
  const reducesPosition = order.reduceOnly && positionBefore !== 0 && Math.sign(positionBefore) === -sign;
  const qty = reducesPosition ? Math.min(order.qty, Math.abs(positionBefore)) : order.qty;
  // A reducing order joins the reduce-only orders on its side (capped at flat), any other the open ones.
  const after: SymbolBook = reducesPosition
    ? { ...book, reduceOnly: { ...book.reduceOnly, [order.side]: book.reduceOnly[order.side] + qty } }
    : { ...book, open: { ...book.open, [order.side]: book.open[order.side] + qty } };
  // The order's own symbol: its side's worst case (the other side's orders were judged when placed).
  const symbolNotionalBefore = Math.abs(worstPosition(book, order.side)) * markPrice;
  const symbolNotionalAfter = Math.abs(worstPosition(after, order.side)) * markPrice;
  const rate = marginRate(book);
  const taken = takenThisCycle(options.pending ?? [], order.symbol, order.side);
  const fill = expectedFill(order, qty, market, reference, {
    taken: taken.qty,
    ...(options.feeRate !== undefined ? { feeRate: options.feeRate } : {}),
    ...(options.tickSize !== undefined ? { tickSize: options.tickSize } : {}),
    ...(options.slippageBps !== undefined ? { slippageBps: options.slippageBps } : {}),
    ...(options.markPrice !== undefined ? { markPrice: options.markPrice } : {}),
  });
  const price = fill.price;
  const navBefore = account.nav - projection.pendingCost;
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
      navBefore,
      navAfter: navBefore - fill.cost,
      fee: fill.fee,
      cost: fill.cost,
      takenQty: taken.qty,
      takenNotional: taken.notional,
      positionBefore,
      positionAfter: positionBefore + sign * qty,
      symbolNotionalBefore,
      symbolNotionalAfter,
      largestOther,
      grossBefore: othersGross + symbolNotionalBefore,
      grossAfter: othersGross + symbolNotionalAfter,
      netBefore: othersNet + worstPosition(book, order.side) * markPrice,
      netAfter: othersNet + worstPosition(after, order.side) * markPrice,
      marginBefore: othersMargin + symbolNotionalBefore * rate,
      marginAfter: othersMargin + symbolNotionalAfter * rate,
      restingCounted: projection.resting,
      pendingCounted: projection.pending,
      reducesPosition,
    },
  };
}

/** The order's execution reference price, or why there is none. */
export function executionPrice(order: OrderRequest, market: MarketSnapshot): number | string {
  if (order.type === 'limit') {
    if (order.limitPrice === null || !(Number.isFinite(order.limitPrice) && order.limitPrice > 0))
      return `a limit order needs a positive limitPrice, got ${order.limitPrice}`;
    return order.limitPrice;
  }
  const price = order.side === 'BUY' ? market.ask : market.bid;
  if (!(Number.isFinite(price) && price > 0))
    return `no usable ${order.side === 'BUY' ? 'ask' : 'bid'} price (${price}) for a market order`;
  return price;
}

function invalid(message: string): ImpactResult {
  return { ok: false, message };
}
