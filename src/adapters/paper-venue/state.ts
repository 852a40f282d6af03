/**
 * The paper account's in-memory state model: cash and running totals, positions by symbol, open
 * and terminal orders (both keyed by clientOrderId for idempotency), funding bookkeeping and the
 * last marks. persistence.ts turns it into the compact `paper:state` document and back.
 */
import type { InstrumentKind } from '../../domain/market.js';
import type { VenueOrder } from '../../domain/orders.js';
import type { PeakEntry } from '../../domain/risk/peak-window.js';

export interface PositionState {
  kind: InstrumentKind;
  /** Signed base quantity (spot: holdings, never negative). */
  qty: number;
  /** Average entry price (spot: average cost) of the open quantity; 0 when flat. */
  entryPrice: number;
  /** Realized PnL on this symbol since the account opened. */
  realizedPnl: number;
}

export interface FundingState {
  /** The funding time announced by the latest snapshot before it, null until one is seen. */
  due: number | null;
  /** The rate announced with `due`; it is the one settled when `due` passes. */
  rate: number;
  /** The last funding time settled, so each funding time is settled once. */
  settledDue: number | null;
  /**
   * Funding received (+) or paid (−) on this symbol since the account opened: the symbol's share of
   * `fundingPnl`, kept when the position closes, so a simulation books funding to its symbol.
   */
  paid: number;
}

export interface PaperState {
  startingCash: number;
  /** Quote cash: perps move it by realized PnL, fees and funding; spot by the traded notional too. */
  cash: number;
  realizedPnl: number;
  feesPaid: number;
  /** Funding received (+) or paid (−). */
  fundingPnl: number;
  /** The drawdown reference: the highest NAV in the rolling window, as of the last mark (peak-window.ts). */
  peakNav: number;
  /** What the insurance fund has paid into this account, in total, to floor its NAV at zero. */
  insuranceCover: number;
  /**
   * The venue's insurance fund: liquidation fees taken in less covers paid out. It starts at 0 and
   * may go negative on a paper venue (the fund's own loss); it is reported, never the account's.
   */
  insuranceFund: number;
  /**
   * The window's per-bucket NAV maxima. Empty for a new account and for one stored before the window
   * existed: the first mark then seeds it with `peakNav`, as if that peak had just been seen.
   */
  peaks: PeakEntry[];
  positions: Map<string, PositionState>;
  /** Resting orders in submission order (the order they are matched in). */
  openOrders: Map<string, VenueOrder>;
  /** Filled, cancelled and rejected orders, oldest first, bounded by config.maxTerminalOrders. */
  terminalOrders: Map<string, VenueOrder>;
  funding: Map<string, FundingState>;
  /** Last mark (mid) price seen per symbol. */
  marks: Map<string, number>;
}

export function createInitialState(startingCash: number): PaperState {
  return {
    startingCash,
    cash: startingCash,
    realizedPnl: 0,
    feesPaid: 0,
    fundingPnl: 0,
    peakNav: startingCash,
    insuranceCover: 0,
    insuranceFund: 0,
    peaks: [],
    positions: new Map(),
    openOrders: new Map(),
    terminalOrders: new Map(),
    funding: new Map(),
    marks: new Map(),
  };
}

/** The order with this id, open or terminal, or undefined. */
export function findOrder(state: PaperState, clientOrderId: string): VenueOrder | undefined {
  return state.openOrders.get(clientOrderId) ?? state.terminalOrders.get(clientOrderId);
}

/**
 * Moves an order to the terminal set (out of the open set) and forgets the oldest beyond `max`. A
 * retired order is never changed again: persistence.ts reuses its encoding on every save.
 */
export function retire(state: PaperState, order: VenueOrder, max: number): void {
  state.openOrders.delete(order.clientOrderId);
  state.terminalOrders.set(order.clientOrderId, order);
  for (const id of state.terminalOrders.keys()) {
    if (state.terminalOrders.size <= max) break;
    state.terminalOrders.delete(id);
  }
}
