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
 * (reduce-only, or one that only reduces the position) always passes. `fillCost` is the equity its
 * immediate fill would spend (book impact beyond the mark and the taker fee, execution.ts
 * takerCost): an order that opens exposure (raises the margin or flips the position) and whose
 * fill would leave equity at or below the maintenance margin of the positions after it is refused, since it would be liquidated at once or, walking a thin book,
 * take NAV below zero (issue 20). Ordinary orders cost far less than initial − maintenance margin.
 */
export function marginProblem(
  state: PaperState,
  table: MarginTable,
  isPerp: IsPerp,
  order: Pick<VenueOrder, 'symbol' | 'side' | 'qty' | 'reduceOnly'>,
  price: number,
  fillCost = 0,
): string | null {
  if (order.reduceOnly || !isPerp(order.symbol)) return null;
  const before = accountMargin(state, table, isPerp);
  const extra = { symbol: order.symbol, side: order.side, qty: order.qty, price };
  const after = accountMargin(state, table, isPerp, extra);
  const needed = after.used - before.used;
  const free = before.equity - before.used;
  if (!marginAllows(before.equity, before.used, after.used)) {
    return (
      `INSUFFICIENT_MARGIN: ${order.side} ${order.qty} ${order.symbol} needs ${needed.toFixed(2)} of initial margin, ` +
      `free is ${free.toFixed(2)} (equity ${before.equity.toFixed(2)}, used ${before.used.toFixed(2)})`
    );
  }
  // An order that opens exposure (raises the margin, or flips the position through zero) must leave
  // equity above maintenance once its fill is paid; one that only reduces is never refused.
  const held = state.positions.get(order.symbol)?.qty ?? 0;
  const signed = order.side === 'BUY' ? order.qty : -order.qty;
  const flips = held !== 0 && Math.sign(held + signed) === -Math.sign(held);
  const opens = needed > 0 || held === 0 || flips;
  if (opens && before.equity - fillCost <= maintenanceAfter(state, table, isPerp, extra)) {
    return (
      `INSUFFICIENT_MARGIN: ${order.side} ${order.qty} ${order.symbol} would cost ${fillCost.toFixed(2)} to fill ` +
      `against the book, leaving equity ${(before.equity - fillCost).toFixed(2)} at or below the maintenance margin`
    );
  }
  return null;
}

/** Maintenance margin of the positions once `order` has filled in full (positions at mark). */
function maintenanceAfter(state: PaperState, table: MarginTable, isPerp: IsPerp, order: ProspectiveOrder): number {
  let maintenance = 0;
  const seen = new Set<string>();
  for (const [symbol, p] of state.positions) {
    if (p.kind !== 'perp' || !isPerp(symbol)) continue;
    seen.add(symbol);
    const mark = state.marks.get(symbol) ?? p.entryPrice;
    const qty = symbol === order.symbol ? p.qty + (order.side === 'BUY' ? order.qty : -order.qty) : p.qty;
    maintenance += maintenanceMargin(
      qty * (symbol === order.symbol ? order.price : mark),
      marginRatesFor(table, { symbol }),
    );
  }
  if (!seen.has(order.symbol)) {
    maintenance += maintenanceMargin(order.qty * order.price, marginRatesFor(table, { symbol: order.symbol }));
  }
  return maintenance;
}
