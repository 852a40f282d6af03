/**
 * Turns validated orders into fills: market orders and the marketable part of limit orders take
 * liquidity at once (taker fee, priced by fill-pricing.ts against the taker book: in a replay, the
 * next bar's open under FILL_MODEL=next_open); resting limit orders fill at their limit price with
 * the maker fee once the market crosses them, as far as the depth through their price goes
 * (resting-depth.ts: the book's, or in a replay a share of the bar's volume), so a large order fills
 * over several markets. Fee rates are the symbol's own where configured (config.ts feeRateOf).
 * Spot buys need the cash and spot sells the holdings at the moment of the fill; a resting order that no longer passes its
 * checks when it crosses is cancelled with the reason in `rejectReason`. Fills carry clean numbers:
 * the quantity on the lot grid, the price on the tick grid and the fee rounded to QUOTE_STEP here,
 * at the source, so the account, the event lines and the API all see the same decimal.
 */
import { markOf, markPriceOf } from '../../domain/market.js';
import type { Instrument, MarketSnapshot, MarketView, Quotes } from '../../domain/market.js';
import type { Fill, FillCosts, VenueOrder } from '../../domain/orders.js';
import { floorToStep, roundQuote, roundToStep } from '../../domain/steps.js';
import { feeRateOf } from './config.js';
import type { PaperVenueConfig } from './config.js';
// The risk engine expects fills with the same slippage function.
import { slipped } from '../../domain/risk/expected-fill.js';
import { crosses, priceMarketableLimit, priceMarketOrder, takerQuotes } from './fill-pricing.js';
import { restingDepth } from './resting-depth.js';
import type { Depth } from './resting-depth.js';
import { applyFill } from './ledger.js';
import { retire } from './state.js';
import type { PaperState } from './state.js';

export interface ExecutionContext {
  state: PaperState;
  config: PaperVenueConfig;
  /** Fill and update timestamps (the injected clock's now). */
  now: number;
}

/** Executes a new, validated order; sets its status to filled, open (resting) or rejected. */
export function executeNew(
  ctx: ExecutionContext,
  instrument: Instrument,
  order: VenueOrder,
  snapshot: MarketSnapshot,
): Fill[] {
  const { config } = ctx;
  const takerFee = feeRateOf(config, order.symbol, 'taker');
  const book = takerQuotes(snapshot);
  if (order.type === 'market') {
    if (book === null)
      return finish(
        order,
        'rejected',
        `NO_NEXT_BAR: the replay has no bar after this one for ${order.symbol} to fill in (FILL_MODEL=next_open)`,
      );
    const priced = priceMarketOrder(book, order.side, order.qty, config.impact, instrument.tickSize);
    const price = slipped(order.side, priced.price, config.slippageBps, instrument.tickSize);
    const problem = spotProblem(ctx.state, instrument, order, order.qty, price, takerFee);
    if (problem !== null) return finish(order, 'rejected', problem);
    const costs = takerCosts(book, order.qty, priced.price, price);
    const fill = record(ctx, instrument, order, order.qty, price, 'taker', costs);
    markAtFill(ctx.state, config, order.symbol, book);
    order.status = 'filled';
    return [fill];
  }
  const limit = order.limitPrice ?? Number.NaN;
  const fills: Fill[] = [];
  if (book !== null && crosses(order.side, limit, book)) {
    const priced = priceMarketableLimit(book, order.side, order.qty, limit, instrument.lotSize, instrument.tickSize);
    if (priced !== null) {
      const price = slipped(order.side, priced.price, config.slippageBps, instrument.tickSize, limit);
      const problem = spotProblem(ctx.state, instrument, order, priced.qty, price, takerFee);
      if (problem !== null) return finish(order, 'rejected', problem);
      const costs = takerCosts(book, priced.qty, priced.price, price);
      fills.push(record(ctx, instrument, order, priced.qty, price, 'taker', costs));
      markAtFill(ctx.state, config, order.symbol, book);
    }
  }
  // Whatever the book could not give at the limit or better rests.
  order.status = remainingOf(order, instrument) > 0 ? 'open' : 'filled';
  return fills;
}

/**
 * Fills resting orders the market now crosses, limited to the depth the book shows at or through
 * their price. Orders on one symbol and side share that depth in price-time priority (best limit
 * first, then oldest), as an exchange's matching engine would, so stacked orders cannot all fill
 * against the same quantity; whatever is left rests and can fill on a later market. Completed
 * orders are retired.
 */
