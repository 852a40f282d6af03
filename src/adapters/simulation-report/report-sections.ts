/**
 * The report's comparison tables (docs/strategies/simulation-metrics.md): the strategy beside its buy-and-hold
 * benchmark, the monthly returns (a row per year, a column per month and the year's total), the
 * trade statistics for the run, each symbol and each strategy, and how the trades ended.
 */
import type { RunSummary } from '../../domain/performance/run-summary.js';
import type { TradeStats } from '../../domain/performance/trade-stats.js';
import { htmlTable } from './html.js';
import { money, pct } from './metric-rows.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A cell left empty where a figure does not exist (rather than n/a in every uncovered month). */
const pctOrBlank = (x: number | null): string => (x === null ? '' : pct(x));

export function benchmarkTable(s: RunSummary): string {
  const b = s.benchmark;
  const rows = [
    ['Strategy', pct(s.total_return), pct(s.max_drawdown), ''],
    [
      'Buy and hold, equal weight',
      pct(b.equal_weight.return),
      pct(b.equal_weight.max_drawdown),
      pct(b.equal_weight.excess_return),
    ],
    ...Object.entries(b.by_symbol).map(([symbol, x]) => [
      symbol,
      pct(x.return),
      pct(x.max_drawdown),
      pct(x.excess_return),
    ]),
  ];
  return htmlTable(['', 'Return', 'Max drawdown', 'Strategy’s excess return'], rows, { id: 'benchmark' });
}

export function monthlyTable(s: RunSummary): string {
  if (s.monthly_returns.length === 0) return '<p>No cycles.</p>';
  const rows = s.monthly_returns.map((y) => [String(y.year), ...y.months.map(pctOrBlank), pctOrBlank(y.total)]);
  return htmlTable(['Year', ...MONTHS, 'Year'], rows, { id: 'monthly-returns' });
}

function statsRow(label: string, t: TradeStats): string[] {
  return [
    label,
    String(t.trades),
    String(t.wins),
    String(t.losses),
    money(t.avg_win),
    money(t.avg_loss),
    money(t.best_trade),
    money(t.worst_trade),
    t.avg_holding_human ?? 'n/a',
  ];
}

export function tradeStatsTable(s: RunSummary): string {
  const rows = [
    statsRow('all', s.trade_stats),
    ...Object.entries(s.trade_stats_by_symbol).map(([k, t]) => statsRow(k, t)),
    ...Object.entries(s.trade_stats_by_strategy).map(([k, t]) => statsRow(`strategy ${k}`, t)),
  ];
  const header = ['Trades of', 'Trades', 'Wins', 'Losses', 'Avg win', 'Avg loss', 'Best', 'Worst', 'Avg holding'];
  return htmlTable(header, rows, { id: 'trade-stats' });
}

export function tradeExitsTable(s: RunSummary): string {
  const total = s.trade_stats.trades;
  const rows = Object.entries(s.trade_stats.exits).map(([exit, n]) => [
    exit,
    String(n),
    total > 0 ? pct(n / total) : 'n/a',
  ]);
  if (rows.length === 0) return '<table id="trade-exits"><tbody><tr><td>No closed trade.</td></tr></tbody></table>';
  return htmlTable(['Ended by', 'Trades', 'Share'], rows, { id: 'trade-exits' });
}
