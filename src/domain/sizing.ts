/**
 * The allocator's arithmetic (spec step 3): quantity = NAV × riskFraction × confidence / price,
 * rounded DOWN to the instrument's lot size so the order never spends more than its budget.
 * Returns the reason instead of an order when nothing sensible can be sent.
 */
import { floorToLot } from './market.js';
import type { Instrument } from './market.js';
import type { Side } from './orders.js';
import type { Signal } from './signal.js';

export interface SizingInput {
  /** Net asset value in quote currency. */
  nav: number;
  /** Expected execution price (e.g. the ask for a buy, the bid for a sell). */
  price: number;
  instrument: Instrument;
  /** Fraction of NAV committed at confidence 1, in (0, 1]. */
  riskFraction: number;
}

/** 10 % of NAV per order at full confidence; the exposure guard caps the position per symbol. */
export const DEFAULT_RISK_FRACTION = 0.1;

export type SizingRejectCode =
  /** nav, price or riskFraction out of range, confidence outside [0, 1], or symbol mismatch. */
  | 'INVALID_INPUT'
  | 'DIRECTION_ZERO'
  /** the budget is smaller than one lot. */
  | 'ZERO_QTY'
  | 'BELOW_MIN_NOTIONAL';

export type SizingResult =
  | { ok: true; side: Side; qty: number; /** qty × price */ notional: number }
  | { ok: false; code: SizingRejectCode; message: string };

export function sizeOrder(signal: Signal, input: SizingInput): SizingResult {
  const { nav, price, instrument, riskFraction } = input;
  if (signal.symbol !== instrument.symbol)
    return reject('INVALID_INPUT', `signal is for ${signal.symbol}, instrument is ${instrument.symbol}`);
  if (!(Number.isFinite(nav) && nav > 0)) return reject('INVALID_INPUT', `NAV must be positive, got ${nav}`);
  if (!(Number.isFinite(price) && price > 0)) return reject('INVALID_INPUT', `price must be positive, got ${price}`);
  if (!(Number.isFinite(riskFraction) && riskFraction > 0 && riskFraction <= 1))
    return reject('INVALID_INPUT', `riskFraction must be in (0, 1], got ${riskFraction}`);
  if (!(Number.isFinite(signal.confidence) && signal.confidence >= 0 && signal.confidence <= 1)) {
    return reject('INVALID_INPUT', `confidence must be in [0, 1], got ${signal.confidence}`);
  }
  const sign = Number.isFinite(signal.direction) ? Math.sign(signal.direction) : 0;
  if (sign === 0) return reject('DIRECTION_ZERO', 'signal has no direction');

  const budget = nav * riskFraction * signal.confidence;
  const qty = floorToLot(budget / price, instrument.lotSize);
  if (qty <= 0)
    return reject('ZERO_QTY', `budget ${budget.toFixed(2)} buys less than one lot (${instrument.lotSize}) at ${price}`);
  const notional = qty * price;
  if (notional < instrument.minNotional) {
    return reject(
      'BELOW_MIN_NOTIONAL',
      `notional ${notional.toFixed(2)} is below the minimum ${instrument.minNotional}`,
    );
  }
  return { ok: true, side: sign > 0 ? 'BUY' : 'SELL', qty, notional };
}

function reject(code: SizingRejectCode, message: string): SizingResult {
  return { ok: false, code, message };
}