export function matchResting(
  ctx: ExecutionContext,
  instruments: ReadonlyMap<string, Instrument>,
  market: MarketView,
): Fill[] {
  const fills: Fill[] = [];
  for (const queue of priorityQueues(ctx.state.openOrders.values())) {
    const first = queue[0];
    const snapshot = first === undefined ? undefined : market.get(first.symbol);
    const instrument = first === undefined ? undefined : instruments.get(first.symbol);
    if (first === undefined || snapshot === undefined || instrument === undefined) continue;
    const depth = restingDepth(snapshot, first.side, ctx.config.barFills);
    for (const order of queue) fills.push(...matchOne(ctx, instrument, order, depth));
  }
  return fills;
}

/** Open limit orders grouped by symbol and side, each group in price-time priority. */
function priorityQueues(orders: Iterable<VenueOrder>): VenueOrder[][] {
  const groups = new Map<string, VenueOrder[]>();
  for (const order of orders) {
    if (order.limitPrice === null) continue;
    const key = `${order.symbol}|${order.side}`;
    const group = groups.get(key) ?? [];
    group.push(order);
    groups.set(key, group);
  }
  // Array.prototype.sort is stable, so equal limits keep submission (time) order.
  for (const group of groups.values()) {
    group.sort((a, b) => (a.side === 'BUY' ? -1 : 1) * ((a.limitPrice ?? 0) - (b.limitPrice ?? 0)));
  }
  return [...groups.values()];
}

/** Fills one resting order from what is left of the crossing depth; retires it when done. */
function matchOne(ctx: ExecutionContext, instrument: Instrument, order: VenueOrder, depth: Depth): Fill[] {
  const { state, config } = ctx;
  const limit = order.limitPrice;
  if (limit === null || !depth.crossed(limit)) return [];
  let qty = remainingOf(order, instrument);
  if (order.reduceOnly) {
    const held = state.positions.get(order.symbol)?.qty ?? 0;
    const reduces = order.side === 'BUY' ? held < 0 : held > 0;
    if (!reduces) {
      finish(
        order,
        'cancelled',
        `reduce-only ${order.side} on ${order.symbol} had nothing left to reduce when it crossed`,
        ctx.now,
      );
      retire(state, order, config.maxTerminalOrders);
      return [];
    }
    // Capped to what is left of the position; the order's qty shrinks to what it can still do.
    qty = Math.min(qty, Math.abs(held));
    order.qty = roundToStep(order.filledQty + qty, instrument.lotSize);
  }
  const take = floorToStep(Math.min(qty, depth.available(limit)), instrument.lotSize);
  if (take <= 0) return [];
  const problem = spotProblem(state, instrument, order, take, limit, feeRateOf(config, order.symbol, 'maker'));
  if (problem !== null) {
    finish(order, 'cancelled', problem, ctx.now);
    retire(state, order, config.maxTerminalOrders);
    return [];
  }
  depth.consume(take);
  const fill = record(ctx, instrument, order, take, limit, 'maker');
  if (remainingOf(order, instrument) <= 0) {
    order.status = 'filled';
    retire(state, order, config.maxTerminalOrders);
  }
  return [fill];
}

/**
 * Closes `qty` of a position at market against the book (the same walk and impact as a market
 * order, taker fee) for the liquidation engine; the order is recorded as filled. A liquidation is
 * the venue's own act on the market it sees now, so it takes the snapshot's book, never a replay's
 * next open.
 */
export function takeAtMarket(
  ctx: ExecutionContext,
  instrument: Instrument,
  order: VenueOrder,
  snapshot: MarketSnapshot,
): Fill {
  const priced = priceMarketOrder(snapshot, order.side, order.qty, ctx.config.impact, instrument.tickSize);
  const fill = record(ctx, instrument, order, order.qty, priced.price, 'taker');
  order.status = 'filled';
  return fill;
}

/**
 * The equity an order's immediate (taker) fill would cost the account at once: what it pays beyond
 * the mark by walking the book, plus the taker fee. The margin check counts it, so an opening order
 * that walks a thin book cannot spend the equity that is to margin it (issue 20: NAV below zero).
 */
export function takerCost(
  ctx: Pick<ExecutionContext, 'state' | 'config'>,
  instrument: Instrument,
  order: Pick<VenueOrder, 'symbol' | 'side' | 'qty' | 'type' | 'limitPrice'>,
  snapshot: MarketSnapshot,
): number {
  const { config } = ctx;
  const book = takerQuotes(snapshot);
  if (book === null) return 0; // nothing can fill (NO_NEXT_BAR)
  let priced: { qty: number; price: number } | null;
  const { tickSize } = instrument;
  if (order.type === 'market') {
    const walked = priceMarketOrder(book, order.side, order.qty, config.impact, tickSize);
    priced = { qty: walked.qty, price: slipped(order.side, walked.price, config.slippageBps, tickSize) };
  } else {
    const limit = order.limitPrice ?? Number.NaN;
    const walked = crosses(order.side, limit, book)
      ? priceMarketableLimit(book, order.side, order.qty, limit, instrument.lotSize, tickSize)
      : null;
    priced =
      walked === null
        ? null
        : { qty: walked.qty, price: slipped(order.side, walked.price, config.slippageBps, tickSize, limit) };
  }
  if (priced === null || !(priced.qty > 0)) return 0;
  const mark = ctx.state.marks.get(order.symbol) ?? (snapshot.bid + snapshot.ask) / 2;
  const impact = (order.side === 'BUY' ? 1 : -1) * priced.qty * (priced.price - mark);
  return Math.max(0, impact) + priced.qty * priced.price * feeRateOf(config, order.symbol, 'taker');
}

