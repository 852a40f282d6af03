/**
 * Order checks before anything moves. Every problem becomes a reject reason, never an exception:
 * a bad order is an outcome the caller logs, not a crash. Reduce-only orders are capped to the
 * position they reduce and rejected when there is nothing to reduce (flat, or the order's side
 * would grow the position). Spot cannot go short: a sell needs the holdings not already offered
 * by resting sells (INSUFFICIENT_HOLDINGS). Time in force: GTT needs a `goodTill` in the future,
 * post-only needs a limit that would not cross (POST_ONLY_WOULD_CROSS). The minimum notional
 * applies to orders that add exposure only, so a small remainder can always be closed.
 */
import type { Instrument, MarketSnapshot } from '../../domain/market.js';
import type { OrderRequest } from '../../domain/orders.js';
import { crosses, takerQuotes } from './fill-pricing.js';
import { isOnStep, roundToStep } from '../../domain/steps.js';
import { markOf } from '../../domain/market.js';
import type { PaperState } from './state.js';

/** On success the quantity (capped for reduce-only) and limit price, snapped exactly onto their grids. */
export type Verdict = { ok: true; qty: number; limitPrice: number | null } | { ok: false; reason: string };

export interface ValidationContext {
  instrument: Instrument | undefined;
  snapshot: MarketSnapshot | undefined;
  state: PaperState;
  /** The venue's clock, for GTT expiries. */
  now: number;
}

export function validateOrder(order: OrderRequest, ctx: ValidationContext): Verdict {
  const { instrument, snapshot } = ctx;
  if (instrument === undefined) return reject(`unknown symbol ${order.symbol}`);
  if (order.side !== 'BUY' && order.side !== 'SELL')
    return reject(`side must be BUY or SELL, got ${String(order.side)}`);
  if (order.type !== 'market' && order.type !== 'limit')
    return reject(`type must be market or limit, got ${String(order.type)}`);
  if (typeof order.qty !== 'number' || !Number.isFinite(order.qty) || order.qty <= 0)
    return reject(`qty must be a positive number, got ${String(order.qty)}`);
  if (!isOnStep(order.qty, instrument.lotSize))
    return reject(`qty ${order.qty} is not a multiple of the lot size ${instrument.lotSize}`);
  if (order.type === 'limit') {
    const price = order.limitPrice;
    if (price === null || typeof price !== 'number' || !Number.isFinite(price) || price <= 0)
      return reject('limit order needs a positive limitPrice');
    if (!isOnStep(price, instrument.tickSize))
      return reject(`limitPrice ${price} is not a multiple of the tick size ${instrument.tickSize}`);
  }
  const tifProblem = timeInForceProblem(order, ctx.now);
  if (tifProblem !== null) return reject(tifProblem);
  if (snapshot === undefined) return reject(`no market for ${order.symbol}`);
  if (
    markOf(snapshot.bid, snapshot.ask, snapshot.last) === null ||
    !(snapshot.bid > 0) ||
    !(snapshot.ask >= snapshot.bid)
  ) {
    return reject(`market for ${order.symbol} has no valid quotes`);
  }
  const held = ctx.state.positions.get(order.symbol)?.qty ?? 0;
  // Accepted within float tolerance above; from here on exact, so 0.30000000000000004 compares as 0.3.
  let qty = roundToStep(order.qty, instrument.lotSize);
  const limitPrice =
    order.type === 'limit' && order.limitPrice !== null ? roundToStep(order.limitPrice, instrument.tickSize) : null;
  if (order.reduceOnly) {
    if (held === 0) return reject(`reduce-only ${order.side} on ${order.symbol}: the position is flat`);
    const reduces = order.side === 'BUY' ? held < 0 : held > 0;
    if (!reduces) return reject(`reduce-only ${order.side} on ${order.symbol} would increase the position (${held})`);
    qty = Math.min(qty, Math.abs(held));
  } else if (instrument.kind === 'spot' && order.side === 'SELL') {
    const offered = restingSpotSells(ctx.state, order.symbol);
    if (qty > roundToStep(held - offered, instrument.lotSize)) {
      const resting = offered > 0 ? ` (${offered} already on resting sells)` : '';
      return reject(
        `INSUFFICIENT_HOLDINGS: spot cannot go short: SELL ${qty} ${order.symbol} exceeds holdings of ${held}${resting}`,
      );
    }
  }
  if (
    order.postOnly === true &&
    limitPrice !== null &&
    crosses(order.side, limitPrice, takerQuotes(snapshot) ?? snapshot)
  ) {
    const quote = order.side === 'BUY' ? `ask ${snapshot.ask}` : `bid ${snapshot.bid}`;
    return reject(`POST_ONLY_WOULD_CROSS: post-only ${order.side} at ${limitPrice} would take the ${quote}`);
  }
  if (!order.reduceOnly) {
    const price = limitPrice ?? (order.side === 'BUY' ? snapshot.ask : snapshot.bid);
    if (qty * price < instrument.minNotional) {
      return reject(
        `notional ${(qty * price).toFixed(2)} is below the minimum ${instrument.minNotional} for ${order.symbol}`,
      );
    }
  }
  return { ok: true, qty, limitPrice };
}

/** Why the order's time in force is unusable, or null. */
function timeInForceProblem(order: OrderRequest, now: number): string | null {
  const tif = order.timeInForce ?? 'GTC';
  if (tif !== 'GTC' && tif !== 'GTT') return `INVALID_TIME_IN_FORCE: must be GTC or GTT, got ${String(tif)}`;
  if (order.postOnly !== undefined && typeof order.postOnly !== 'boolean')
    return `INVALID_TIME_IN_FORCE: postOnly must be true or false, got ${String(order.postOnly)}`;
  if (order.postOnly === true && order.type !== 'limit') return 'INVALID_TIME_IN_FORCE: post-only needs a limit order';
  if (tif === 'GTC') {
    return order.goodTill === undefined ? null : 'INVALID_TIME_IN_FORCE: goodTill is only for GTT orders';
  }
  if (order.type !== 'limit') return 'INVALID_TIME_IN_FORCE: GTT needs a limit order';
  const goodTill = order.goodTill;
  if (typeof goodTill !== 'number' || !Number.isFinite(goodTill))
    return 'INVALID_TIME_IN_FORCE: GTT needs goodTill (epoch ms)';
  if (goodTill <= now) return `INVALID_TIME_IN_FORCE: goodTill ${new Date(goodTill).toISOString()} has passed`;
  return null;
}

/** Base quantity of `symbol` already offered by resting (unfilled) spot sells. */
function restingSpotSells(state: PaperState, symbol: string): number {
  let total = 0;
  for (const o of state.openOrders.values()) if (o.symbol === symbol && o.side === 'SELL') total += o.qty - o.filledQty;
  return total;
}

function reject(reason: string): Verdict {
  return { ok: false, reason };
}
