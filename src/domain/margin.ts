/**
 * Margin of a perpetuals account, as an exchange's cross-margin account computes it: every position
 * and every resting order that would open exposure ties up `initial` × notional; a position is
 * liquidated when equity falls to `maintenance` × notional. Spot needs no margin (it is paid in
 * full). Rates are fractions of notional (0.1 = 10 % = at most 10× leverage).
 */
import type { Instrument } from './market.js';

export interface MarginRates {
  /** Margin an opening order or a position needs, as a fraction of its notional. */
  initial: number;
  /** Equity below this fraction of the notional is liquidated. */
  maintenance: number;
}

/** Documented defaults: 10× initial leverage, liquidation at 5 % of notional. */
export const DEFAULT_MARGIN_RATES: Readonly<MarginRates> = Object.freeze({ initial: 0.1, maintenance: 0.05 });

/** Rates per symbol; symbols not listed use `fallback`. */
export interface MarginTable {
  fallback: MarginRates;
  bySymbol: Readonly<Record<string, MarginRates>>;
}

export const DEFAULT_MARGIN_TABLE: Readonly<MarginTable> = Object.freeze({
  fallback: DEFAULT_MARGIN_RATES,
  bySymbol: Object.freeze({}),
});

export function marginRatesFor(table: MarginTable, instrument: Pick<Instrument, 'symbol'>): MarginRates {
  return table.bySymbol[instrument.symbol] ?? table.fallback;
}

/** Throws a RangeError naming the problem when rates are not 0 < maintenance < initial ≤ 1. */
export function assertMarginRates(rates: MarginRates, what = 'margin rates'): void {
  const { initial, maintenance } = rates;
  if (!(
    Number.isFinite(initial) &&
    Number.isFinite(maintenance) &&
    maintenance > 0 &&
    maintenance < initial &&
    initial <= 1
  )) {
    throw new RangeError(`${what}: need 0 < maintenance (${maintenance}) < initial (${initial}) ≤ 1`);
  }
}
