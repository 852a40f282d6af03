/**
 * What a simulation run hands the performance tracker: one observation per cycle and one per fill.
 * The tracker never sees the simulator, so these two shapes are the whole contract between them.
 */
import type { ExitReason } from '../protection.js';

/** The account at the end of one cycle (simulated time), in time order. */
export interface CycleObservation {
  /** Epoch ms, simulated time at the end of the cycle. */
  ts: number;
  nav: number;
  cash: number;
  /** Signed quantities; `markPrice` is the price the venue marked them at. */
  positions: readonly { symbol: string; qty: number; markPrice: number }[];
  /** Cumulative funding received (+) or paid (−) so far, whole account. */
  fundingPnl: number;
  /**
   * Cumulative funding per symbol, when the venue knows it (the paper venue does). What changed in
   * this cycle was settled as the cycle read its market, before the cycle's fills.
   */
  fundingBySymbol?: Readonly<Record<string, number>>;
  /** Cumulative fees paid (a positive number is a cost). */
  feesPaid: number;
  /** Symbol → price this cycle (the price chart). */
  marks: Readonly<Record<string, number>>;
}

/**
 * What a fill was: a strategy's order, the venue's liquidation, an operator's deleverage, the risk
 * engine's own close while `reducing` (`risk_reduce`), its trim of what a close's cost did (`risk_trim`), or a protective exit with its reason
 * (STOP_LOSS, TAKE_PROFIT, TRAILING_STOP; still the strategy's trade).
 */
export type FillKind = 'order' | 'liquidation' | 'deleverage' | 'risk_reduce' | 'risk_trim' | ExitReason;

/** One fill, liquidations and deleverages included. */
export interface TradeObservation {
  ts: number;
  clientOrderId: string;
  symbol: string;
  side: 'BUY' | 'SELL';
  qty: number;
  price: number;
  /** Fee paid in quote currency (positive = cost). */
  fee: number;
  liquidity: 'maker' | 'taker';
  /** A taker fill's cost beyond the mid of the book it met, before slippage, and its slippage (the venue's Fill.costs). */
  spreadCost?: number;
  slippageCost?: number;
  /**
   * For a liquidation that went past zero: what the venue's insurance fund paid into the account.
   * It is PnL the account did not bear, booked to the symbol with the fill's realized PnL.
   */
  insuranceCover?: number;
  /** The strategy whose signal led to the order (or whose position an exit closed); null for liquidations, deleverages and the risk engine's closes. */
  strategy: string | null;
  kind: FillKind;
}

/** Where pnl_by_strategy puts fills and lots that no strategy asked for (liquidation, deleverage). */
export const NO_STRATEGY = '(none)';
