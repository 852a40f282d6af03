/**
 * A test's hand on the fake exchange's account, outside any client: a market order that fills at once
 * with its fee, and the fees the exchange booked on a symbol (rounded as it books them).
 */
import type { Venue } from './venue.js';

export function marketFill(venue: Venue, symbol: string, side: 'BUY' | 'SELL', qty: number): void {
  venue.place({
    symbol,
    side,
    type: 'MARKET',
    timeInForce: null,
    qty,
    price: null,
    reduceOnly: false,
    clientOrderId: null,
  });
}

export function feesBooked(venue: Venue, symbol: string): number {
  return Math.round(venue.trades(symbol).reduce((sum, trade) => sum + trade.commission, 0) * 1e8) / 1e8;
}
