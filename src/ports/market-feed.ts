/**
 * Market data port: one snapshot per symbol per cycle. The seeded synthetic feed is the default;
 * historical and live feeds implement the same interface.
 */
import type { Instrument, MarketView } from '../domain/market.js';

export interface MarketFeed {
  readonly instruments: readonly Instrument[];
  /** How long one bar of the snapshots' `bars` is, ms (one market step); one minute when absent. */
  readonly barMs?: number;
  /** The market at epoch ms `now`; successive calls advance the feed by one step. */
  next(now: number): Promise<MarketView>;
  /** Stops any work still under way (a live feed's retries); nothing is fetched afterwards. */
  close?(): Promise<void>;
}
