/**
 * Quantities in contracts (what ccxt and the exchange speak for a derivative) against quantities in
 * the base (what the whole system counts: a position of 0.03 BTC, a lot of 0.0001 BTC). A market's
 * contract size is the base one contract is worth: 1 on Binance and Bybit USDT perpetuals, 0.01 BTC
 * on OKX's BTC-USDT-SWAP (its `ctVal`). Every amount that crosses the ccxt boundary passes here, in
 * one direction or the other; prices are per unit of the base on all three, so they never do.
 *
 * The division and the product are rounded to 12 significant digits: 0.29 / 0.01 is
 * 28.999999999999996 in binary, which ccxt's amountToPrecision would truncate to 28 contracts, an
 * order smaller than the one the risk engine approved (and a close that leaves a remainder).
 */

const SIGNIFICANT = 12;

/** A contract size ccxt gives for a market, or 1 where it gives none (spot, or an exchange that omits it). */
export function contractSizeOf(market: { contractSize?: number | undefined | null } | undefined): number {
  const size = market?.contractSize;
  return typeof size === 'number' && Number.isFinite(size) && size > 0 ? size : 1;
}

/** A quantity of the base as a number of contracts. */
export function toContracts(baseQty: number, contractSize: number): number {
  return contractSize === 1 ? baseQty : Number((baseQty / contractSize).toPrecision(SIGNIFICANT));
}

/** A number of contracts as a quantity of the base. */
export function toBase(contracts: number, contractSize: number): number {
  return contractSize === 1 ? contracts : Number((contracts * contractSize).toPrecision(SIGNIFICANT));
}