function remainingOf(order: VenueOrder, instrument: Instrument): number {
  return roundToStep(order.qty - order.filledQty, instrument.lotSize);
}

/** Prices the fee, moves the money and updates the order's filled quantity and average price. */
function record(
  ctx: ExecutionContext,
  instrument: Instrument,
  order: VenueOrder,
  qty: number,
  price: number,
  liquidity: Fill['liquidity'],
  costs?: FillCosts,
): Fill {
  const feeRate = feeRateOf(ctx.config, order.symbol, liquidity);
  const fill: Fill = {
    clientOrderId: order.clientOrderId,
    symbol: order.symbol,
    side: order.side,
    qty,
    price,
    fee: feeOf(qty, price, feeRate),
    liquidity,
    ts: ctx.now,
    ...(costs !== undefined && { costs }),
  };
  applyFill(ctx.state, instrument.kind, instrument.lotSize, fill);
  const filled = order.filledQty + qty;
  // One fill: its price, exactly. Several: an average, off the tick grid by nature, kept to QUOTE_STEP.
  order.avgFillPrice =
    order.filledQty === 0 || order.avgFillPrice === null
      ? price
      : roundQuote((order.avgFillPrice * order.filledQty + price * qty) / filled);
  order.filledQty = roundToStep(filled, instrument.lotSize);
  order.updatedAt = ctx.now;
  return fill;
}

/** Why a spot fill of `qty` at `price` cannot happen now, or null (always null for perps). */
function spotProblem(
  state: PaperState,
  instrument: Instrument,
  order: VenueOrder,
  qty: number,
  price: number,
  feeRate: number,
): string | null {
  if (instrument.kind !== 'spot') return null;
  if (order.side === 'BUY') {
    // The same rounded amounts the fill would move, so a buy of exactly the cash there is passes.
    const needed = roundQuote(roundQuote(qty * price) + feeOf(qty, price, feeRate));
    if (needed > state.cash)
      return `INSUFFICIENT_CASH: insufficient cash: BUY ${qty} ${order.symbol} needs ${needed.toFixed(2)}, cash is ${state.cash.toFixed(2)}`;
    return null;
  }
  const held = state.positions.get(order.symbol)?.qty ?? 0;
  if (qty > held)
    return `INSUFFICIENT_HOLDINGS: spot cannot go short: SELL ${qty} ${order.symbol} exceeds holdings of ${held}`;
  return null;
}

/**
 * What a taker fill of `qty` paid beyond the mid of the book it met: to `walked` (the spread, the
 * walk, the tick rounding), then on to `price` (the slippage). Undefined when the book has no mid.
 */
function takerCosts(book: Quotes, qty: number, walked: number, price: number): FillCosts | undefined {
  const mid = markOf(book.bid, book.ask, 0);
  if (mid === null) return undefined;
  return { spread: roundQuote(Math.abs(walked - mid) * qty), slippage: roundQuote(Math.abs(price - walked) * qty) };
}

/** The fee on a fill in quote currency, rounded to QUOTE_STEP (negative rates are rebates). */
function feeOf(qty: number, price: number, feeRate: number): number {
  return roundQuote(qty * price * feeRate);
}

/**
 * A taker fill's symbol is marked at the book it met. Under FILL_MODEL=next_open that is the next
 * bar's open, where the position now stands: left at the close the decision saw, the account would
 * show the gap as a loss (or gain) it never had until the next bar — a phantom drawdown in the run's
 * equity that the drawdown guard and the circuit breaker would read too. Elsewhere the book is the
 * snapshot's own, whose mid is the mark already. Under MARK_PRICE=close the mark is that book's last
 * price (a replay's next open, or the close). The next market re-marks every symbol as usual.
 */
function markAtFill(state: PaperState, config: PaperVenueConfig, symbol: string, book: Quotes): void {
  const mark = markPriceOf(config.markPrice, book.bid, book.ask, book.last ?? 0);
  if (mark !== null) state.marks.set(symbol, mark);
}

function finish(order: VenueOrder, status: 'rejected' | 'cancelled', reason: string, now?: number): Fill[] {
  order.status = status;
  order.rejectReason = reason;
  if (now !== undefined) order.updatedAt = now;
  return [];
}
