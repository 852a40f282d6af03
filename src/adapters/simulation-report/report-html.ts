/**
 * report.html: one self-contained page, the run's data embedded as JSON and lightweight-charts
 * inlined, so it opens from a file, offline, and asks no host for anything (a Content-Security-
 * Policy forbids every fetch; system fonts only). The tables are plain HTML written here, so they
 * read and print even without scripts; the charts are drawn by REPORT_SCRIPT.
 */
import type { RunSummary } from '../../domain/performance/run-summary.js';
import type { RecentFill, ReportSeries } from '../../domain/performance/tracker.js';
import { chartBundleSource } from './chart-bundle.js';
import { escapeHtml, htmlTable, scriptSafeJson } from './html.js';
import {
  COST_HEADERS,
  costRows,
  FUNNEL_HEADERS,
  funnelRows,
  metricRows,
  money,
  num,
  STRATEGY_PNL_HEADERS,
  strategyPnlRows,
  SYMBOL_PNL_HEADERS,
  symbolPnlRows,
} from './metric-rows.js';
import {
  benchmarkTable,
  monthlyTable,
  returnDistributionSvg,
  roundTripsTable,
  tradeExitsTable,
  tradeStatsTable,
  weeklyReturnsTable,
  worstDrawdownsTable,
} from './report-sections.js';
import { REPORT_SCRIPT } from './report-script.js';

export interface ReportInput {
  title: string;
  summary: RunSummary;
  series: ReportSeries;
  /** Run settings shown under the title (seed, data, strategies…), in the given order. */
  settings?: Record<string, string>;
}

function tradeRows(trades: readonly RecentFill[]): string[][] {
  return [...trades]
    .reverse()
    .map((t) => [
      new Date(t.ts).toISOString().replace('T', ' ').slice(0, 19),
      t.symbol,
      t.side,
      String(t.qty),
      num(t.price, 4),
      money(t.fee),
      money(t.realized),
      t.strategy ?? t.kind,
    ]);
}

const STYLE = `
  :root { color-scheme: light; }
  body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2933; background: #fff; margin: 24px auto; max-width: 1100px; padding: 0 16px; }
  h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
  .settings { color: #52606d; margin: 0 0 12px; } .settings span { margin-right: 16px; }
  .partial { background: #fff4e5; border: 1px solid #f0b429; padding: 6px 10px; border-radius: 4px; }
  .chart { height: 300px; position: relative; } .chart.small { height: 200px; }
  #round-trips { font-size: 12px; } svg { max-width: 100%; height: auto; } details { margin: 12px 0; }
  .grid { display: grid; grid-template-columns: 1fr 1fr; gap: 0 32px; }
  table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
  th, td { padding: 3px 8px; border-bottom: 1px solid #eef1f4; text-align: left; } .n { text-align: right; }
  th { background: #f6f8fa; font-weight: 600; }
  .legend { color: #52606d; font-size: 12px; }
  @media print { body { margin: 0; max-width: none; } .chart { break-inside: avoid; } h2 { break-after: avoid; } table { break-inside: auto; } }
`;

export function renderReportHtml(input: ReportInput): string {
  const { summary: s, series } = input;
  const settings = Object.entries(input.settings ?? {})
    .map(([k, v]) => `<span><b>${escapeHtml(k)}</b> ${escapeHtml(v)}</span>`)
    .join('');
  const symbols = Object.keys(series.prices);
  const priceCharts = symbols
    .map((sym, i) => `<h3>${escapeHtml(sym)}</h3><div class="chart small" id="price-chart-${i}"></div>`)
    .join('\n');
  const bySymbol = symbolPnlRows(s);
  const costs = costRows(s);
  const byStrategy = strategyPnlRows(s);
  const funnel = funnelRows(s);
  const denials = Object.entries(s.denials_by_guard).map(([g, n]) => [g, String(n)]);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(input.title)}</h1>
