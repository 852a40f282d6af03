/**
 * The venue's liquidation engine and GTT expiry. Liquidation works like a cross-margin exchange's:
 * when the account's equity (NAV) has fallen to the maintenance margin of its perpetual positions,
 * every resting perpetual order is cancelled first (so none can fill into a failing account) and
 * every perpetual position is closed in full at market against the book — the same book walk and
 * impact as a market order, with the taker fee. There is no partial liquidation and no insurance
 * fund: a market that gaps past the bankruptcy price leaves the loss in the account, after the
 * liquidation has been reported. Spot holdings are collateral but are never sold.
 */
import type { Instrument, MarketView } from '../../domain/market.js';
import { isLiquidatable } from '../../domain/margin.js';
import type { Liquidation } from '../../domain/margin.js';
import type { VenueOrder } from '../../domain/orders.js';
import { roundQuote } from '../../domain/steps.js';
import { takeAtMarket } from './execution.js';
import type { ExecutionContext } from './execution.js';
import { accountMargin } from './margin-account.js';
import { retire } from './state.js';

export interface LiquidationOutcome {
  liquidations: Liquidation[];
  /** Resting orders cancelled before the positions were closed. */
  cancelled: VenueOrder[];
}

export function liquidateIfDue(
  ctx: ExecutionContext,
  instruments: ReadonlyMap<string, Instrument>,
  market: MarketView,
  isPerp: (symbol: string) => boolean,
): LiquidationOutcome {
  const { state, config, now } = ctx;
  const margin = accountMargin(state, config.margin, isPerp);
  if (!isLiquidatable(margin.equity, margin.maintenance)) return { liquidations: [], cancelled: [] };
  const cancelled: VenueOrder[] = [];
  for (const order of [...state.openOrders.values()]) {
    if (!isPerp(order.symbol)) continue;
    order.status = 'cancelled';
    order.rejectReason = 'LIQUIDATION: cancelled before the account was liquidated';
    order.updatedAt = now;
    retire(state, order, config.maxTerminalOrders);
    cancelled.push({ ...order });
  }
  const liquidations: Liquidation[] = [];
  for (const [symbol, position] of [...state.positions]) {
    const instrument = instruments.get(symbol);
    const snapshot = market.get(symbol);
    // A symbol without a market this time cannot be priced against a book; it is closed on the next one.
    if (position.kind !== 'perp' || position.qty === 0 || instrument === undefined || snapshot === undefined) continue;
    const order: VenueOrder = {
      clientOrderId: `liquidation-${symbol}-${now}`,
      symbol,
      side: position.qty > 0 ? 'SELL' : 'BUY',
      qty: Math.abs(position.qty),
      type: 'market',
      limitPrice: null,
      reduceOnly: true,
      status: 'open',
      filledQty: 0,
      avgFillPrice: null,
      createdAt: now,
      updatedAt: now,
    };
    const fill = takeAtMarket(ctx, instrument, order, snapshot);
    retire(state, order, config.maxTerminalOrders);
    liquidations.push({
      symbol,
      side: order.side,
      qty: fill.qty,
      price: fill.price,
      fee: fill.fee,
      equity: roundQuote(margin.equity),
      maintenanceMargin: roundQuote(margin.maintenance),
      ts: now,
    });
  }
  return { liquidations, cancelled };
}

/** Cancels GTT orders whose `goodTill` has come; returns copies of them. */
export function expireOrders(ctx: ExecutionContext): VenueOrder[] {
  const { state, config, now } = ctx;
  const expired: VenueOrder[] = [];
  for (const order of [...state.openOrders.values()]) {
    if (order.timeInForce !== 'GTT' || order.goodTill === undefined || order.goodTill > now) continue;
    order.status = 'cancelled';
    order.rejectReason = `EXPIRED: GTT order expired at ${new Date(order.goodTill).toISOString()}`;
    order.updatedAt = now;
    retire(state, order, config.maxTerminalOrders);
    expired.push({ ...order });
  }
  return expired;
}
