/**
 * Drawdown guard: no new risk once NAV has fallen more than `maxDrawdown` below its reference (the
 * highest NAV over RISK_DRAWDOWN_WINDOW). Only reduce-only orders that shrink a position pass in a
 * breach, so the book can still be wound down. An order is judged on the NAV it leaves: after this
 * cycle's earlier orders and its own fee and spread (./order-impact.ts navAfter), so an order approved
 * at 9.99 % cannot end the account beyond 10 % by what it pays to fill. It also speaks for the risk engine's trading state
 * (./trading-state.ts): in `reducing` only orders that lower exposure pass (RISK_REDUCING), in
 * `halted` no order of a cycle passes (RISK_HALTED) and a command's reduce-only close still does.
 */
import { fmt } from './check.js';
import type { GuardCheck } from './check.js';
import type { RiskLimits } from './limits.js';
import type { OrderImpact } from './order-impact.js';
import type { RiskTradingState } from './trading-state.js';

/** The engine's trading state and what the order is for (a cycle's decision, or an operator's command). */
export interface TradingStateContext {
  state: RiskTradingState;
  purpose: 'cycle' | 'command';
  /** Why the state was entered, for the denial's message. */
  reason?: string;
}

/** Fractional fall from peak; a stale peak below NAV counts as NAV, no peak left at all as 1 (100 %). */
export function drawdown(nav: number, peakNav: number): number {
  const peak = Math.max(peakNav, nav);
  return peak > 0 ? (peak - nav) / peak : 1;
}

export function checkDrawdown(
  impact: OrderImpact,
  limits: Pick<RiskLimits, 'maxDrawdown'>,
  trading?: TradingStateContext,
): GuardCheck {
  const before = drawdown(impact.nav, impact.peakNav);
  const after = drawdown(impact.navAfter, impact.peakNav);
  // A close is judged (and reported) on the account as it is: its costs never refuse it.
  const value = impact.reducesPosition ? before : after;
  const limit = limits.maxDrawdown;
  const metrics = {
    drawdown: value,
    drawdownBefore: before,
    drawdownAfter: after,
    nav: impact.nav,
    navAfter: impact.navAfter,
    peakNav: impact.peakNav,
  };
  const base = { guard: 'drawdown', value, limit, metrics } as const;
  const why = trading?.reason ? ` (${trading.reason})` : '';
  if (trading?.state === 'halted' && !(trading.purpose === 'command' && impact.reducesPosition))
    return {
      ...base,
      passed: false,
      code: 'RISK_HALTED',
      message: `risk state halted${why}: nothing but cancels and an operator's reduce-only closes`,
    };
  if (trading?.state === 'reducing' && !impact.reducesPosition)
    return {
      ...base,
      passed: false,
      code: 'RISK_REDUCING',
      message: `risk state reducing${why}: only orders that lower exposure pass`,
    };
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
    message:
      before > limit
        ? `drawdown ${pct(before)} from peak NAV ${fmt(impact.peakNav)} exceeds ${pct(limit)}; only reduce-only orders pass`
        : `drawdown ${pct(value)} from peak NAV ${fmt(impact.peakNav)} once the order pays its fee and spread exceeds ${pct(limit)} (${pct(before)} before it)`,
  };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(2)}%`;
}
