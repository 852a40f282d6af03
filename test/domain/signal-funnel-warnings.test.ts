/**
 * The funnel's warning (issue 34, item 3): one line per strategy whose largest reason a variable
 * decides removed more than half of the signals that asked for a change; signals that changed
 * nothing are not in the count, and reasons no variable decides are not warned about.
 */
import { describe, expect, it } from 'vitest';
import type { StrategyFunnel } from '../../src/domain/signal-funnel-tally.js';
import { funnelWarnings } from '../../src/domain/signal-funnel-warnings.js';

const funnel = (f: Partial<StrategyFunnel>): StrategyFunnel => ({
  signals: 0,
  filled: 0,
  ordered: 0,
  refused: {},
  risk_denied: {},
  skipped: {},
  no_change: {},
  invalid: 0,
  errored: 0,
  ...f,
});

describe('funnelWarnings', () => {
  it('names the variable of a guard that denied most signals, holding signals left out of the count', () => {
    const lines = funnelWarnings({
      late: funnel({ signals: 1000, filled: 4, risk_denied: { DRAWDOWN_LIMIT: 6 }, no_change: { HOLDING: 990 } }),
    });
    expect(lines).toEqual([
      'warning: late: 6 of 10 signals that asked for a change (60.0 %) were denied by the risk engine as DRAWDOWN_LIMIT; the variable that decides it: RISK_MAX_DRAWDOWN (summary.json signal_funnel; docs/reference/risk-codes.md)',
    ]);
  });

  it('is silent at half or less, for a reason no variable decides, and for a strategy that only holds', () => {
    expect(
      funnelWarnings({
        half: funnel({ signals: 10, filled: 5, skipped: { WITHIN_BAND: 5 } }),
        outranked: funnel({ signals: 7, skipped: { SYMBOL_ALREADY_SELECTED: 7 } }),
        holder: funnel({ signals: 5, no_change: { HOLDING: 4, NOTHING_TO_EXIT: 1 } }),
        // Nothing skipped or denied at all (a fill each, the last order refused by the venue).
        trader: funnel({ signals: 36, filled: 34, refused: { VENUE_REJECTED: 1 }, no_change: { NOTHING_TO_EXIT: 1 } }),
      }),
    ).toEqual([]);
  });
});
