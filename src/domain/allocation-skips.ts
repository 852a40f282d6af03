/**
 * Why the allocator did not turn a selected signal into an order (a proposal's `skipped.code` in the
 * decision entry). The source of the allocator section of docs/reference/risk-codes.md; the
 * allocator's skips are typed by AllocationSkipCode, so a new code fails the typecheck until it is
 * described here.
 */
export const ALLOCATION_SKIP_CATALOG = {
  PROTECTIVE_EXIT: 'The symbol is being closed by a protective exit this cycle.',
  COOLDOWN: 'The agent was stopped out of the symbol: no re-entry until `COOLDOWN_AFTER_STOP` cycles have passed.',
  MAX_ORDERS_REACHED: '`ARBITER_MAX_ORDERS` selected signals already became orders this cycle.',
  NO_MARKET: 'No instrument or market data for the symbol.',
  INVALID_INPUT: 'The NAV or the signal’s confidence is not a usable number.',
  EXIT_NOT_OWNER: 'An exit from an agent that did not set the symbol’s position.',
  CLOSE_BACKOFF:
    'The last close of the symbol did not finish (refused or not filled): the next waits 1 s, then twice as long each time, up to 60 s.',
  WITHIN_BAND: 'The change of target is within the no-trade band (`NO_TRADE_BAND` × `RISK_FRACTION` × NAV).',
  ZERO_QTY: 'The change (or the position to close) is less than one lot.',
  ALREADY_FLAT: 'An exit for a symbol with no position to close.',
  BELOW_MIN_NOTIONAL: 'The sized order’s notional is below the instrument’s minimum.',
  OUTSIDE_PERCENT_PRICE:
    'The opening’s price (its limit, or the best quote a market order takes) is outside the exchange’s PERCENT_PRICE band around the last price.',
  DRAWDOWN_BREACH: 'The drawdown is already beyond `RISK_MAX_DRAWDOWN`: no opening is sized.',
  NAV_NOT_POSITIVE: 'NAV ≤ 0: nothing can be sized against it.',
  NO_HEADROOM: 'The risk limits leave no room for an opening in this symbol and side.',
  ALLOCATOR_ERROR: 'The allocator failed; every selected signal of the cycle is skipped with its error.',
} as const satisfies Readonly<Record<string, string>>;

export type AllocationSkipCode = keyof typeof ALLOCATION_SKIP_CATALOG;
