/**
 * Account view shared by the allocator, the risk engine, the API (deleverage, kill instructions)
 * and the paper venue. Positions are signed: qty > 0 long, qty < 0 short.
 */
import type { InstrumentKind } from './market.js';
import type { VenueOrder } from './orders.js';

export interface Position {
  symbol: string;
  kind: InstrumentKind;
  /** Signed base quantity. */
  qty: number;
  /** Average entry price of the open quantity. */
  entryPrice: number;
  /** Latest mark price used for unrealized PnL. */
  markPrice: number;
  unrealizedPnl: number;
  realizedPnl: number;
}

export interface AccountSnapshot {
  /** Net asset value: cash + unrealized PnL (+ spot holdings at mark). */
  nav: number;
  /** Highest NAV seen; the drawdown guard trails from it. */
  peakNav: number;
  cash: number;
  realizedPnl: number;
  unrealizedPnl: number;
  /** Funding received (+) or paid (−) in total. */
  fundingPnl: number;
  /**
   * The same per symbol, since the account opened, closed positions included (they sum to
   * fundingPnl). Optional: a venue that does not know it (the live venue), or an earlier document.
   */
  fundingBySymbol?: Record<string, number>;
  feesPaid: number;
  /**
   * The cash the account opened with: the NAV it started from, kept across restarts (the console's
   * PnL since start). Optional: a venue that cannot know it, or a document of an earlier release.
   */
  startingCash?: number;
  /**
   * What the venue's insurance fund has paid into the account, in total, when a liquidation went
   * past zero (so NAV = starting cash + realized + unrealized − fees + funding + this). Optional: a
   * venue without an insurance fund, or a document of an earlier release.
   */
  insuranceCover?: number;
  positions: Position[];
  openOrders: VenueOrder[];
  /** Epoch ms. */
  ts: number;
}

/** Absolute notional of a position at its mark. */
export function positionNotional(p: Pick<Position, 'qty' | 'markPrice'>): number {
  return Math.abs(p.qty * p.markPrice);
}
