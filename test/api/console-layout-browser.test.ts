/**
 * The console read at a glance (issue 35 item 2), in Debian's Chromium against the real API on a
 * real SQLite store, without a trading process: the test writes the account and a run's decisions
 * (fills, guards) the trading process would have written. At 1280 and 1920 px wide no table is cut
 * off or scrolls inside its card, and the risk guards read as percentages beside their limits; the
 * closed trades, the candle chart with our fills and the notifications show the run. Fails, never
 * skips, when Chromium cannot start.
 */
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEARTBEAT_KEY, PORTFOLIO_KEY } from '../../src/domain/runtime-documents.js';
import { writeDocument } from '../../src/ports/documents.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';
import { launchChromium } from '../support/chromium.js';
import { SAMPLE_DOCUMENTS } from '../support/documents.js';
import { RUN_CYCLES, RUN_FILLS, RUN_START, runDecisions } from './console-run-fixture.js';

const WIDTHS = [1280, 1920];

/** Every card whose content is wider than the card (it scrolls or is cut), with the widths. */
const OVERFLOWING = `[...document.querySelectorAll('table')].flatMap((t) => {
  const card = t.closest('.panel');
  const over = t.scrollWidth > card.clientWidth || card.scrollWidth > card.clientWidth;
  return over ? [{ table: t.dataset.testid ?? t.caption?.textContent ?? '?', table_px: t.scrollWidth, card_px: card.clientWidth, card_scroll_px: card.scrollWidth }] : [];
})`;

