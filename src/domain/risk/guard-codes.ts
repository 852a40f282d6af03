/**
 * What each risk guard code (./check.ts) means: the guard that gives it and why. The source of the
 * guard section of docs/reference/risk-codes.md; typed by GuardCode, so a code added or removed there
 * fails the typecheck until it is described here.
 */
import type { GuardCode, GuardName } from './check.js';

export interface GuardCodeEntry {
  /** The guards that can give the code. */
  guards: readonly GuardName[];
  /** Whether the order passes with it. */
  passes: boolean;
  meaning: string;
}

export const GUARD_CODE_CATALOG: { readonly [C in GuardCode]: GuardCodeEntry } = {
  OK: { guards: ['drawdown', 'leverage', 'liquidity', 'exposure'], passes: true, meaning: 'Within the limit.' },
  DRAWDOWN_LIMIT: {
    guards: ['drawdown'],
    passes: false,
    meaning:
      '(peak NAV − NAV) / peak NAV, peak over `RISK_DRAWDOWN_WINDOW`, would pass `RISK_MAX_DRAWDOWN` once the order paid its fee and spread.',
  },
  RISK_REDUCING: {
    guards: ['drawdown'],
    passes: false,
    meaning:
      'The risk engine is `reducing` (drawdown beyond `RISK_MAX_DRAWDOWN`): only orders that lower exposure pass.',
  },
  RISK_HALTED: {
    guards: ['drawdown'],
    passes: false,
    meaning: 'The risk engine is `halted` (killed): no order of a cycle passes; a command’s reduce-only close does.',
  },
  LEVERAGE_LIMIT: {
    guards: ['leverage'],
    passes: false,
    meaning: 'Gross notional of all positions after the order / NAV would exceed `RISK_MAX_LEVERAGE`.',
  },
  LIQUIDITY_VOLUME: {
    guards: ['liquidity'],
    passes: false,
    meaning:
      'Order notional (with the cycle’s earlier orders in the symbol) / recent traded notional (volume × price) would exceed `RISK_MAX_VOLUME_FRACTION`.',
  },
  LIQUIDITY_DEPTH: {
    guards: ['liquidity'],
    passes: false,
    meaning:
      'Order quantity (with what the cycle’s earlier orders take on the same side) / visible depth on the side it takes would exceed `RISK_MAX_DEPTH_FRACTION`.',
  },
  LIQUIDITY_STALE: {
    guards: ['liquidity'],
    passes: false,
    meaning:
      'The symbol’s market data is older than `FEED_STALE_MS` (live feeds only): no liquidity to measure, so no new exposure; a reduce-only close still passes.',
  },
  LIQUIDITY_SCALED: {
    guards: ['liquidity'],
    passes: true,
    meaning: 'A reduce-only close beyond the liquidity limits: passed, at the smaller size in `metrics.allowedQty`.',
  },
  EXPOSURE_SYMBOL: {
    guards: ['exposure'],
    passes: false,
    meaning:
      '|symbol notional after| / NAV would exceed `RISK_MAX_SYMBOL_EXPOSURE` (also when the order’s costs would lift another symbol past it; the message names that symbol).',
  },
  EXPOSURE_TOTAL: {
    guards: ['exposure'],
    passes: false,
    meaning: '|net notional after (longs − shorts)| / NAV would exceed `RISK_MAX_TOTAL_EXPOSURE`.',
  },
  NAV_NOT_POSITIVE: {
    guards: ['leverage', 'exposure'],
    passes: false,
    meaning: 'NAV ≤ 0: ratios to NAV are meaningless, so only risk-reducing orders pass.',
  },
  INVALID_ORDER: {
    guards: ['drawdown', 'leverage', 'liquidity', 'exposure'],
    passes: false,
    meaning: 'The order or market data cannot be evaluated (bad qty, price, symbol mismatch); see the message.',
  },
};
