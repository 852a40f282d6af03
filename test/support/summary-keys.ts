/**
 * The keys issue 9 requires in a simulation's summary.json, written out here (not imported from the
 * source) so the tests pin the documented contract; shared by the report and the CLI tests.
 */
export const REQUIRED_SUMMARY_KEYS = [
  'cycles',
  'from',
  'to',
  'total_return',
  'cagr',
  'volatility',
  'sharpe',
  'sortino',
  'max_drawdown',
  'max_drawdown_duration',
  'calmar',
  'trades',
  'win_rate',
  'profit_factor',
  'turnover',
  'fees',
  'funding',
  'exposure_time',
  'pnl_by_symbol',
  'pnl_by_strategy',
  'denials_by_guard',
] as const;
