/**
 * What an order is expected to cost when it fills, so the guards (and the allocator, which sizes to
 * fit them) judge the account after the order, not before it:
 *
 *   expected fill price  a market order walks the visible book on the side it takes, starting
 *                        after the depth earlier orders of the same cycle, symbol and side took
 *                        (the paper venue's walk, ../../adapters/paper-venue/fill-pricing.ts, uses
 *                        the same `walkBook`), rounded one tick against the taker as the venue
 *                        rounds, then moved SLIPPAGE_BPS against it (`slipped`, which the venue
 *                        uses too); a limit order at its limit price, the worst it can fill at
 *                        (slippage never takes a limit past it).
 *   cost                 fee (rate × qty × fill price) plus the cost of crossing the spread, qty ×
 *                        (fill price − mark) for a BUY and (mark − fill price) for a SELL, since the
 *                        position is valued at the venue's mark (../market.ts valuationPrice: mid,
 *                        else last) once it fills. A fill better than the mark is not counted as a
 *                        gain (a resting order fills when the market has come to it).
 *
 * Quantity beyond the visible levels is priced at the last visible level: the venue charges more
 * (its overflow penalty), but no order that adds risk gets there — the cycle's depth share is at most
 * the whole visible book — and reduce-only closes are exempt from the ratios this feeds.
 */
import type { BookLevel, MarketSnapshot, MarkPrice } from '../market.js';
import { valuationPrice } from '../market.js';
import type { OrderRequest, Side } from '../orders.js';
import { ceilToStep, floorToStep } from '../steps.js';

/** The levels a taker on `side` consumes, best first; levels with nonsensical figures are skipped. */
export function takingLevels(snapshot: MarketSnapshot, side: Side): BookLevel[] {
  return (side === 'BUY' ? snapshot.asks : snapshot.bids).filter(
    (l) => Number.isFinite(l.qty) && l.qty > 0 && Number.isFinite(l.price) && l.price > 0,
  );
}

export interface BookWalk {
  /** Σ qty × price over the visible levels taken. */
  cost: number;
  /** Quantity the visible levels held (≤ qty). */
  taken: number;
  /** The last level's price that was reached, or null when nothing was visible. */
  lastPrice: number | null;
  /** Total quantity the levels hold. */
  visible: number;
}

/** Takes `qty` from `levels` (best first) after skipping the first `skip` units already taken. */
export function walkBook(levels: readonly BookLevel[], qty: number, skip = 0): BookWalk {
  let toSkip = Math.max(0, skip);
  let remaining = qty;
  let cost = 0;
  let taken = 0;
  let visible = 0;
  let lastPrice: number | null = null;
  for (const level of levels) {
    visible += level.qty;
    const free = level.qty - Math.min(toSkip, level.qty);
    toSkip -= level.qty - free;
    if (remaining <= 0 || free <= 0) continue;
    const take = Math.min(remaining, free);
    cost += take * level.price;
    taken += take;
    remaining -= take;
    lastPrice = level.price;
  }
  return { cost, taken, lastPrice, visible };
}

export interface ExpectedFill {
  /** Average price the order is expected to fill at. */
  price: number;
  /** Fee plus the cost of crossing to that price from last (never negative). */
  cost: number;
  fee: number;
}

/**
 * The expected fill of `qty` of `order` given `taken` units already taken on its side this cycle.
 * `reference` is the order's price when the book is empty (the best quote, or the limit).
 */
export function expectedFill(
  order: Pick<OrderRequest, 'side' | 'type' | 'limitPrice'>,
  qty: number,
  market: MarketSnapshot,
  reference: number,
  options: { taken?: number; feeRate?: number; tickSize?: number; slippageBps?: number; markPrice?: MarkPrice } = {},
): ExpectedFill {
  let price = reference;
  if (order.type === 'market' && qty > 0) {
    const walk = walkBook(takingLevels(market, order.side), qty, options.taken ?? 0);
    const beyond = qty - walk.taken;
    const edge = walk.lastPrice ?? lastLevelPrice(market, order.side) ?? reference;
    const average = (walk.cost + beyond * edge) / qty;
    price = slipped(
      order.side,
      againstTaker(order.side, average, options.tickSize),
      options.slippageBps ?? 0,
      options.tickSize,
    );
  }
  const feeRate = Math.max(0, options.feeRate ?? 0);
  const fee = qty * price * feeRate;
  const mark = valuationPrice(market, options.markPrice);
  const crossing = Math.max(0, (order.side === 'BUY' ? price - mark : mark - price) * qty);
  return { price, cost: fee + crossing, fee };
}

function lastLevelPrice(market: MarketSnapshot, side: Side): number | null {
  const levels = takingLevels(market, side);
  return levels.length > 0 ? levels[levels.length - 1]!.price : null;
}

/**
 * A taker's walked `price` moved `bps` basis points against it (SLIPPAGE_BPS: a BUY higher, a SELL
 * lower, never below one tick), on the tick grid against the taker, and never past `limit` when the
 * order has one. 0 bps returns the price untouched, so a run without slippage is the run it was.
 * The paper venue fills with it and the risk engine expects fills with it.
 */
export function slipped(
  side: Side,
  price: number,
  bps: number,
  tickSize: number | undefined,
  limit: number | null = null,
): number {
  if (!(bps > 0)) return price;
  const raw = side === 'BUY' ? price * (1 + bps / 10_000) : price * (1 - bps / 10_000);
  const tick = tickSize !== undefined && tickSize > 0 ? tickSize : 0;
  const moved = side === 'BUY' ? againstTaker(side, raw, tickSize) : Math.max(tick, againstTaker(side, raw, tickSize));
  if (limit === null) return moved;
  return side === 'BUY' ? Math.min(moved, limit) : Math.max(moved, limit);
}

/** On the tick grid the way that costs the taker (up for BUY, down for SELL); as is without a tick. */
export function againstTaker(side: Side, price: number, tickSize: number | undefined): number {
  if (tickSize === undefined || !(tickSize > 0)) return price;
  return side === 'BUY' ? ceilToStep(price, tickSize) : floorToStep(price, tickSize);
}

/** The units of `symbol` this cycle's earlier orders on `side` take, and their notional (any side). */
export function takenThisCycle(
  pending: readonly { order: OrderRequest; price: number }[],
  symbol: string,
  side: Side,
): { qty: number; notional: number } {
  let qty = 0;
  let notional = 0;
  for (const p of pending) {
    if (p.order.symbol !== symbol) continue;
    notional += p.order.qty * p.price;
    if (p.order.side === side) qty += p.order.qty;
  }
  return { qty, notional };
}

/**
 * An order as the rest of its cycle counts it (the risk actor after approving it, the allocator
 * after sizing it): valued at its expected fill price after the cycle's earlier orders on its side,
 * with its expected cost. `reference` is the best quote on its side or its limit price.
 */
export function pendingEntry(
  order: OrderRequest,
  market: MarketSnapshot,
  reference: number,
  pending: readonly { order: OrderRequest; price: number }[],
  options: { feeRate?: number; tickSize?: number; slippageBps?: number; markPrice?: MarkPrice } = {},
): { order: OrderRequest; price: number; cost: number } {
  const taken = takenThisCycle(pending, order.symbol, order.side).qty;
  const fill = expectedFill(order, order.qty, market, reference, { taken, ...options });
  return { order, price: fill.price, cost: fill.cost };
}
