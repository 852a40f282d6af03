/**
 * The paper account as an exchange's cross-margin account sees it (the rules are in
 * src/domain/margin.ts): equity is the account's NAV (cash, perpetuals' unrealized PnL, spot
 * holdings at mark); every perpetual symbol ties up initial margin on its worst side, positions at
 * mark and resting opening orders at their limit; positions' maintenance margin is what equity is
 * liquidated at. Spot is paid in full and ties up no margin.
 */
import { initialMargin, maintenanceMargin, marginAllows, marginRatesFor } from '../../domain/margin.js';
import type { MarginTable, SymbolExposure } from '../../domain/margin.js';
import type { Side, VenueOrder } from '../../domain/orders.js';
import { navOf } from './marking.js';
import type { PaperState } from './state.js';

export interface AccountMargin {
  equity: number;
  /** Initial margin of all perpetual positions and resting opening orders. */
  used: number;
  /** Maintenance margin of all perpetual positions. */
  maintenance: number;
}

/** A not-yet-accepted order counted as if it were resting: side, quantity and price. */
export interface ProspectiveOrder {
  symbol: string;
  side: Side;
  qty: number;
  price: number;
}

type IsPerp = (symbol: string) => boolean;

/** Per perpetual symbol: position at mark and the resting opening orders on each side. */
function exposures(state: PaperState, isPerp: IsPerp, extra?: ProspectiveOrder): Map<string, SymbolExposure> {
  const bySymbol = new Map<string, SymbolExposure>();
  const of = (symbol: string): SymbolExposure => {
    let exposure = bySymbol.get(symbol);
    if (exposure === undefined) {
      exposure = { positionNotional: 0, restingBuyNotional: 0, restingSellNotional: 0 };
      bySymbol.set(symbol, exposure);
    }
    return exposure;
  };
  for (const [symbol, p] of state.positions) {
    if (p.kind !== 'perp' || p.qty === 0) continue;
    of(symbol).positionNotional = p.qty * (state.marks.get(symbol) ?? p.entryPrice);
  }
  const add = (symbol: string, side: Side, notional: number): void => {
    const exposure = of(symbol);
    if (side === 'BUY') exposure.restingBuyNotional += notional;
    else exposure.restingSellNotional += notional;
  };
  for (const order of state.openOrders.values()) {
    // Reduce-only orders can never open exposure (the venue caps them at the position).
    if (order.reduceOnly || order.limitPrice === null || !isPerp(order.symbol)) continue;
    add(order.symbol, order.side, (order.qty - order.filledQty) * order.limitPrice);
  }
  if (extra !== undefined) add(extra.symbol, extra.side, extra.qty * extra.price);
  return bySymbol;
}

export function accountMargin(
  state: PaperState,
  table: MarginTable,
  isPerp: IsPerp,
  extra?: ProspectiveOrder,
): AccountMargin {
  let used = 0;
  let maintenance = 0;
  for (const [symbol, exposure] of exposures(state, isPerp, extra)) {
    const rates = marginRatesFor(table, { symbol });
    used += initialMargin(exposure, rates);
    maintenance += maintenanceMargin(exposure.positionNotional, rates);
  }
  return { equity: navOf(state), used, maintenance };
}

/**
 * Why the account cannot take this perpetual order, `INSUFFICIENT_MARGIN: …`, or null. The order
 * is counted as resting at `price`; an order that does not raise the account's initial margin
 * (reduce-only, or one that only reduces the position) always passes.
 */
export function marginProblem(
  state: PaperState,
  table: MarginTable,
  isPerp: IsPerp,
  order: Pick<VenueOrder, 'symbol' | 'side' | 'qty' | 'reduceOnly'>,
  price: number,
): string | null {
  if (order.reduceOnly || !isPerp(order.symbol)) return null;
  const before = accountMargin(state, table, isPerp);
  const after = accountMargin(state, table, isPerp, { symbol: order.symbol, side: order.side, qty: order.qty, price });
  if (marginAllows(before.equity, before.used, after.used)) return null;
  const needed = after.used - before.used;
  const free = before.equity - before.used;
  return (
    `INSUFFICIENT_MARGIN: ${order.side} ${order.qty} ${order.symbol} needs ${needed.toFixed(2)} of initial margin, ` +
    `free is ${free.toFixed(2)} (equity ${before.equity.toFixed(2)}, used ${before.used.toFixed(2)})`
  );
}
