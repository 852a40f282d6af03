/**
 * Drawdown guard: no new risk once NAV has fallen more than `maxDrawdown` below its peak (trailing:
 * the peak is the highest NAV seen). Only reduce-only orders that shrink a position pass in a
 * breach, so the book can still be wound down.
 */
import { fmt } from './check.js';
import type { GuardCheck } from './check.js';
import type { RiskLimits } from './limits.js';
import type { OrderImpact } from './order-impact.js';

/** Fractional fall from peak; a stale peak below NAV counts as NAV, no peak left at all as 1 (100 %). */
export function drawdown(nav: number, peakNav: number): number {
  const peak = Math.max(peakNav, nav);
  return peak > 0 ? (peak - nav) / peak : 1;
}

export function checkDrawdown(impact: OrderImpact, limits: Pick<RiskLimits, 'maxDrawdown'>): GuardCheck {
  const value = drawdown(impact.nav, impact.peakNav);
  const limit = limits.maxDrawdown;
  const metrics = { drawdown: value, nav: impact.nav, peakNav: impact.peakNav };
  const base = { guard: 'drawdown', value, limit, metrics } as const;
  if (impact.reducesPosition)
    return {
      ...base,
      passed: true,
      code: 'OK',
      message: `reduce-only order shrinks the position: exempt (drawdown ${pct(value)})`,
    };
  if (value <= limit)
    return { ...base, passed: true, code: 'OK', message: `drawdown ${pct(value)} within ${pct(limit)}` };
  return {
    ...base,
    passed: false,
    code: 'DRAWDOWN_LIMIT',
    message: `drawdown ${pct(value)} from peak NAV ${fmt(impact.peakNav)} exceeds ${pct(limit)}; only reduce-only orders pass`,
  };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(2)}%`;
}
