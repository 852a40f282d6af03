/**
 * The tcs configuration of the SMA run against backtrader (issue 34), shared by the comparison bench and
 * the byte-identity check: every default that would drop or reshape the crossover's signals is off, so
 * both engines trade the same rule — no no-trade band (a 1-unit target is far inside the default 2 % of
 * NAV), every symbol may order in the same cycle, no confidence floor, no drawdown stop, no spread,
 * next-open fills and backtrader's commission. The audit trail (events.db) stays on, as in every tcs
 * simulate.
 */
import { SYMBOLS, TAKER_FEE } from './generate-data.js';

export const SMA_RUN_ENV: Readonly<Record<string, string>> = {
  NO_TRADE_BAND: '0',
  ARBITER_MIN_CONFIDENCE: '0',
  ARBITER_MAX_ORDERS: String(SYMBOLS.length),
  RISK_MAX_DRAWDOWN: '1',
  SPREAD_MODEL: 'none',
  FILL_MODEL: 'next_open',
  FEE_TAKER: String(TAKER_FEE),
  PAPER_STARTING_CASH: '100000',
};
