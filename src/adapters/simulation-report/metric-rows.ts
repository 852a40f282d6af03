/**
 * The summary as labelled, formatted rows: one list shared by the text table printed at the end of
 * a run and the report's metrics table, so both always show the same figures the same way.
 */
import type { RunSummary, SymbolCosts } from '../../domain/performance/run-summary.js';

const NONE = 'n/a';

export const pct = (x: number | null): string => (x === null ? NONE : `${(x * 100).toFixed(2)} %`);
export const money = (x: number | null): string =>
  x === null ? NONE : x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export const num = (x: number | null, digits = 2): string => (x === null ? NONE : x.toFixed(digits));

/** A year of a 24/7 market: a shorter run's annualised figures are extrapolations and say so. */
const YEAR_DAYS = 365;

/** The label of an annualised figure: "(annual", or "(annualised, 42-day run" on a short run. */
function annual(label: string, s: RunSummary): string {
  return s.run_days >= YEAR_DAYS || s.cycles === 0
    ? `${label} (annual`
    : `${label} (annualised, ${s.run_days < 1 ? s.run_days.toFixed(2) : Math.round(s.run_days)}-day run`;
}

export function metricRows(s: RunSummary): [string, string][] {
  return [
    ['Period', `${s.from ?? NONE} → ${s.to ?? NONE}${s.partial ? ' (partial: stopped early)' : ''}`],
    ['Cycles', `${s.cycles} × ${s.cycle_seconds} s`],
    ['Starting cash', money(s.starting_cash)],
    ['Final NAV', money(s.final_nav)],
    ['PnL', money(s.pnl)],
    ['Total return', pct(s.total_return)],
    ['Buy and hold (equal weight)', pct(s.benchmark.equal_weight.return)],
    ['Excess over buy and hold', pct(s.benchmark.equal_weight.excess_return)],
    [`${annual('CAGR', s)})`, pct(s.cagr)],
    [`${annual('Volatility', s)})`, pct(s.volatility)],
    [`${annual('Sharpe', s)}, rf 0)`, num(s.sharpe)],
    [`${annual('Sortino', s)}, target 0)`, num(s.sortino)],
    ['Max drawdown', pct(s.max_drawdown)],
    ['Longest drawdown', s.max_drawdown_duration_human],
    [`${annual('Calmar', s)})`, num(s.calmar)],
    [`${annual('Alpha vs buy and hold', s)})`, pct(s.alpha)],
    ['Beta vs buy and hold', num(s.beta)],
    [
      'Daily returns (mean, std, best, worst)',
      `${pct(s.daily_returns.mean)}, ${pct(s.daily_returns.std)}, ${pct(s.daily_returns.best)}, ${pct(s.daily_returns.worst)}`,
    ],
    ['Positive days', `${pct(s.daily_returns.positive_share)} of ${s.daily_returns.days}`],
    ['Trades (round trips)', String(s.trades)],
    ['Fills', `${s.fills} (${s.liquidations} liquidations)`],
    [
      'Protective exits',
      `${s.exits_by_reason.stop_loss} stop-loss, ${s.exits_by_reason.trailing_stop} trailing, ${s.exits_by_reason.take_profit} take-profit`,
    ],
    ['Win rate', pct(s.win_rate)],
    ['Profit factor', num(s.profit_factor)],
    ['Expectancy (average net PnL per trade)', money(s.avg_trade_pnl)],
    ['Expectancy ratio (per unit of average loss)', num(s.expectancy_ratio)],
    ['Average win / loss', `${money(s.trade_stats.avg_win)} / ${money(s.trade_stats.avg_loss)}`],
    ['Best / worst trade', `${money(s.trade_stats.best_trade)} / ${money(s.trade_stats.worst_trade)}`],
    ['Average holding time', s.trade_stats.avg_holding_human ?? NONE],
    ['Turnover (run, × avg NAV)', num(s.turnover)],
    ['Fees', money(s.fees)],
    ['Funding', money(s.funding)],
    ['Exposure time', pct(s.exposure_time)],
    ['Gross exposure / NAV (mean, max)', `${num(s.avg_gross_exposure)}, ${num(s.max_gross_exposure)}`],
    ['Denied orders', String(s.denials)],
    ['Agent errors', String(s.agent_errors)],
    ['PnL unexplained', money(s.pnl_unexplained)],
  ];
}

/** PnL per symbol: headers and formatted rows, for the text table and the report alike. */
export const SYMBOL_PNL_HEADERS = ['Symbol', 'Net PnL', 'Trading', 'Fees', 'Funding', 'Fills', 'Volume'];
export function symbolPnlRows(s: RunSummary): string[][] {
  return Object.entries(s.pnl_by_symbol).map(([k, p]) => [
    k,
    money(p.net),
    money(p.trading),
    money(p.fees),
    money(p.funding),
    String(p.fills),
    money(p.volume),
  ]);
}

/** Costs per symbol and in total (fees, spread vs mid, slippage): headers and formatted rows. */
export const COST_HEADERS = ['Symbol', 'Fees', 'Spread', 'Slippage', 'Total'];
export function costRows(s: RunSummary): string[][] {
  const row = (name: string, c: SymbolCosts) => [
    name,
    money(c.fees),
    money(c.spread),
    money(c.slippage),
    money(c.total),
  ];
  const rows = Object.entries(s.costs.by_symbol).map(([symbol, c]) => row(symbol, c));
  return rows.length > 0 ? [...rows, row('Total', s.costs)] : [];
}

/** PnL per strategy: headers and formatted rows. */
export const STRATEGY_PNL_HEADERS = ['Strategy', 'Net PnL', 'Trading', 'Fees', 'Funding'];
export function strategyPnlRows(s: RunSummary): string[][] {
  return Object.entries(s.pnl_by_strategy).map(([k, p]) => [
    k,
    money(p.net),
    money(p.trading),
    money(p.fees),
    money(p.funding),
  ]);
}

/** The signal funnel per strategy: what became of its signals, and the reasons, largest first. */
export const FUNNEL_HEADERS = [
  'Strategy',
  'Signals',
  'Filled',
  'Ordered',
  'Risk-denied',
  'Refused',
  'Skipped',
  'No change',
  'Invalid',
  'Errors',
  'Reasons',
];
export function funnelRows(s: RunSummary): string[][] {
  const total = (r: Record<string, number>) => Object.values(r).reduce((n, c) => n + c, 0);
  return Object.entries(s.signal_funnel).map(([k, f]) => {
    const reasons = [
      ...Object.entries(f.risk_denied),
      ...Object.entries(f.refused),
      ...Object.entries(f.skipped),
      ...Object.entries(f.no_change),
    ].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return [
      k,
      String(f.signals),
      String(f.filled),
      String(f.ordered),
      String(total(f.risk_denied)),
      String(total(f.refused)),
      String(total(f.skipped)),
      String(total(f.no_change)),
      String(f.invalid),
      String(f.errored),
      reasons.map(([r, n]) => `${r} ${n}`).join(', '),
    ];
  });
}
