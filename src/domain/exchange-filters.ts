/**
 * The exchange's order filters beyond lot, tick and minimum notional, applied when an order is sized
 * (docs/operate/live-trading.md, "Symbol filters in sizing"): the largest quantity of one order
 * (Binance LOT_SIZE maxQty for a limit, MARKET_LOT_SIZE maxQty for a market order: above it, -4005)
 * and the band around the price an order may trade or rest at (PERCENT_PRICE: -4016/-4024 for a
 * limit, -4131 for a market order whose best counterparty price is outside it). An instrument
 * without them (the paper venue's table) is not limited.
 */
import type { Instrument } from './market.js';
import { floorToLot } from './market.js';
import type { OrderRequest, Side } from './orders.js';

/** The largest quantity one order of `type` may have, on the lot; Infinity when the exchange sets none. */
export function maxOrderQty(instrument: Instrument, type: OrderRequest['type']): number {
  const max = type === 'market' ? instrument.marketMaxQty : instrument.maxQty;
  return max !== undefined && max > 0 ? floorToLot(max, instrument.lotSize) : Infinity;
}

/**
 * Why an order on `side` at `price` (its limit, or for a market order the best quote it takes) is
 * outside PERCENT_PRICE around `reference`, or null. Binance measures from the mark price, which the
 * cycle's snapshot does not carry: the last trade stands in for it (they differ by far less than the
 * band's 5–15 %). A BUY is bounded above, a SELL below, as Binance's USDⓈ-M filter is.
 */
export function outsidePercentPrice(
  instrument: Instrument,
  side: Side,
  price: number,
  reference: number,
): string | null {
  const band = instrument.percentPrice;
  if (!band || !(reference > 0)) return null;
  if (side === 'BUY' && price > reference * band.up)
    return `BUY at ${price} is above ${roundTo(reference * band.up)} (PERCENT_PRICE ${band.up} × ${reference})`;
  if (side === 'SELL' && price < reference * band.down)
    return `SELL at ${price} is below ${roundTo(reference * band.down)} (PERCENT_PRICE ${band.down} × ${reference})`;
  return null;
}

function roundTo(n: number): number {
  return Math.round(n * 1e8) / 1e8;
}
