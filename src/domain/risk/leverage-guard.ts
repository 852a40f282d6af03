/**
 * Leverage guard: gross notional of all positions after the order (Σ |notional|: a short counts as
 * much as a long, hedges do not offset), divided by the NAV after the order has paid its fee and
 * spread (./order-impact.ts navAfter), must stay within `maxLeverage` (or, if
 * already beyond it, not grow). Net directional exposure is the exposure guard's figure. Reduce-only
 * orders that shrink a position always pass; with NAV ≤ 0 nothing else does.
 */
import { fmt, withinLimit } from './check.js';
import type { GuardCheck } from './check.js';
import type { RiskLimits } from './limits.js';
import type { OrderImpact } from './order-impact.js';

export function checkLeverage(impact: OrderImpact, limits: Pick<RiskLimits, 'maxLeverage'>): GuardCheck {
  const limit = limits.maxLeverage;
  const nav = impact.navBefore;
  const navAfter = impact.navAfter;
  const before = nav > 0 ? impact.grossBefore / nav : null;
  const value = navAfter > 0 ? impact.grossAfter / navAfter : null;
  const metrics = {
    leverageBefore: before,
    leverageAfter: value,
    grossBefore: impact.grossBefore,
    grossAfter: impact.grossAfter,
    nav,
    navAfter,
    orderFee: impact.fee,
    orderCost: impact.cost,
  };
  const base = { guard: 'leverage', value, limit, metrics } as const;
  if (impact.reducesPosition)
    return { ...base, passed: true, code: 'OK', message: 'reduce-only order shrinks the position: exempt' };
  if (value === null || before === null)
    return {
      ...base,
      passed: false,
      code: 'NAV_NOT_POSITIVE',
      message: `NAV ${fmt(navAfter)} after the order's costs is not positive; only reduce-only orders pass`,
    };
  switch (withinLimit(value, before, limit)) {
    case 'within':
      return { ...base, passed: true, code: 'OK', message: `leverage ${fmt(value)} within ${fmt(limit)}` };
    case 'not_increased':
      return {
        ...base,
        passed: true,
        code: 'OK',
        message: `leverage ${fmt(value)} above ${fmt(limit)} but not increased (was ${fmt(before)})`,
      };
    case 'breach':
      return {
        ...base,
        passed: false,
        code: 'LEVERAGE_LIMIT',
        message: `leverage ${fmt(value)} after the order exceeds ${fmt(limit)}`,
      };
  }
}
