/**
 * The report's comparison tables (docs/strategies/simulation-metrics.md): the strategy beside its buy-and-hold
 * benchmark, the monthly returns (a row per year, a column per month and the year's total), the
 * trade statistics for the run, each symbol and each strategy, how the trades ended, the worst
 * drawdowns, the last round trips, the weekly returns and the distribution of daily returns.
 */
import type { HistogramBin } from '../../domain/performance/daily-returns.js';
import type { RoundTrip } from '../../domain/performance/round-trips.js';
import type { RunSummary } from '../../domain/performance/run-summary.js';
import type { TradeStats } from '../../domain/performance/trade-stats.js';
import { escapeHtml, htmlTable } from './html.js';
import { money, num, pct } from './metric-rows.js';

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

export function worstDrawdownsTable(s: RunSummary): string {
  if (s.worst_drawdowns.length === 0) return '<p id="worst-drawdowns">No drawdown.</p>';
  const day = (iso: string | null) => (iso === null ? 'not recovered' : iso.replace('T', ' ').slice(0, 16));
  const rows = s.worst_drawdowns.map((d, i) => [
    String(i + 1),
    pct(-d.depth),
    day(d.start),
    day(d.valley),
    day(d.recovery),
    d.duration_human,
  ]);
  return htmlTable(['#', 'Depth', 'Peak (UTC)', 'Valley', 'Recovered', 'Peak to recovery'], rows, {
    id: 'worst-drawdowns',
    align: 'rrlllr',
  });
}

/** The last round trips, newest first: what a trader reads to see how the strategy trades. */
export function roundTripsTable(trips: readonly RoundTrip[], total: number): string {
  if (trips.length === 0) return '<p id="round-trips">No closed trade.</p>';
  const time = (iso: string) => iso.replace('T', ' ').slice(0, 16);
  const rows = [...trips]
    .reverse()
    .map((t) => [
      t.symbol,
      t.side,
      time(t.entry_time),
      num(t.entry_price, 4),
      time(t.exit_time),
      num(t.exit_price, 4),
      t.duration_human,
      money(t.pnl),
      money(t.fees),
      money(t.mae),
      money(t.mfe),
      t.exit,
      t.strategy,
    ]);
  const header = [
    'Symbol',
    'Side',
    'Entry (UTC)',
    'Entry price',
    'Exit',
    'Exit price',
    'Held',
    'Net PnL',
    'Fees',
    'MAE',
    'MFE',
    'Ended by',
    'Strategy',
  ];
  const note =
    total > trips.length
      ? `<p class="legend">The last ${trips.length} of ${total} round trips; round-trips.csv lists them all.</p>`
      : '';
  return `${note}${htmlTable(header, rows, { id: 'round-trips', align: 'llllrlrrrrrll' })}`;
}

export function weeklyReturnsTable(s: RunSummary): string {
  if (s.weekly_returns.length === 0) return '<p id="weekly-returns">No cycles.</p>';
  const rows = s.weekly_returns.map((w) => [w.week, pctOrBlank(w.return)]);
  return htmlTable(['Week of (Monday, UTC)', 'Return'], rows, { id: 'weekly-returns' });
}

/**
 * The distribution of daily returns as an inline SVG bar chart (no script: it prints and reads
 * from the file alone). Bars are the histogram's bins, from the worst day on the left to the best.
 */
export function returnDistributionSvg(bins: readonly HistogramBin[]): string {
  if (bins.length === 0) return '<p id="return-distribution">No daily return.</p>';
  const width = 640;
  const height = 180;
  const pad = 24;
  const most = Math.max(...bins.map((b) => b.count));
  const barWidth = (width - 2 * pad) / bins.length;
  const bars = bins
    .map((b, i) => {
      const h = most > 0 ? ((height - 2 * pad) * b.count) / most : 0;
      const x = pad + i * barWidth;
      const colour = b.to <= 0 ? '#dc2626' : b.from >= 0 ? '#16a34a' : '#9ca3af';
      return `<rect x="${x.toFixed(1)}" y="${(height - pad - h).toFixed(1)}" width="${(barWidth - 1).toFixed(1)}" height="${h.toFixed(1)}" fill="${colour}"><title>${escapeHtml(`${pct(b.from)} to ${pct(b.to)}: ${b.count} days`)}</title></rect>`;
    })
    .join('');
  const labels =
    `<text x="${pad}" y="${height - 6}" font-size="11" fill="#52606d">${escapeHtml(pct(bins[0]!.from))}</text>` +
    `<text x="${width - pad}" y="${height - 6}" font-size="11" fill="#52606d" text-anchor="end">${escapeHtml(pct(bins[bins.length - 1]!.to))}</text>` +
    `<text x="${pad}" y="${pad - 8}" font-size="11" fill="#52606d">${most} days</text>`;
  return `<svg id="return-distribution" role="img" aria-label="Distribution of daily returns" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${bars}${labels}</svg>`;
}