<p class="settings">${settings}</p>
${s.partial ? '<p class="partial">Partial run: stopped before its end; the figures cover the cycles that ran.</p>' : ''}
<h2>Equity (NAV) and buy and hold</h2>
<p class="legend">Blue: the strategy's NAV. Grey: the starting cash split equally across the symbols, bought at their first price and held (no fees, no funding).</p>
<div class="chart" id="equity-chart"></div>
<h2>Benchmark: buy and hold</h2>
${benchmarkTable(s)}
<h2>Monthly returns (UTC month ends)</h2>
${monthlyTable(s)}
<h2>Drawdown from the running peak (%)</h2>
<div class="chart small" id="drawdown-chart"></div>
<h2>Worst drawdowns</h2>
${worstDrawdownsTable(s)}
<h2>Daily returns (%)</h2>
<div class="chart small" id="daily-chart"></div>
<h2>Rolling 30-day Sharpe and volatility (annualised)</h2>
${
  series.rollingSharpe.length + series.rollingVolatility.length > 0
    ? '<p class="legend">Each point covers the 30 UTC days before it; none until 30 days have run.</p>\n<div class="grid"><div class="chart small" id="rolling-sharpe-chart"></div><div class="chart small" id="rolling-volatility-chart"></div></div>'
    : `<p id="rolling-none">Needs more than 30 days of returns; this run has ${s.daily_returns.days}.</p>`
}
<h2>Distribution of daily returns</h2>
${returnDistributionSvg(series.returnHistogram)}
<details><summary>Weekly returns (${s.weekly_returns.length} weeks)</summary>
${weeklyReturnsTable(s)}
</details>
<h2>Gross exposure / NAV (×)</h2>
<div class="chart small" id="exposure-chart"></div>
<h2>Prices and fills</h2>
<p class="legend">▲ buys, ▼ sells, ● forced (liquidation, deleverage, the risk engine's closes). Series downsampled to at most 2,000 points (each bucket keeps its low and high); every chart opens on the whole run: drag to pan, drag the time axis to zoom, double-click it to reset. Fills are grouped into at most 100 time buckets per symbol: one marker per bucket and side, labelled with its number of fills when more than one.</p>
${priceCharts}
<div class="grid">
<section><h2>Summary</h2>
${htmlTable(['Metric', 'Value'], metricRows(s))}
</section>
<section><h2>Denied orders by guard</h2>
${denials.length > 0 ? htmlTable(['Guard', 'Denials'], denials) : '<p>None.</p>'}
<h2>PnL by strategy</h2>
${htmlTable(STRATEGY_PNL_HEADERS, byStrategy)}
</section>
</div>
<h2>Signal funnel: what became of each strategy's signals</h2>
<p class="legend">Each signal counted once, by the furthest its orders got. Skipped: by the arbiter's or the allocator's reason; no change: it asked for what was already so. Codes: docs/reference/risk-codes.md.</p>
${funnel.length > 0 ? htmlTable(FUNNEL_HEADERS, funnel, { id: 'signal-funnel', align: 'lrrrrrrrrrl' }) : '<p>No strategy.</p>'}
<h2>Trade statistics (round trips, net of fees)</h2>
${tradeStatsTable(s)}
<h2>How trades ended</h2>
${tradeExitsTable(s)}
<h2>PnL by symbol</h2>
${htmlTable(SYMBOL_PNL_HEADERS, bySymbol)}
<h2>Costs: fees, spread and slippage</h2>
<p class="legend">Spread: what taker fills paid beyond the mid of the book they met (half the spread, the walk through the book), before slippage; slippage: SLIPPAGE_BPS beyond that. Both are already in the fill prices, so in Trading PnL; fees are charged apart. Maker fills pay neither.</p>
${costs.length > 0 ? htmlTable(COST_HEADERS, costs) : '<p>No fills.</p>'}
<h2>Round trips</h2>
<p class="legend">A trade from flat back to flat (or to a flip), at the volume-weighted prices of the fills that opened and closed it. Net PnL is after fees, before funding. MAE and MFE: the worst and best trading PnL while it was open, at each fill and each cycle's mark.</p>
${roundTripsTable(series.roundTrips, s.trades)}
<h2>Last ${series.lastTrades.length} fills</h2>
${htmlTable(['Time (UTC)', 'Symbol', 'Side', 'Qty', 'Price', 'Fee', 'Realized', 'Strategy'], tradeRows(series.lastTrades), { align: 'lllrrrrl' })}
<p class="legend">Metric definitions: docs/strategies/simulation-metrics.md. Charts: TradingView Lightweight Charts™ (Apache-2.0).</p>
<script type="application/json" id="run-data">${scriptSafeJson({ summary: s, series })}</script>
<script>${chartBundleSource()}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}
