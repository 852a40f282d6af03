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

/** What one perpetual symbol ties up: its position and the resting orders that could open more. */
export interface SymbolExposure {
  /** Signed position notional at mark (long +, short −). */
  positionNotional: number;
  /** Notional of resting non-reduce-only buys (qty left × limit price), ≥ 0. */
  restingBuyNotional: number;
  /** Notional of resting non-reduce-only sells, ≥ 0. */
  restingSellNotional: number;
}

/**
 * The notional a symbol is margined on: its worst side, that is the larger of |position + all
 * resting buys| and |position − all resting sells|. A resting order that only reduces the
 * position (a sell against a long, up to its size) therefore adds nothing, and neither side can
 * ever count less than the position alone.
 */
export function marginedNotional(exposure: SymbolExposure): number {
  const { positionNotional, restingBuyNotional, restingSellNotional } = exposure;
  return Math.max(Math.abs(positionNotional + restingBuyNotional), Math.abs(positionNotional - restingSellNotional));
}

/** Initial margin a symbol ties up: initial rate × its worst-side notional. */
export function initialMargin(exposure: SymbolExposure, rates: MarginRates): number {
  return rates.initial * marginedNotional(exposure);
}

/** Maintenance margin of a position alone (resting orders are not liquidated, only cancelled). */
export function maintenanceMargin(positionNotional: number, rates: MarginRates): number {
  return rates.maintenance * Math.abs(positionNotional);
}

/** Equity not tied up as initial margin; negative when losses have eaten into the margin. */
export function freeMargin(equity: number, used: number): number {
  return equity - used;
}

/**
 * Whether an order that changes the account's initial margin from `usedBefore` to `usedAfter` may
 * be accepted: an order that does not raise the margin (it only reduces) always may; one that
 * does needs the increase to fit in the free margin.
 */
export function marginAllows(equity: number, usedBefore: number, usedAfter: number): boolean {
  const needed = usedAfter - usedBefore;
  // A tiny tolerance so float residue never turns a pure reduction into a demand for margin.
  if (needed <= 1e-9 * Math.max(1, usedBefore)) return true;
  return needed <= freeMargin(equity, usedBefore);
}

/** The liquidation test: positions are open and equity has fallen to their maintenance margin. */
export function isLiquidatable(equity: number, maintenance: number): boolean {
  return maintenance > 0 && equity <= maintenance;
}

/** A perpetual position the venue closed because the account's equity fell to maintenance margin. */
export interface Liquidation {
  symbol: string;
  /** The side of the closing trade: SELL closes a long, BUY a short. */
  side: 'BUY' | 'SELL';
  qty: number;
  /** Average price the close filled at against the book. */
  price: number;
  /** The taker fee charged on the close. */
  fee: number;
  /**
   * The liquidation fee charged on top (LIQUIDATION_FEE × the close's notional, less when the
   * equity left after the close cannot pay it all); it goes to the insurance fund.
   */
  liquidationFee: number;
  /** What the insurance fund paid into the account for this close, so NAV does not end below zero. */
  insuranceCover: number;
  /** The insurance fund's balance after this close (fees taken in less covers paid out). */
  insuranceFund: number;
  /** Account equity (NAV) when liquidation was triggered, before the close. */
  equity: number;
  /** The account's total maintenance margin at that moment. */
  maintenanceMargin: number;
  /** Epoch ms. */
  ts: number;
}

/**
 * Builds a margin table from settings: `initial`/`maintenance` replace the defaults for every
 * symbol, `overrides` is `SYMBOL:initial:maintenance[,…]` (e.g. `BTCUSDT:0.05:0.025`). Every rate
 * pair is checked with assertMarginRates; a malformed entry throws a RangeError naming it.
 */
export function parseMarginTable(settings: {
  initial?: number;
  maintenance?: number;
  overrides?: string;
}): MarginTable {
  const fallback: MarginRates = {
    initial: settings.initial ?? DEFAULT_MARGIN_RATES.initial,
    maintenance: settings.maintenance ?? DEFAULT_MARGIN_RATES.maintenance,
  };
  assertMarginRates(fallback, 'margin rates');
  const bySymbol: Record<string, MarginRates> = {};
  for (const entry of (settings.overrides ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const parts = entry.split(':').map((s) => s.trim());
    const [symbol, initial, maintenance] = parts;
    if (parts.length !== 3 || !symbol || !initial || !maintenance) {
      throw new RangeError(`margin override "${entry}" must be SYMBOL:initial:maintenance`);
    }
    const rates = { initial: Number(initial), maintenance: Number(maintenance) };
    assertMarginRates(rates, `margin override ${symbol}`);
    bySymbol[symbol.toUpperCase()] = rates;
  }
  return { fallback, bySymbol };
}
