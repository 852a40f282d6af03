/**
 * Exposure guard: after the order, |position notional| in the order's symbol must stay within
 * `maxSymbolExposure` × NAV (the NAV after the order's fee and spread, ./order-impact.ts), and the net directional exposure over all symbols — |Σ signed notional|,
 * longs minus shorts — within `maxTotalExposure` × NAV (each may instead not grow when already beyond
 * its limit). Gross notional is the leverage guard's figure; this one lets a hedged book through and
 * stops a one-directional one. The symbol test is reported first.
 *
 * The order's fee and spread lower the NAV every other symbol's ratio divides by, so an order may not
 * take another symbol from within its limit to beyond it either (the 100,000-cycle runs saw a cycle's
 * later orders lift an earlier one's symbol from 0.49999 to 0.50029). A symbol the market already
 * took beyond its limit does not stop orders elsewhere: their costs move it by the fee's share (at
 * most +3.6e-4 in those runs), and refusing every other order until the market brings it back would
 * freeze the book for a figure the order did not cross. Reduce-only orders that shrink a
 * position always pass, even when closing one leg of a hedge raises the net figure, so the book can
 * always be wound down; with NAV ≤ 0 nothing else does.
 */
import { closestToLimit, fmt, withinLimit } from './check.js';
import type { GuardCheck } from './check.js';
import type { RiskLimits } from './limits.js';
import type { OrderImpact } from './order-impact.js';

export function checkExposure(
  impact: OrderImpact,
  limits: Pick<RiskLimits, 'maxSymbolExposure' | 'maxTotalExposure'>,
): GuardCheck {
  const nav = impact.navBefore;
  const navAfter = impact.navAfter;
  const symbol = impact.order.symbol;
  const ratio = (notional: number, n: number): number | null => (n > 0 ? notional / n : null);
  const symbolBefore = ratio(impact.symbolNotionalBefore, nav);
  const symbolAfter = ratio(impact.symbolNotionalAfter, navAfter);
  const totalBefore = ratio(Math.abs(impact.netBefore), nav);
  const totalAfter = ratio(Math.abs(impact.netAfter), navAfter);
  const metrics: Record<string, number | null> = {
    symbolExposureBefore: symbolBefore,
    symbolExposureAfter: symbolAfter,
    totalExposureBefore: totalBefore,
    totalExposureAfter: totalAfter,
    netNotionalBefore: impact.netBefore,
    netNotionalAfter: impact.netAfter,
    nav,
    navAfter,
  };

  if (symbolAfter === null || symbolBefore === null || totalAfter === null || totalBefore === null) {
    const base = { guard: 'exposure', value: null, limit: limits.maxSymbolExposure, metrics } as const;
    if (impact.reducesPosition)
      return { ...base, passed: true, code: 'OK', message: 'reduce-only order shrinks the position: exempt' };
    return {
      ...base,
      passed: false,
      code: 'NAV_NOT_POSITIVE',
      message: `NAV ${fmt(nav)} is not positive; only reduce-only orders pass`,
    };
  }

  const sym = { value: symbolAfter, limit: limits.maxSymbolExposure };
  const tot = { value: totalAfter, limit: limits.maxTotalExposure };
  const other = impact.largestOther;
  const otherBefore = other ? other.notional / nav : 0;
  const otherAfter = other ? other.notional / navAfter : 0;
  metrics.largestOtherExposureBefore = other ? otherBefore : null;
  metrics.largestOtherExposureAfter = other ? otherAfter : null;
  if (impact.reducesPosition) {
    return {
      guard: 'exposure',
      ...closestToLimit(sym, tot),
      metrics,
      passed: true,
      code: 'OK',
      message: 'reduce-only order shrinks the position: exempt',
    };
  }
  if (withinLimit(symbolAfter, symbolBefore, sym.limit) === 'breach') {
    return {
      guard: 'exposure',
      ...sym,
      metrics,
      passed: false,
      code: 'EXPOSURE_SYMBOL',
      message: `${symbol} exposure ${fmt(symbolAfter)}× NAV after the order exceeds ${fmt(sym.limit)}×`,
    };
  }
  if (other && otherBefore <= sym.limit && otherAfter > sym.limit) {
    return {
      guard: 'exposure',
      value: otherAfter,
      limit: sym.limit,
      metrics,
      passed: false,
      code: 'EXPOSURE_SYMBOL',
      message: `${other.symbol} exposure ${fmt(otherAfter)}× NAV once this ${symbol} order pays its fee and spread exceeds ${fmt(sym.limit)}× (was ${fmt(otherBefore)}×)`,
    };
  }
  if (withinLimit(totalAfter, totalBefore, tot.limit) === 'breach') {
    return {
      guard: 'exposure',
      ...tot,
      metrics,
      passed: false,
      code: 'EXPOSURE_TOTAL',
      message: `net exposure ${fmt(totalAfter)}× NAV after the order exceeds ${fmt(tot.limit)}× (was ${fmt(totalBefore)}×)`,
    };
  }
  return {
    guard: 'exposure',
    ...closestToLimit(sym, tot),
    metrics,
    passed: true,
    code: 'OK',
    message: `${symbol} exposure ${fmt(symbolAfter)}×, net ${fmt(totalAfter)}× NAV within limits`,
  };
}
