/**
 * The account as the venue last handed it out, kept until the state behind it changes: a cycle asks
 * for the account several times (the breach check, after the market, after the decision) and the
 * answer is the same between changes, so it is computed once and the same snapshot is handed to
 * every caller (issue 34, item 8). Shared, it is frozen all the way down: no caller can change what
 * another one (the risk engine, the allocator, the audit) reads, as with the copies it replaced.
 */
import type { AccountSnapshot } from '../../domain/portfolio.js';
import type { PaperState } from './state.js';

/** Freezes a fresh snapshot and everything it holds (it shares nothing with the venue's state). */
export function frozenAccount(account: AccountSnapshot): AccountSnapshot {
  for (const position of account.positions) Object.freeze(position);
  Object.freeze(account.positions);
  for (const order of account.openOrders) Object.freeze(order);
  Object.freeze(account.openOrders);
  if (account.fundingBySymbol !== undefined) Object.freeze(account.fundingBySymbol);
  return Object.freeze(account);
}

/** `shown` stamped `ts`: itself when already so, else a frozen copy sharing its frozen parts. */
export function restamped(shown: AccountSnapshot, ts: number): AccountSnapshot {
  return shown.ts === ts ? shown : Object.freeze({ ...shown, ts });
}

/**
 * What a market step may change of the snapshot besides marks, peak and orders (those are checked
 * where they change): the running totals a funding settlement, a fill or a liquidation moves.
 */
export function totalsChanged(state: PaperState, before: TotalsMark): boolean {
  return (
    state.cash !== before.cash ||
    state.realizedPnl !== before.realizedPnl ||
    state.fundingPnl !== before.fundingPnl ||
    state.feesPaid !== before.feesPaid ||
    state.insuranceCover !== before.insuranceCover ||
    state.positions.size !== before.positions
  );
}

export interface TotalsMark {
  cash: number;
  realizedPnl: number;
  fundingPnl: number;
  feesPaid: number;
  insuranceCover: number;
  positions: number;
}

export function totalsOf(state: PaperState): TotalsMark {
  return {
    cash: state.cash,
    realizedPnl: state.realizedPnl,
    fundingPnl: state.fundingPnl,
    feesPaid: state.feesPaid,
    insuranceCover: state.insuranceCover,
    positions: state.positions.size,
  };
}
