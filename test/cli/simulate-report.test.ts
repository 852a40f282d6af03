/**
 * `tcs simulate` writes what a quant compares (issue 22, item 3): a buy-and-hold benchmark and a
 * monthly returns table in summary.json and in report.html, recomputed here from the run's own
 * equity.csv (month-end NAVs) and from the benchmark's own prices, and the trade statistics.
 * 75 daily cycles: three calendar months in under a second of simulation.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';
import { REQUIRED_SUMMARY_KEYS } from '../support/summary-keys.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-simulate-report-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const out = join(root, 'run');

interface Summary {
  starting_cash: number;
  final_nav: number;
  total_return: number;
  max_drawdown: number;
  trades: number;
  benchmark: {
    equal_weight: { final_nav: number; return: number; max_drawdown: number; excess_return: number };
    by_symbol: Record<string, { first_price: number; last_price: number; return: number; excess_return: number }>;
  };
  monthly_returns: { year: number; months: (number | null)[]; total: number | null }[];
  trade_stats: { trades: number; wins: number; losses: number; avg_holding_seconds: number | null };
}

/** The report's percentages: two decimals, as the page prints them. */
const pct = (x: number) => `${(x * 100).toFixed(2)} %`;

/** A table of report.html by its id, as rows of cell texts (header row first). */
function table(html: string, id: string): string[][] {
  const match = new RegExp(`<table id="${id}">([\\s\\S]*?)</table>`).exec(html);
  expect(match, `table #${id} in report.html`).not.toBeNull();
  return [...match![1]!.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) => cell[1]!.replace(/&amp;/g, '&')),
  );
}

describe('tcs simulate: the report shows the benchmark and the monthly table', () => {
  let summary: Summary;
  let html: string;
  let stdout: string;

  beforeAll(async () => {
    const args = ['simulate', '--cycles', '75', '--cycle-seconds', '86400', '--seed', '3'];
    const proc = startTcs([...args, '--symbols', 'BTCUSDT,ETHUSDT', '--out', out, '--quiet'], {}, root);
    const { code } = await exitWithin(proc, 60_000);
    expect(proc.stderr()).toBe('');
    expect(code).toBe(0);
    stdout = proc.stdout();
    summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
    html = readFileSync(join(out, 'report.html'), 'utf8');
  }, 60_000);

  it('summary.json keeps its keys and carries the benchmark, held from each first price to the last', () => {
    for (const key of REQUIRED_SUMMARY_KEYS) expect(summary, key).toHaveProperty(key);
    const { equal_weight: ew, by_symbol: bySymbol } = summary.benchmark;
    expect(Object.keys(bySymbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
    let held = 0;
    for (const b of Object.values(bySymbol)) {
      expect(b.first_price).toBeGreaterThan(0);
      expect(b.return).toBeCloseTo(b.last_price / b.first_price - 1, 7);
      expect(b.excess_return).toBeCloseTo(summary.total_return - b.return, 7);
      held += (summary.starting_cash / 2) * (b.last_price / b.first_price);
    }
    expect(ew.final_nav).toBeCloseTo(held, 4);
    expect(ew.return).toBeCloseTo(held / summary.starting_cash - 1, 7);
    expect(ew.excess_return).toBeCloseTo(summary.total_return - ew.return, 7);
    expect(ew.max_drawdown).toBeGreaterThanOrEqual(0);
  });

  it('summary.json has the monthly returns of the NAV at each UTC month end of equity.csv', () => {
    // Independently: the last NAV of each month (a row's period ends at its ts), compounded.
    const rows = readFileSync(join(out, 'equity.csv'), 'utf8').trimEnd().split('\n').slice(1);
    const monthEnd = new Map<string, number>();
    for (const row of rows) {
      const [ts, nav] = row.split(',');
      monthEnd.set(new Date(Date.parse(ts!) - 1).toISOString().slice(0, 7), Number(nav));
    }
    expect([...monthEnd.keys()]).toEqual(['2026-01', '2026-02', '2026-03']);
    const navs = [summary.starting_cash, ...monthEnd.values()];
    const expected = navs.slice(1).map((nav, i) => nav / navs[i]! - 1);

    expect(summary.monthly_returns).toHaveLength(1);
    const [year] = summary.monthly_returns;
    expect(year!.year).toBe(2026);
    expect(year!.months.slice(3)).toEqual(new Array(9).fill(null));
    year!.months.slice(0, 3).forEach((r, i) => expect(r).toBeCloseTo(expected[i]!, 7));
    expect(year!.total).toBeCloseTo(summary.final_nav / summary.starting_cash - 1, 7);
  });

  it('report.html shows the benchmark beside the strategy, and draws it on the equity chart', () => {
    const rows = table(html, 'benchmark');
    const ew = summary.benchmark.equal_weight;
    expect(rows[0]).toEqual(['', 'Return', 'Max drawdown', 'Strategy’s excess return']);
    expect(rows[1]).toEqual(['Strategy', pct(summary.total_return), pct(summary.max_drawdown), '']);
    expect(rows[2]).toEqual([
      'Buy and hold, equal weight',
      pct(ew.return),
      pct(ew.max_drawdown),
      pct(ew.excess_return),
    ]);
    expect(rows.map((r) => r[0])).toEqual(['', 'Strategy', 'Buy and hold, equal weight', 'BTCUSDT', 'ETHUSDT']);
    const data = JSON.parse(/<script type="application\/json" id="run-data">(.*?)<\/script>/s.exec(html)![1]!) as {
      series: { benchmark: { t: number; v: number }[] };
    };
    expect(data.series.benchmark.length).toBeGreaterThan(1);
    expect(data.series.benchmark.at(-1)!.v).toBeCloseTo(ew.final_nav, 4);
  });

  it('the summary table printed at the end has the benchmark and the trade statistics', () => {
    const row = (label: string) =>
      stdout
        .split('\n')
        .find((l) => l.startsWith(label))
        ?.slice(label.length)
        .trim();
    const ew = summary.benchmark.equal_weight;
    expect(row('Buy and hold (equal weight)')).toBe(pct(ew.return));
    expect(row('Excess over buy and hold')).toBe(pct(ew.excess_return));
    expect(row('Average win / loss')).toMatch(/^(-?[\d,.]+|n\/a) \/ (-?[\d,.]+|n\/a)$/);
    expect(row('Average holding time')).toMatch(/^(\d+d )?\d\d:\d\d:\d\d$/);
  });

  it('report.html shows the monthly returns table: a row per year, a column per month and the year', () => {
    const rows = table(html, 'monthly-returns');
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    expect(rows[0]).toEqual(['Year', ...months, 'Year']);
    const [year] = summary.monthly_returns;
    expect(rows[1]).toEqual(['2026', ...year!.months.map((r) => (r === null ? '' : pct(r))), pct(year!.total!)]);
  });

  it('report.html shows the trade statistics, exits and the exposure chart', () => {
    const stats = table(html, 'trade-stats');
    expect(stats[0]).toEqual([
      'Trades of',
      'Trades',
      'Wins',
      'Losses',
      'Avg win',
      'Avg loss',
      'Best',
      'Worst',
      'Avg holding',
    ]);
    expect(stats[1]!.slice(0, 4)).toEqual([
      'all',
      String(summary.trades),
      String(summary.trade_stats.wins),
      String(summary.trade_stats.losses),
    ]);
    expect(summary.trade_stats.trades).toBe(summary.trades);
    expect(html).toContain('<table id="trade-exits">');
    expect(html).toContain('id="exposure-chart"');
  });
});
