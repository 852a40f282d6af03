// The run directory's files from a generated run: CSV headers and rows, summary.json bytes that
// repeat exactly, a report page that embeds its data safely, and the end-of-run text table.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CsvFile } from '../../../src/adapters/simulation-report/csv-file.js';
import { renderReportHtml } from '../../../src/adapters/simulation-report/report-html.js';
import { formatSummaryTable, printSummaryTable } from '../../../src/adapters/simulation-report/summary-table.js';
import { createPerformanceTracker } from '../../../src/domain/performance/tracker.js';
import { recordRun } from './record-run.js';
import { REQUIRED_SUMMARY_KEYS } from '../../support/summary-keys.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-report-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const lines = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');

describe('trades.csv and equity.csv', () => {
  const { summary, files } = recordRun(join(root, 'a'), { cycles: 3_000, seed: 5 });

  it('equity.csv has its header and one row per cycle', () => {
    const rows = lines(files.equity);
    expect(rows[0]).toBe('ts,nav,cash,drawdown,gross_exposure,net_exposure');
    expect(rows.length).toBe(1 + 3_000);
    const [ts, nav, cash, drawdown, gross, net] = rows[1]!.split(',');
    expect(ts).toBe('2026-01-01T00:01:00.000Z');
    expect(Number(nav)).toBeGreaterThan(0);
    expect(Number(cash)).toBeGreaterThan(0);
    expect(Number(drawdown)).toBeGreaterThanOrEqual(0);
    expect(Number(gross)).toBeGreaterThanOrEqual(Math.abs(Number(net)));
    const last = rows[rows.length - 1]!.split(',');
    expect(Number(last[1])).toBe(summary.final_nav);
    expect(Math.max(...rows.slice(1).map((r) => Number(r.split(',')[3])))).toBeCloseTo(summary.max_drawdown, 7);
  });

  it('trades.csv has its header and one row per fill, liquidations included', () => {
    const rows = lines(files.trades);
    expect(rows[0]).toBe(
      'ts,client_order_id,symbol,side,qty,price,notional,fee,liquidity,strategy,kind,realized_pnl,position_after,spread_cost,slippage_cost',
    );
    expect(rows.length - 1).toBe(summary.fills);
    const liquidations = rows.filter((r) => r.split(',')[10] === 'liquidation');
    expect(liquidations.length).toBe(summary.liquidations);
    // A liquidation has no strategy, and leaves the position flat.
    expect(liquidations[0]!.split(',')[9]).toBe('');
    expect(Number(liquidations[0]!.split(',')[12])).toBe(0);
    const fees = rows.slice(1).reduce((sum, r) => sum + Number(r.split(',')[7]), 0);
    expect(fees).toBeCloseTo(summary.fees, 4);
    // The itemised costs (issue 34): the columns add up to the summary's (test/cli/simulate-costs.test.ts
    // has a run whose fills carry them; these generated fills carry none).
    const spread = rows.slice(1).reduce((sum, r) => sum + Number(r.split(',')[13]), 0);
    expect(spread).toBeCloseTo(summary.costs.spread, 4);
  });

  it('quotes fields that need it and refuses a row of the wrong width', () => {
    const csv = new CsvFile(join(root, 'q.csv'), ['a', 'b']);
    csv.row(['x,y', 'say "hi"']);
    expect(() => csv.row(['only one'])).toThrow(/1 fields for 2 columns/);
    csv.close();
    expect(lines(join(root, 'q.csv'))).toEqual(['a,b', '"x,y","say ""hi"""']);
  });
});

describe('summary.json', () => {
  it('is byte-identical for the same run and has every required key', () => {
    const one = recordRun(join(root, 'b1'), { cycles: 2_000, seed: 3 });
    const two = recordRun(join(root, 'b2'), { cycles: 2_000, seed: 3 });
    const bytes = readFileSync(one.files.summary, 'utf8');
    expect(readFileSync(two.files.summary, 'utf8')).toBe(bytes);
    expect(readFileSync(two.files.equity, 'utf8')).toBe(readFileSync(one.files.equity, 'utf8'));
    const keys = Object.keys(JSON.parse(bytes));
    for (const key of [...REQUIRED_SUMMARY_KEYS, 'partial', 'starting_cash', 'final_nav']) {
      expect(keys).toContain(key);
    }
  });

  it('marks a run stopped early as partial', () => {
    const { files } = recordRun(join(root, 'c'), { cycles: 50, seed: 3, partial: true });
    expect(JSON.parse(readFileSync(files.summary, 'utf8')).partial).toBe(true);
    expect(readFileSync(files.report, 'utf8')).toContain('Partial run');
  });
});

describe('report.html', () => {
  it('embeds its data so that no string in it can close the script element', () => {
    const tracker = createPerformanceTracker({ startingCash: 100, cycleMs: 60_000, symbols: ['X'], strategies: [] });
    tracker.trade({
      ts: 60_000,
      clientOrderId: '</script><script>alert(1)</script>',
      symbol: 'X',
      side: 'BUY',
      qty: 1,
      price: 1,
      fee: 0,
      liquidity: 'taker',
      strategy: '<b>evil</b>',
      kind: 'order',
    });
    tracker.cycle({
      ts: 60_000,
      nav: 100,
      cash: 99,
      positions: [{ symbol: 'X', qty: 1, markPrice: 1 }],
      fundingPnl: 0,
      feesPaid: 0,
      marks: { X: 1 },
    });
    const html = renderReportHtml({ title: 'T <&>', summary: tracker.summary(), series: tracker.series() });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<b>evil</b>');
    expect(html).toContain('&lt;b&gt;evil&lt;/b&gt;');
    expect(html).toContain('<title>T &lt;&amp;&gt;</title>');
    // Exactly the three script elements of the page: data, chart library, page script.
    expect(html.match(/<script/g)!.length).toBe(3);
    expect(html.match(/<\/script>/g)!.length).toBe(3);
    expect(html).not.toMatch(/(src|href)="https?:/);
  });
});

describe('summary table', () => {
  it('prints aligned columns with the metrics, the PnL splits and the denials', () => {
    const { summary } = recordRun(join(root, 'd'), { cycles: 1_000, seed: 2 });
    const text = formatSummaryTable(summary);
    const metricLines = text.split('\n\n')[0]!.split('\n');
    expect(metricLines[0]).toMatch(/^Metric\s+Value$/);
    // Right-aligned values: every metric line is as long as the widest one, except trimmed headers.
    const widths = new Set(metricLines.slice(2).map((l) => l.length));
    expect(widths.size).toBe(1);
    expect(text).toContain('Sharpe (annualised, 0.69-day run, rf 0)');
    expect(text).toMatch(/^BTCUSDT\s/m);
    expect(text).toMatch(/^momentum\s/m);
    expect(text).toMatch(/^Guard\s+Denials$/m);
    let written = '';
    printSummaryTable(summary, { write: (t: string) => (written += t) });
    expect(written).toBe(text);
  });
});
