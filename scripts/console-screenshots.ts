/**
 * Takes the console screenshots of docs/operate/console.md into docs/console/ (issue 35): the whole
 * page at 1280 and 1920 px wide, the closed trades, the candle chart with our fills and a decision's
 * guards. The page runs against the real API on a throw-away SQLite store holding the browser test's
 * short run (test/api/console-run-fixture.ts), in Debian's Chromium, on loopback only:
 * `node bin/run-ts.mjs scripts/console-screenshots.ts` after `npm run build`.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { HEARTBEAT_KEY, PORTFOLIO_KEY } from '../src/domain/runtime-documents.js';
import { writeDocument } from '../src/ports/documents.js';
import { RUN_CYCLES, RUN_START, runDecisions } from '../test/api/console-run-fixture.js';
import { openTestApi } from '../test/support/api.js';
import { launchChromium } from '../test/support/chromium.js';
import { SAMPLE_DOCUMENTS } from '../test/support/documents.js';

const OUT = 'docs/console';

const api = await openTestApi('sqlite');
const browser = await launchChromium('the console screenshots');
try {
  const base = await api.app.listen({ host: '127.0.0.1', port: 0 });
  const now = Date.now();
  await writeDocument(api.store.kv, HEARTBEAT_KEY, { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], ts: now, intervalMs: 60_000 });
  await writeDocument(api.store.kv, PORTFOLIO_KEY, {
    ...SAMPLE_DOCUMENTS[PORTFOLIO_KEY],
    nav: 99_700,
    peakNav: 100_200,
    positions: [
      {
        symbol: 'BTCUSDT',
        kind: 'perp',
        qty: 0.05,
        entryPrice: 61_500,
        markPrice: 61_620.5,
        unrealizedPnl: 6.03,
        realizedPnl: 0,
      },
    ],
    openOrders: [],
    ts: now,
  });
  for (const event of runDecisions()) await api.store.events.append(event);
  mkdirSync(OUT, { recursive: true });

  const open = async (width: number): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width, height: 1000 } });
    await page.goto(`${base}/`);
    await page.getByLabel('API key').fill(api.key);
    await page.getByLabel('API key').press('Enter');
    await page.waitForSelector(`[data-testid=candle-chart][data-candles="${RUN_CYCLES}"]`, { timeout: 10_000 });
    await page.locator('[data-testid=decisions] tbody').getByRole('button', { name: '7', exact: true }).click();
    await page.getByTestId('decision-detail').waitFor({ timeout: 10_000 });
    // The charts draw on the next animation frames.
    await page.waitForTimeout(300);
    return page;
  };

  /** Part of the full page, from the top: the sticky banner stays at the top instead of over the part. */
  const part = async (page: Page, selector: string, name: string) => {
    const box = await page.locator(selector).first().boundingBox();
    if (!box) throw new Error(`${selector} is not on the page`);
    await page.screenshot({ path: `${OUT}/${name}.png`, fullPage: true, clip: box });
  };

  for (const width of [1280, 1920]) {
    const page = await open(width);
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: `${OUT}/console-${width}.png`, fullPage: true });
    if (width === 1920) {
      await part(page, 'section.trades', 'closed-trades');
      await part(page, 'section.candles', 'candles-with-fills');
      await part(page, '[data-testid=guards]', 'guards');
    }
    await page.close();
  }
  console.log(`wrote ${OUT}/ (run of ${RUN_CYCLES} cycles from ${new Date(RUN_START).toISOString()})`);
} finally {
  await browser.close();
  await api.close();
}
