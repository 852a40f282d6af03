/**
 * The result every risk guard returns. All four are always reported, passed or not, so the audit
 * trail shows how close an approved order came to each limit, and a denial always carries a code.
 */

export type GuardName = 'drawdown' | 'leverage' | 'liquidity' | 'exposure';

export const GUARD_NAMES: readonly GuardName[] = Object.freeze(['drawdown', 'leverage', 'liquidity', 'exposure']);

export type GuardCode =
  | 'OK'
  | 'DRAWDOWN_LIMIT'
  /** The risk engine is `reducing` (drawdown beyond RISK_MAX_DRAWDOWN): only orders that lower exposure pass. */
  | 'RISK_REDUCING'
  /** The risk engine is `halted` (killed): no order of a cycle passes; a command's reduce-only close does. */
  | 'RISK_HALTED'
  | 'LEVERAGE_LIMIT'
  | 'LIQUIDITY_VOLUME'
  | 'LIQUIDITY_DEPTH'
  /** The symbol's market data is older than FEED_STALE_MS: no liquidity to measure, so no new exposure. */
  | 'LIQUIDITY_STALE'
  /** A reduce-only close beyond the liquidity limits: passed, at the smaller size in metrics.allowedQty. */
  | 'LIQUIDITY_SCALED'
  | 'EXPOSURE_SYMBOL'
  | 'EXPOSURE_TOTAL'
  /** NAV ≤ 0: ratios to NAV are meaningless, so only risk-reducing orders pass. */
  | 'NAV_NOT_POSITIVE'
  /** The order or market data cannot be evaluated (bad qty, price, symbol mismatch); see message. */
  | 'INVALID_ORDER';

export interface GuardCheck {
  guard: GuardName;
  passed: boolean;
  code: GuardCode;
  /**
   * The measured figure compared with `limit`: for a failure, the one that failed; for a pass, the
   * one closest to its limit. Null when it cannot be computed (NAV_NOT_POSITIVE, INVALID_ORDER).
   */
  value: number | null;
  limit: number | null;
  /** One line for operators, e.g. "leverage 3.20 after the order exceeds 3.00". */
  message: string;
  /** Every figure the guard computed, for the audit trail. */
  metrics: Readonly<Record<string, number | null>>;
}

/**
 * The usual limit test: within the limit after the order, or, when already beyond it (e.g. after a
 * price move), the order at least does not make it worse. Blocking de-risking trades because the
 * book is already over a limit would trap the account in the breach.
 */
export function withinLimit(after: number, before: number, limit: number): 'within' | 'not_increased' | 'breach' {
  if (after <= limit) return 'within';
  if (after <= before) return 'not_increased';
  return 'breach';
}

/** Of several (value, limit) pairs, the one using the largest share of its limit. */
export function closestToLimit<T extends { value: number; limit: number }>(first: T, ...rest: T[]): T {
  let best = first;
  for (const candidate of rest) {
    if (utilisation(candidate) > utilisation(best)) best = candidate;
  }
  return best;
}

function utilisation(x: { value: number; limit: number }): number {
  return x.limit > 0 ? x.value / x.limit : Number.POSITIVE_INFINITY;
}

export function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toPrecision(6);
}