describe('the console read at a glance, in Chromium', () => {
  let api: TestApi;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    [api, browser] = await Promise.all([openTestApi('sqlite'), launchChromium('the console layout browser test')]);
    base = await api.app.listen({ host: '127.0.0.1', port: 0 });
    const now = Date.now();
    await writeDocument(api.store.kv, HEARTBEAT_KEY, {
      ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY],
      ts: now,
      intervalMs: 60_000,
    });
    await writeDocument(api.store.kv, PORTFOLIO_KEY, runPortfolio(now));
    for (const event of runDecisions()) await api.store.events.append(event);
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  const open = async (width: number): Promise<{ page: Page; errors: string[] }> => {
    const page = await browser.newPage({ viewport: { width, height: 1000 } });
    const errors: string[] = [];
    page.on('console', (m: ConsoleMessage) => void (m.type() === 'error' && errors.push(m.text())));
    page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
    await page.goto(`${base}/`);
    await page.getByLabel('API key').fill(api.key);
    await page.getByLabel('API key').press('Enter');
    // Every panel with its rows, so the widths measured are those of the filled tables.
    await page.locator('[data-testid=fills] [data-testid=fill-row]').first().waitFor({ timeout: 10_000 });
    await page
      .locator('[data-testid=notifications] [data-testid=notification-row]')
      .first()
      .waitFor({ timeout: 10_000 });
    await page.locator('[data-testid=trades] [data-testid=trade-row]').first().waitFor({ timeout: 10_000 });
    // The detail of the run's last decision with an order: its signals and guards are tables too.
    await page.locator('[data-testid=decisions] tbody').getByRole('button', { name: '7', exact: true }).click();
    await page.getByTestId('decision-detail').waitFor({ timeout: 10_000 });
    return { page, errors };
  };

  it.each(WIDTHS)('fits every table in its card at %i px', async (width) => {
    const { page, errors } = await open(width);
    expect(await page.locator('[data-testid=positions] tbody tr').count()).toBe(3);
    expect(await page.evaluate(OVERFLOWING)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows each guard as a percentage (or ×) beside its limit and how much of it is used', async () => {
    const { page } = await open(1280);
    const rows = await page
      .getByTestId('guards')
      .first()
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => String(Reflect.get(c, 'innerText')))));
    expect(rows).toEqual([
      ['drawdown', '0.04 %', '10.00 %', '0.4 %', 'pass'],
      ['leverage', '0.62×', '3.00×', '21 %', 'pass'],
      ['exposure', '31.00 % of NAV', '50.00 % of NAV', '62 %', 'pass'],
      ['liquidity', '3,100', '50,000', '6.2 %', 'pass'],
    ]);
    await page.close();
  });

  it("lists the run's closed trades with their PnL, and the PnL per symbol", async () => {
    const { page } = await open(1920);
    const cells = (testId: string, rows: string) =>
      page
        .getByTestId(testId)
        .locator(rows)
        .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => String(Reflect.get(c, 'innerText')))));
    expect(await cells('trades', 'tbody tr')).toEqual([
      [
        'SOLUSDT',
        'long',
        '100',
        '2026-01-05 12:04:00 UTC',
        '2026-01-05 12:06:00 UTC',
        '150.00',
        '145.00',
        '00:02:00',
        '−500.00',
      ],
      [
        'ETHUSDT',
        'short',
        '2',
        '2026-01-05 12:02:00 UTC',
        '2026-01-05 12:05:00 UTC',
        '3,300.00',
        '3,250.00',
        '00:03:00',
        '+100.00',
      ],
      [
        'BTCUSDT',
        'long',
        '0.1',
        '2026-01-05 12:01:00 UTC',
        '2026-01-05 12:03:00 UTC',
        '60,000.00',
        '61,000.00',
        '00:02:00',
        '+100.00',
      ],
    ]);
    expect(await cells('trades-by-symbol', 'tbody tr, tfoot tr')).toEqual([
      ['BTCUSDT', '1', '1', '+100.00'],
      ['ETHUSDT', '1', '1', '+100.00'],
      ['SOLUSDT', '1', '0', '−500.00'],
      ['All', '3', '2', '−300.00'],
    ]);
    await page.close();
  });

  it('lists the notifications of the run, newest first', async () => {
    const { page } = await open(1280);
    const rows = page.locator('[data-testid=notifications] [data-testid=notification-row]');
    await rows.first().waitFor({ timeout: 10_000 });
    expect(await rows.count()).toBe(RUN_FILLS.length);
    expect(await rows.first().innerText()).toMatch(
      /^2026-01-05 12:07:00 UTC\s+fill\s+BTCUSDT\s+Order filled momentum_ma_crossover-BTCUSDT-7 filled 0\.05$/,
    );
    await page.close();
  });

  it('draws a candle chart per symbol with our fills on it, the symbol of the latest fill first', async () => {
    const { page, errors } = await open(1280);
    const chart = page.getByTestId('candle-chart');
    await page.waitForSelector(`[data-testid=candle-chart][data-candles="${RUN_CYCLES}"]`, { timeout: 10_000 });
    expect(await chart.getAttribute('data-symbol')).toBe('BTCUSDT');
    expect(await chart.getAttribute('aria-label')).toBe(
      `BTCUSDT: ${RUN_CYCLES} candles, 3 fill markers: Buy 0.1 @ 60,000.00; Sell 0.1 @ 61,000.00; Buy 0.05 @ 61,500.00`,
    );
    // lightweight-charts drew into its canvases (not a blank box).
    const drawn = await chart
      .locator('canvas')
      .evaluateAll((nodes) =>
        nodes.some((n) => Number(Reflect.get(n, 'width')) > 100 && Number(Reflect.get(n, 'height')) > 100),
      );
    expect(drawn).toBe(true);
    await page.getByTestId('candle-symbol').selectOption('ETHUSDT');
    await page.waitForSelector('[data-testid=candle-chart][data-symbol=ETHUSDT]', { timeout: 5_000 });
    expect(await chart.getAttribute('aria-label')).toBe(
      `ETHUSDT: ${RUN_CYCLES} candles, 2 fill markers: Sell 2 @ 3,300.00; Buy 2 @ 3,250.00`,
    );
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** The account after the run: three positions and resting orders with long ids. */
function runPortfolio(now: number) {
  const position = (symbol: string, qty: number, entryPrice: number, markPrice: number) => ({
    symbol,
    kind: 'perp' as const,
    qty,
    entryPrice,
    markPrice,
    unrealizedPnl: (markPrice - entryPrice) * qty,
    realizedPnl: 0,
  });
  const order = (i: number, symbol: string, side: 'BUY' | 'SELL', qty: number, limitPrice: number) => ({
    clientOrderId: `momentum_ma_crossover-${symbol}-${RUN_START + i}-0000${i}`,
    symbol,
    side,
    qty,
    type: 'limit' as const,
    limitPrice,
    reduceOnly: i % 2 === 0,
    timeInForce: 'GTC' as const,
    status: 'open' as const,
    filledQty: 0,
    avgFillPrice: null,
    createdAt: now - 5_000,
    updatedAt: now - 5_000,
  });
  return {
    ...SAMPLE_DOCUMENTS[PORTFOLIO_KEY],
    nav: 101_234.56,
    peakNav: 101_500,
    positions: [
      position('BTCUSDT', 0.123456, 61_234.5, 61_500.25),
      position('ETHUSDT', -12.3456, 3_210.75, 3_190.5),
      position('SOLUSDT', 250.5, 145.125, 146.5),
    ],
    openOrders: [
      order(1, 'BTCUSDT', 'BUY', 0.012345, 61_000.5),
      order(2, 'ETHUSDT', 'SELL', 1.23456, 3_250.25),
      order(3, 'SOLUSDT', 'BUY', 12.5, 140.75),
    ],
    ts: now,
  };
}
