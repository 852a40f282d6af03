/**
 * The venue's liquidation engine and GTT expiry. Liquidation works like a cross-margin exchange's:
 * when the account's equity (NAV) has fallen to the maintenance margin of its perpetual positions,
 * every resting perpetual order is cancelled first (so none can fill into a failing account) and
 * every perpetual position is closed in full at market against the book — the same book walk and
 * impact as a market order, with the taker fee. There is no partial liquidation. Spot holdings are
 * collateral but are never sold.
 *
 * Insurance-fund model (issue 20): on top of the taker fee each close pays a liquidation fee,
 * `liquidationFee` × its notional, into the venue's insurance fund — but only out of the equity the
 * closes leave, so the fee alone never takes NAV below zero (an exchange's clearance fee is taken
 * from the remaining margin the same way). When a market gaps past the bankruptcy point, so that
 * NAV is below zero after the closes, the fund pays the shortfall into the account: NAV floors at
 * zero and the fund bears the loss. Fees and cover are split over the closes by notional and
 * reported on each Liquidation with the fund's balance after it.
 */
import type { Instrument, MarketView } from '../../domain/market.js';
import { isLiquidatable } from '../../domain/margin.js';
import type { Liquidation } from '../../domain/margin.js';
import type { VenueOrder } from '../../domain/orders.js';
import { roundQuote } from '../../domain/steps.js';
import { takeAtMarket } from './execution.js';
import type { ExecutionContext } from './execution.js';
import { chargeLiquidationFee, payInsuranceCover } from './ledger.js';
import { accountMargin } from './margin-account.js';
import { navOf } from './marking.js';
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
  const closes: { symbol: string; order: VenueOrder; fill: ReturnType<typeof takeAtMarket> }[] = [];
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
    closes.push({ symbol, order, fill });
  }
  const notionals = closes.map((c) => c.fill.qty * c.fill.price);
  // The fee is taken from what the closes left, never more: it cannot be what sends NAV below zero.
  const wanted = roundQuote(notionals.reduce((sum, n) => sum + roundQuote(n * config.liquidationFee), 0));
  const fees = split(Math.min(wanted, Math.max(0, navOf(state))), notionals);
  const afterFees = roundQuote(navOf(state) - fees.reduce((a, b) => a + b, 0));
  const covers = split(afterFees < 0 ? -afterFees : 0, notionals);
  const liquidations: Liquidation[] = closes.map(({ symbol, order, fill }, i) => {
    const liquidationFee = fees[i] ?? 0;
    const insuranceCover = covers[i] ?? 0;
    chargeLiquidationFee(state, liquidationFee);
    payInsuranceCover(state, insuranceCover);
    return {
      symbol,
      side: order.side,
      qty: fill.qty,
      price: fill.price,
      fee: fill.fee,
      liquidationFee,
      insuranceCover,
      insuranceFund: state.insuranceFund,
      equity: roundQuote(margin.equity),
      maintenanceMargin: roundQuote(margin.maintenance),
      ts: now,
    };
  });
  return { liquidations, cancelled };
}

/**
 * `total` (≥ 0) shared in proportion to `weights`, each part on the QUOTE_STEP grid; the last part
 * takes the rounding remainder so the parts sum to `total` exactly.
 */
function split(total: number, weights: readonly number[]): number[] {
  const amount = roundQuote(total);
  const sum = weights.reduce((a, b) => a + b, 0);
  if (weights.length === 0) return [];
  const parts = weights.map((w) => (sum > 0 ? roundQuote((amount * w) / sum) : 0));
  const others = parts.slice(0, -1).reduce((a, b) => roundQuote(a + b), 0);
  parts[parts.length - 1] = Math.max(0, roundQuote(amount - others));
  return parts;
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
