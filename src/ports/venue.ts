/**
 * Venue port: where orders go: the paper simulator, or the live venue on an exchange (EXECUTION_MODE=live).
 * Every implementation must be idempotent on clientOrderId, enforce reduce-only and margin, and
 * report its own liquidations. It also keeps the drawdown reference with the account (`peakNav`: the
 * highest NAV over RISK_DRAWDOWN_WINDOW), so it survives a restart with it.
 */
import type { Liquidation } from '../domain/margin.js';
import type { RequestWeight } from '../domain/request-weight.js';
import type { AccountSnapshot } from '../domain/portfolio.js';
import type { MarketView } from '../domain/market.js';
import type { Fill, OrderRequest, VenueOrder } from '../domain/orders.js';
import type { ExchangeStop } from '../domain/exchange-stops.js';

export interface SubmitResult {
  order: VenueOrder;
  fills: Fill[];
  /** True when this clientOrderId was already known and nothing new happened. */
  duplicate: boolean;
}

/** What advancing the venue to a market did. */
export interface MarketUpdate {
  /** Resting orders that filled (in part or in full). */
  fills: Fill[];
  /** Positions closed because the account's equity fell to maintenance margin. */
  liquidations: Liquidation[];
  /** Resting orders cancelled by the venue: GTT expiry, or cancelled before a liquidation. */
  cancelled: VenueOrder[];
}

export interface Venue {
  readonly mode: string;
  /**
   * Whether orders of different symbols may be submitted side by side (one symbol's always go one
   * after the other). A live exchange takes them so; the paper venue's state is not safe to interleave.
   */
  readonly parallelSymbols?: boolean;
  /** Submits at the given market; market orders fill at once, limit orders may rest. */
  submit(order: OrderRequest, market: MarketView): Promise<SubmitResult>;
  /** Cancels open orders (all, or only for `symbols`); returns the cancelled ones. */
  cancelAll(symbols?: readonly string[]): Promise<VenueOrder[]>;
  /**
   * Fills found by a cancel (an order that filled on its way to being cancelled), each given once.
   * Absent for a venue whose cancel cannot race a fill (the paper venue).
   */
  takeFills?(): Fill[];
  /**
   * Advances the venue to this market: funding is settled, expired orders are cancelled, an account
   * at maintenance margin is liquidated, resting limit orders that cross fill up to the depth.
   */
  onMarket(market: MarketView): Promise<MarketUpdate>;
  /**
   * The account marked to this market (or to the last one seen). `forClose`: read for a close (a
   * flatten's or a deleverage's round), which a live venue never holds back for its own request budget.
   */
  account(market?: MarketView, options?: { forClose?: boolean }): Promise<AccountSnapshot>;
  openOrders(): Promise<VenueOrder[]>;
  /** The operator's audited reset: the drawdown reference becomes the current NAV (the window restarts). */
  resetDrawdownPeak(): Promise<{ previousPeakNav: number; peakNav: number; nav: number }>;
  /**
   * A live venue's position drift: symbols whose position the system's own fills do not explain
   * (openings are refused while any). Absent for a venue that cannot drift (the paper venue).
   */
  positionDrift?(): ReadonlyArray<{ symbol: string; expected: number; actual: number }>;
  /** A live venue's exchange request weight and what its budget holds back (absent: no such budget). */
  requestWeight?(): RequestWeight;
  /**
   * Brings the stops resting on the exchange for the open positions to `stops` (placed, moved,
   * cancelled), so a position keeps one when the process is gone. Absent for a venue that lives and
   * dies with the process (the paper venue): its positions are protected by the cycle's own exits.
   */
  protect?(stops: readonly ExchangeStop[]): Promise<void>;
  /**
   * The cycle's orders are done and its decision recorded: a time for slow reads that no decision
   * waits on (a live venue's fee and funding history). Starts them, never waits for them.
   */
  idle?(): void;
  /** Ends what the venue holds open (a live venue's exchange client); absent when nothing is. */
  close?(): Promise<void>;
}
