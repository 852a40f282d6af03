/**
 * The risk engine's decision (spec step 4): an order is approved only when all four guards pass —
 * drawdown, leverage, liquidity, exposure — and all four are always reported, in that order, for the
 * audit trail. Signing the approval is a separate step (../order-token.ts) so this stays a pure
 * function of the order, the account, the market and the limits.
 */
import type { MarketSnapshot } from '../market.js';
import type { OrderRequest } from '../orders.js';
import type { AccountSnapshot } from '../portfolio.js';
import type { GuardCheck, GuardName } from './check.js';
import { checkDrawdown } from './drawdown-guard.js';
import { checkExposure } from './exposure-guard.js';
import { checkLeverage } from './leverage-guard.js';
import { assertRiskLimits, DEFAULT_RISK_LIMITS } from './limits.js';
import type { RiskLimits } from './limits.js';
import { checkLiquidity } from './liquidity-guard.js';
import { computeImpact } from './order-impact.js';

// The one entry point for callers: the vocabulary they need comes with the engine.
export type { GuardCheck, GuardName } from './check.js';
export type { RiskLimits } from './limits.js';
export { DEFAULT_RISK_LIMITS, parseRiskLimits } from './limits.js';

export interface RiskContext {
  account: AccountSnapshot;
  /** The snapshot of the order's symbol from this cycle. */
  market: MarketSnapshot;
  /** Default DEFAULT_RISK_LIMITS; out-of-range limits throw a RangeError (a programming error). */
  limits?: RiskLimits;
}

export interface RiskDecision {
  approved: boolean;
  /** drawdown, leverage, liquidity, exposure — always all four, in this order. */
  checks: [GuardCheck, GuardCheck, GuardCheck, GuardCheck];
  /** The figures the guards judged; null when the order could not be evaluated. */
  impact: {
    price: number;
    /** Effective quantity (a reducing reduce-only order is capped at the position). */
    qty: number;
    notional: number;
    positionBefore: number;
    positionAfter: number;
    reducesPosition: boolean;
  } | null;
}

export function evaluateOrder(order: OrderRequest, ctx: RiskContext): RiskDecision {
  const limits = ctx.limits ?? DEFAULT_RISK_LIMITS;
  assertRiskLimits(limits);
  const result = computeImpact(order, ctx.account, ctx.market);
  if (!result.ok) {
    const refuse = (guard: GuardName): GuardCheck => ({
      guard,
      passed: false,
      code: 'INVALID_ORDER',
      value: null,
      limit: null,
      message: result.message,
      metrics: {},
    });
    return {
      approved: false,
      checks: [refuse('drawdown'), refuse('leverage'), refuse('liquidity'), refuse('exposure')],
      impact: null,
    };
  }
  const impact = result.impact;
  const checks: RiskDecision['checks'] = [
    checkDrawdown(impact, limits),
    checkLeverage(impact, limits),
    checkLiquidity(impact, limits),
    checkExposure(impact, limits),
  ];
  return {
    approved: checks.every((c) => c.passed),
    checks,
    impact: {
      price: impact.price,
      qty: impact.qty,
      notional: impact.notional,
      positionBefore: impact.positionBefore,
      positionAfter: impact.positionAfter,
      reducesPosition: impact.reducesPosition,
    },
  };
}
