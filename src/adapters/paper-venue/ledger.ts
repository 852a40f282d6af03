/**
 * Money movements of the paper account: fills, fees, funding and the insurance fund's part in a
 * liquidation. Perpetuals are margin-free: an
 * opening fill moves no cash, a reducing fill books realized PnL into cash. Spot moves the traded
 * notional between cash and holdings and books realized PnL against average cost. Either way
 * NAV = startingCash + realized + unrealized − fees + funding + insurance cover holds, up to half a QUOTE_STEP per
 * booked amount, which is what the accounting property test checks. Every amount is rounded to
 * QUOTE_STEP where it arises (PnL, spot notional, funding; fees arrive rounded) and every running
 * total again after each addition, so cash and the totals stay exact 8-decimal amounts, no drift.
 * Average entry prices are kept to QUOTE_STEP too; perp NAV does not depend on them, and for spot
 * the cost basis they carry moves by at most half a QUOTE_STEP per unit held per purchase.
 */
import type { InstrumentKind } from '../../domain/market.js';
import type { Fill } from '../../domain/orders.js';
import { sideSign } from '../../domain/orders.js';
import { roundQuote, roundToStep } from '../../domain/steps.js';
import type { PaperState, PositionState } from './state.js';

function positionOf(state: PaperState, symbol: string, kind: InstrumentKind): PositionState {
  let position = state.positions.get(symbol);
  if (position === undefined) {
    position = { kind, qty: 0, entryPrice: 0, realizedPnl: 0 };
    state.positions.set(symbol, position);
  }
  return position;
}

/** `total + amount` back on the QUOTE_STEP grid: two 8-decimal amounts sum to an 8-decimal amount. */
function plus(total: number, amount: number): number {
  return roundQuote(total + amount);
}

/**
 * The average price of `heldQty` at `heldPrice` plus `qty` at `price`, to QUOTE_STEP: an average
 * is off the tick grid by nature, but 59763.7 averaged with 59763.7 must still read 59763.7.
 */
function averagePrice(heldQty: number, heldPrice: number, qty: number, price: number): number {
  return roundQuote((heldQty * heldPrice + qty * price) / (heldQty + qty));
}

function bookRealized(state: PaperState, position: PositionState, pnl: number): void {
  position.realizedPnl = plus(position.realizedPnl, pnl);
  state.realizedPnl = plus(state.realizedPnl, pnl);
}

/** Applies a fill (already priced and fee'd) to cash, position and totals. */
export function applyFill(state: PaperState, kind: InstrumentKind, lotSize: number, fill: Fill): void {
  const position = positionOf(state, fill.symbol, kind);
  const signed = sideSign(fill.side) * fill.qty;
  state.cash = plus(state.cash, -fill.fee);
  state.feesPaid = plus(state.feesPaid, fill.fee);
  if (kind === 'spot') applySpot(state, position, fill, signed);
  else applyPerp(state, position, fill, signed);
  position.qty = roundToStep(position.qty, lotSize);
  if (position.qty === 0) position.entryPrice = 0;
}

function applyPerp(state: PaperState, position: PositionState, fill: Fill, signed: number): void {
  const { qty, entryPrice } = position;
  if (qty === 0 || Math.sign(qty) === Math.sign(signed)) {
    const total = qty + signed;
    position.entryPrice = averagePrice(Math.abs(qty), entryPrice, fill.qty, fill.price);
    position.qty = total;
    return;
  }
  const closing = Math.min(fill.qty, Math.abs(qty));
  const pnl = roundQuote(closing * (fill.price - entryPrice) * Math.sign(qty));
  state.cash = plus(state.cash, pnl);
  bookRealized(state, position, pnl);
  const rest = fill.qty - closing;
  if (rest > 0) {
    // The fill flipped the position: what is left opens fresh at the fill price.
    position.qty = Math.sign(signed) * rest;
    position.entryPrice = fill.price;
  } else {
    position.qty = qty + signed;
  }
}

function applySpot(state: PaperState, position: PositionState, fill: Fill, signed: number): void {
  state.cash = plus(state.cash, -roundQuote(signed * fill.price));
  if (signed > 0) {
    position.entryPrice = averagePrice(position.qty, position.entryPrice, fill.qty, fill.price);
    position.qty += fill.qty;
    return;
  }
  // Cash already received the proceeds; realized PnL is the part of them above average cost.
  bookRealized(state, position, roundQuote(fill.qty * (fill.price - position.entryPrice)));
  position.qty -= fill.qty;
}

/**
 * Settles one funding payment on a perpetual: payment = rate × qty × mark. Positive funding:
 * longs pay, shorts receive; negative funding the reverse. Returns the cash change.
 */
export function settleFunding(state: PaperState, symbol: string, rate: number, markPrice: number): number {
  const position = state.positions.get(symbol);
  if (position === undefined || position.kind !== 'perp' || position.qty === 0) return 0;
  const change = roundQuote(-rate * position.qty * markPrice);
  state.cash = plus(state.cash, change);
  state.fundingPnl = plus(state.fundingPnl, change);
  return change;
}

/**
 * Charges a liquidation fee (already capped by the caller to what the account can pay): a fee like
 * any other in the account's totals, and the insurance fund's intake.
 */
export function chargeLiquidationFee(state: PaperState, fee: number): void {
  state.cash = plus(state.cash, -fee);
  state.feesPaid = plus(state.feesPaid, fee);
  state.insuranceFund = plus(state.insuranceFund, fee);
}

/** The insurance fund pays `amount` into the account, out of its own balance. */
export function payInsuranceCover(state: PaperState, amount: number): void {
  state.cash = plus(state.cash, amount);
  state.insuranceCover = plus(state.insuranceCover, amount);
  state.insuranceFund = plus(state.insuranceFund, -amount);
}
