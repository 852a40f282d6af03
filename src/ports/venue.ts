/**
 * Venue port: where orders go. The paper simulator implements it now; a live venue later.
 * Every implementation must be idempotent on clientOrderId and enforce reduce-only.
 */
import type { AccountSnapshot } from '../domain/portfolio.js';
import type { MarketView } from '../domain/market.js';
import type { Fill, OrderRequest, VenueOrder } from '../domain/orders.js';

export interface SubmitResult {
  order: VenueOrder;
  fills: Fill[];
  /** True when this clientOrderId was already known and nothing new happened. */
  duplicate: boolean;
}

export interface Venue {
  readonly mode: string;
  /** Submits at the given market; market orders fill at once, limit orders may rest. */
  submit(order: OrderRequest, market: MarketView): Promise<SubmitResult>;
  /** Cancels open orders (all, or only for `symbols`); returns the cancelled ones. */
  cancelAll(symbols?: readonly string[]): Promise<VenueOrder[]>;
  /** Advances the venue to this market: resting limit orders that cross fill, funding is settled. */
  onMarket(market: MarketView): Promise<Fill[]>;
  /** The account marked to this market (or to the last one seen). */
  account(market?: MarketView): Promise<AccountSnapshot>;
  openOrders(): Promise<VenueOrder[]>;
}
