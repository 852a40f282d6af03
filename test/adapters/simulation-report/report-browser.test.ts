/**
 * report.html of a generated run in a real browser (Debian's Chromium through playwright-core,
 * opened from a file:// URL): the equity, drawdown and price charts render (canvas elements of
 * non-zero size in their containers), no console error, and the page requests nothing but its own
 * file (file:, data:, about: only). Fails, never skips, when Chromium cannot start.
 * REPORT_SCREENSHOT=<png path> saves a full-page screenshot of the generated report (for the README).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../support/chromium.js';
import { recordRun } from './record-run.js';

describe('report.html in Chromium', () => {
  const root = mkdtempSync(join(tmpdir(), 'tcs-report-browser-'));
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium('the simulation report browser test');
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** Opens a report from its file and collects every request and every console error or warning. */
  async function open(report: string) {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const requested: string[] = [];
    const problems: string[] = [];
    context.on('request', (request) => requested.push(request.url()));
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await page.goto(pathToFileURL(report).href);
    await page.locator('body[data-charts="ready"]').waitFor({ state: 'attached', timeout: 15_000 });
    const foreign = () => requested.filter((u) => !/^(file|data|about):/.test(u));
    return { context, page, requested, problems, foreign };
  }

  it('draws every chart from the file alone, with no console error and no request elsewhere', async () => {
    const { files, summary } = recordRun(join(root, 'run'), { cycles: 20_000, seed: 21, tradeChance: 0.05 });
    expect(summary.fills).toBeGreaterThan(100);

    const { context, page, requested, problems, foreign } = await open(files.report);

    const containers = ['equity-chart', 'drawdown-chart', 'exposure-chart', 'price-chart-0', 'price-chart-1'];
    for (const id of containers) {
      const canvases = await page.locator(`#${id} canvas`).evaluateAll((nodes) =>
        nodes.map((n) => {
          const box = n.getBoundingClientRect();
          return { width: box.width, height: box.height };
        }),
      );
      expect(canvases.length, `${id} has canvases`).toBeGreaterThan(0);
      expect(
        canvases.some((c) => c.width > 100 && c.height > 100),
        `${id} has a drawn chart`,
      ).toBe(true);
    }
    // The tables are in the page too.
    await expect(page.locator('section table').first().innerText()).resolves.toContain('Sharpe');
    expect(await page.locator('text=BTCUSDT').count()).toBeGreaterThan(0);

    // The drawdown axis and its last-value label print what the metrics table prints (two decimals):
    // lightweight-charts' 'percent' format read `precision` as a scale and printed −7.47 as −7.1%.
    const labels = await page.evaluate(
      (values) => {
        const report = (
          globalThis as unknown as { tcsReport: { drawdown: { priceFormatter(): { format(v: number): string } } } }
        ).tcsReport;
        return values.map((v) => report.drawdown.priceFormatter().format(v));
      },
      [-7.47, -0.05, -25.5, 0, -Math.abs(summary.max_drawdown) * 100],
    );
    const tableMax = await page.locator('tr', { hasText: 'Max drawdown' }).locator('td').last().innerText();
    expect(labels.slice(0, 4)).toEqual(['−7.47 %', '−0.05 %', '−25.50 %', '0.00 %']);
    expect(labels[4]!.replace('−', '')).toBe(tableMax.trim().replace('-', ''));

    // The equity chart holds the NAV and the buy-and-hold line; ~500 fills per symbol become at most
    // 100 buckets × 4 groups of markers (issue 22: 500 single markers drew a solid band).
    const drawn = await page.evaluate(() => {
      const report = (
        globalThis as unknown as {
          tcsReport: { equity: { panes(): { getSeries(): unknown[] }[] }; markers: Record<string, number> };
        }
      ).tcsReport;
      return { equitySeries: report.equity.panes()[0]!.getSeries().length, markers: report.markers };
    });
    expect(drawn.equitySeries).toBe(2);
    expect(Object.keys(drawn.markers)).toEqual(['BTCUSDT', 'ETHUSDT']);
    for (const n of Object.values(drawn.markers)) {
      expect(n).toBeGreaterThan(50);
      expect(n).toBeLessThanOrEqual(400);
    }

    expect(problems).toEqual([]);
    expect(foreign()).toEqual([]);
    expect(requested[0]).toBe(pathToFileURL(files.report).href);
    if (process.env.REPORT_SCREENSHOT) await page.screenshot({ path: process.env.REPORT_SCREENSHOT, fullPage: true });
    await context.close();
  });

  it('every chart shows the whole run, from its first point to its last, on a 60,000-cycle run', async () => {
    // Issue 34: the equity chart's two series were downsampled apart (3,057 distinct times), more
    // bars than fitContent could fit at its minimum bar spacing, so only the last two thirds showed.
    const { files } = recordRun(join(root, 'long'), { cycles: 60_000, seed: 34, tradeChance: 0.02 });
    const { context, page, problems } = await open(files.report);
    const ranges = await page.evaluate(() => {
      const report = (
        globalThis as unknown as {
          tcsReport: {
            charts: Record<
              string,
              {
                chart: { timeScale(): { getVisibleRange(): { from: number; to: number } | null } };
                rows: { time: number }[];
              }
            >;
          };
        }
      ).tcsReport;
      return Object.entries(report.charts).map(([id, c]) => ({
        id,
        visible: c.chart.timeScale().getVisibleRange(),
        first: c.rows[0]!.time,
        last: c.rows[c.rows.length - 1]!.time,
        points: c.rows.length,
      }));
    });
    const long = ['equity-chart', 'drawdown-chart', 'exposure-chart', 'price-chart-0', 'price-chart-1'];
    // 60,000 one-minute cycles are 41.7 days: daily bars, and rolling 30-day figures after the 30th.
    const daily = ['daily-chart', 'rolling-sharpe-chart', 'rolling-volatility-chart'];
    expect(ranges.map((r) => r.id).sort()).toEqual([...long, ...daily].sort());
    for (const r of ranges) {
      expect(r.points, `${r.id} has its series`).toBeGreaterThan(long.includes(r.id) ? 1_000 : 10);
      expect(r.visible, `${r.id} has a visible range`).not.toBeNull();
      expect(r.visible!.from, `${r.id} starts at the run's first point`).toBeLessThanOrEqual(r.first);
      expect(r.visible!.to, `${r.id} ends at the run's last point`).toBeGreaterThanOrEqual(r.last);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a partial run of three cycles opens with no error either', async () => {
    const { files } = recordRun(join(root, 'tiny'), { cycles: 3, seed: 2, partial: true });
    const { context, page, problems, foreign } = await open(files.report);
    expect(await page.locator('#equity-chart canvas').count()).toBeGreaterThan(0);
    expect(await page.locator('.partial').innerText()).toContain('Partial run');
    expect(problems).toEqual([]);
    expect(foreign()).toEqual([]);
    await context.close();
  });
});
