/**
 * What the report answers beyond the headline (issue 34, item 6): every round trip in
 * round-trips.csv summing to the trade statistics, the worst drawdowns, weekly returns, the
 * distribution of daily returns, alpha and beta, and annualised figures marked as extrapolations on
 * a run shorter than a year.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { metricRows } from '../../../src/adapters/simulation-report/metric-rows.js';
import { recordRun } from './record-run.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-report-questions-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const csv = (path: string) =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => l.split(','));

describe('the report answers the real questions', () => {
  // 20,000 one-minute cycles: about 14 days, a few hundred round trips.
  const { summary, files } = recordRun(join(root, 'run'), { cycles: 20_000, seed: 8, tradeChance: 0.03 });
  const html = readFileSync(files.report, 'utf8');

  it('round-trips.csv has every closed trade, and they sum to the trade statistics', () => {
    const [header, ...rows] = csv(files.roundTrips);
    expect(header).toEqual([
      'symbol',
      'strategy',
      'side',
      'entry_time',
      'entry_price',
      'exit_time',
      'exit_price',
      'qty',
      'duration_seconds',
      'pnl',
      'fees',
      'exit',
      'mae',
      'mfe',
    ]);
    expect(summary.trades).toBeGreaterThan(100);
    expect(rows).toHaveLength(summary.trades);
    const pnl = rows.reduce((sum, r) => sum + Number(r[9]), 0);
    expect(pnl / rows.length).toBeCloseTo(summary.avg_trade_pnl!, 4);
    expect(Math.max(...rows.map((r) => Number(r[9])))).toBeCloseTo(summary.trade_stats.best_trade!, 6);
    for (const r of rows) {
      expect(Number(r[12]), 'MAE ≤ 0').toBeLessThanOrEqual(0);
      expect(Number(r[13]), 'MFE ≥ 0').toBeGreaterThanOrEqual(0);
      expect(Date.parse(r[5]!)).toBeGreaterThanOrEqual(Date.parse(r[3]!));
    }
  });

  it('the page lists the last round trips, the worst drawdowns, weekly returns and the distribution', () => {
    const tableRows = (id: string) => {
      const table = html.slice(html.indexOf(`id="${id}"`));
      return table.slice(0, table.indexOf('</table>')).split('<tr>').length - 2;
    };
    expect(tableRows('round-trips')).toBe(Math.min(100, summary.trades));
    expect(html).toContain(`The last 100 of ${summary.trades} round trips`);
    expect(summary.worst_drawdowns.length).toBe(5);
    expect(tableRows('worst-drawdowns')).toBe(5);
    expect(summary.worst_drawdowns[0]!.depth).toBeCloseTo(summary.max_drawdown, 8);
    expect(summary.weekly_returns.length).toBeGreaterThanOrEqual(2);
    expect(tableRows('weekly-returns')).toBe(summary.weekly_returns.length);
    expect(html).toMatch(/<svg id="return-distribution"[^>]*>(<rect [^>]+><title>[^<]+<\/title><\/rect>){20}/);
    expect(summary.daily_returns.days).toBe(14);
    // 14 days is too short for a 30-day window: the page says so rather than drawing empty charts.
    expect(html).toContain('<p id="rolling-none">Needs more than 30 days of returns; this run has 14.</p>');
    expect(html).not.toContain('id="rolling-sharpe-chart"');
    expect(summary.beta).not.toBeNull();
  });

  it('annualised figures say they are extrapolated on a run shorter than a year, and not on a longer one', () => {
    const labels = new Map(metricRows(summary));
    expect(summary.run_days).toBeCloseTo(20_000 / 1440, 6);
    expect(labels.has('CAGR (annualised, 14-day run)')).toBe(true);
    expect(labels.has('Sharpe (annualised, 14-day run, rf 0)')).toBe(true);
    const year = recordRun(join(root, 'year'), { cycles: 400, seed: 8, cycleMs: 86_400_000 }).summary;
    const yearLabels = new Map(metricRows(year));
    expect(yearLabels.has('CAGR (annual)')).toBe(true);
    expect(yearLabels.has('Sharpe (annual, rf 0)')).toBe(true);
  });
});
