/**
 * The warning `tcs simulate` prints when one reason removed most of a strategy's signals (issue 34:
 * the defaults dropped nearly every signal of a user strategy while the summary said "Denied orders
 * 0"). Counted against the signals that asked for a change (all but `no_change`: a strategy repeating
 * "long" while long is not being filtered), and naming the variable that decides the reason. Only a
 * reason a variable decides is warned about: another agent winning the symbol (SYMBOL_ALREADY_SELECTED),
 * an agent weighted 0, a cycle that failed, errors and invalid signals (warned as they happen) are not
 * a setting to change; the funnel still counts them.
 */
import type { StrategyFunnel } from './signal-funnel-tally.js';

/** The share of a strategy's signals one reason must exceed to be warned about. */
export const FUNNEL_WARNING_SHARE = 0.5;

/** The configuration variable behind a reason (arbiter, allocator or risk guard code). */
const VARIABLE_OF: Readonly<Record<string, string>> = {
  BELOW_MIN_CONFIDENCE: 'ARBITER_MIN_CONFIDENCE',
  MAX_ORDERS_REACHED: 'ARBITER_MAX_ORDERS',
  WITHIN_BAND: 'NO_TRADE_BAND',
  COOLDOWN: 'COOLDOWN_AFTER_STOP',
  DRAWDOWN_BREACH: 'RISK_MAX_DRAWDOWN',
  NO_HEADROOM: 'RISK_MAX_SYMBOL_EXPOSURE / RISK_MAX_TOTAL_EXPOSURE / RISK_MAX_LEVERAGE',
  DRAWDOWN_LIMIT: 'RISK_MAX_DRAWDOWN',
  RISK_REDUCING: 'RISK_MAX_DRAWDOWN',
  LEVERAGE_LIMIT: 'RISK_MAX_LEVERAGE',
  LIQUIDITY_VOLUME: 'RISK_MAX_VOLUME_FRACTION',
  LIQUIDITY_DEPTH: 'RISK_MAX_DEPTH_FRACTION',
  LIQUIDITY_STALE: 'FEED_STALE_MS',
  EXPOSURE_SYMBOL: 'RISK_MAX_SYMBOL_EXPOSURE',
  EXPOSURE_TOTAL: 'RISK_MAX_TOTAL_EXPOSURE',
};

/** One line per strategy whose largest reason removed more than FUNNEL_WARNING_SHARE of its signals. */
export function funnelWarnings(funnel: Readonly<Record<string, StrategyFunnel>>): string[] {
  const lines: string[] = [];
  for (const [agent, f] of Object.entries(funnel)) {
    const unchanged = Object.values(f.no_change).reduce((n, c) => n + c, 0);
    const asked = f.signals - unchanged;
    if (asked <= 0) continue;
    const removed: [string, string, number][] = [
      ...Object.entries(f.skipped).map(([r, n]): [string, string, number] => ['skipped', r, n]),
      ...Object.entries(f.risk_denied).map(([r, n]): [string, string, number] => ['denied by the risk engine', r, n]),
    ];
    // The largest first; a tie goes to the code that sorts first, so the line does not vary.
    removed.sort((a, b) => b[2] - a[2] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    const largest = removed[0];
    if (largest === undefined) continue;
    const [what, reason, n] = largest;
    if (!(n > FUNNEL_WARNING_SHARE * asked)) continue;
    const variable = VARIABLE_OF[reason];
    if (variable === undefined) continue;
    const share = ((n / asked) * 100).toFixed(1);
    lines.push(
      `warning: ${agent}: ${n} of ${asked} signals that asked for a change (${share} %) were ${what} as ${reason}; ` +
        `the variable that decides it: ${variable} (summary.json signal_funnel; docs/reference/risk-codes.md)`,
    );
  }
  return lines;
}
