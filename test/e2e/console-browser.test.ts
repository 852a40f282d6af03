/**
 * The operator console end to end, in Debian's Chromium (playwright-core, never a downloaded
 * browser) against the real API and trading processes (`tcs start`, paper venue, 0.5 s cycles): a
 * refused key is said plainly; sign-in; cycles advance on screen; pause stops them; cancel-all and
 * a previewed deleverage while paused; resume; a decision's guards; the kill switch (with its flatten
 * box ticked) behind its confirmation, after which the page shows killed, no resting order and the
 * account is flat; the Health panel's risk engine row follows (active, then halted). Every request
 * the page makes stays on the API's origin and it logs no console error. Screenshots of each step go to
 * test-artifacts/console/ (and to docs/images/ with CONSOLE_DOC_SCREENSHOTS=1). Fails, never
 * skips, when Chromium cannot start.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import type { Browser, ConsoleMessage, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PORTFOLIO_KEY } from '../../src/domain/runtime-documents.js';
import { launchChromium } from '../support/chromium.js';
import { CYCLE_MS, openE2e } from './harness.js';
import type { E2e } from './harness.js';
import { readDocument } from '../../src/ports/documents.js';

const ARTIFACTS = 'test-artifacts/console';
/** Steps whose screenshots the README shows. */
const DOC_SHOTS = new Set(['running', 'decision', 'kill-confirm', 'killed']);
const WAIT = { timeout: 15_000, interval: 100 };

describe('operator console in Chromium', () => {
  let e: E2e;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [e, browser] = await Promise.all([openE2e('sqlite'), launchChromium('the console browser test')]);
  });
  afterAll(async () => {
    await browser?.close();
    await e?.close();
  });

  const portfolio = () => readDocument(e.t.store.kv, PORTFOLIO_KEY);
  const btcPosition = async () => (await portfolio())?.positions.find((p) => p.symbol === 'BTCUSDT')?.qty ?? 0;

  /**
   * Makes the strategy place a resting order and holds it: the always-long strategy buys only while
   * below its target position, so halve the position (over HTTP), then pause the moment its passive
   * buy rests (no cycle while paused, so no fill). Tries again if it filled before the pause landed.
   */
  const holdRestingOrders = async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const reduce = await e.call('POST', '/control/deleverage', { symbol: 'BTCUSDT', reduce_pct: 0.5 });
      expect(reduce.status).toBe(200);
      await vi.waitFor(async () => expect((await portfolio())?.openOrders.length ?? 0).toBeGreaterThan(0), {
        timeout: 15_000,
        interval: 20,
      });
      expect((await e.call('POST', '/control/pause', { reason: 'hold the resting orders' })).status).toBe(200);
      if (((await portfolio())?.openOrders.length ?? 0) > 0) return;
      expect((await e.call('POST', '/control/resume')).status).toBe(200);
    }
    throw new Error('no order stayed resting across a pause in 5 attempts');
  };

  it('signs in, follows cycles, pauses, cancels, deleverages, resumes and kills', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const requested: string[] = [];
    const errors: string[] = [];
    context.on('request', (r) => requested.push(r.url()));
    const page = await context.newPage();
    /** Browser-level "Failed to load resource" lines for answers the page expects and handles. */
    let expectedFailure: RegExp | null = null;
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() !== 'error') return;
      const where = m.location().url;
      if (/Failed to load resource/.test(m.text()) && expectedFailure?.test(`${m.text()} ${where}`)) return;
      errors.push(`${m.text()} (${where})`);
    });
    page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
    let step = 0;
    const shot = async (name: string) => {
      const path = `${ARTIFACTS}/${String(++step).padStart(2, '0')}-${name}.png`;
      // From the top, so the sticky banner is where a reader expects it in a full-page image.
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path, fullPage: true });
      if (process.env.CONSOLE_DOC_SCREENSHOTS === '1' && DOC_SHOTS.has(name)) {
        copyFileSync(path, `docs/images/console-${name}.png`);
      }
    };
    const banner = page.getByTestId('state');
    const stateIs = (state: string) =>
      page.waitForSelector(`[data-testid=state][data-state=${state}]`, { timeout: 10_000 });
    const cycleOnScreen = async () => Number(await page.getByTestId('cycle').textContent());
    const text = (l: Locator) => l.innerText({ timeout: 10_000 });

    // A wrong key is refused, plainly, and nothing is kept.
    await page.goto(`${e.base}/`);
    await page.getByLabel('API key').fill('k'.repeat(43));
    expectedFailure = /status of 401/;
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await text(page.getByTestId('sign-in-error'))).toBe('That key was refused');
    expect(await page.evaluate("sessionStorage.getItem('tcs.apiKey')")).toBeNull();
    await shot('wrong-key');
    expectedFailure = null;

    // Sign in (keyboard: Enter submits): running, and cycles advance on screen.
    await page.getByLabel('API key').fill(e.key);
    await page.getByLabel('API key').press('Enter');
    await stateIs('running');
    expect(await page.evaluate("sessionStorage.getItem('tcs.apiKey')")).toBe(e.key);
    await vi.waitFor(async () => expect(await cycleOnScreen()).toBeGreaterThan(0), WAIT);
    const firstCycle = await cycleOnScreen();
    await vi.waitFor(async () => expect(await cycleOnScreen()).toBeGreaterThanOrEqual(firstCycle + 2), WAIT);
    // The strategy is always long BTC with passive orders that fill into a position. Resting orders
    // on screen are checked below, while paused (holdRestingOrders): here one may rest and fill between
    // two refreshes of the page, which a fresh-clone CI run saw (no row in 15 s).
    await vi.waitFor(async () => expect(await btcPosition()).toBeGreaterThan(0), { timeout: 20_000, interval: 100 });
    await page.locator('[data-testid=positions] tbody th', { hasText: 'BTCUSDT' }).waitFor({ timeout: 10_000 });
    expect(await text(page.getByTestId('nav'))).toMatch(/^\d{1,3}(,\d{3})*\.\d{2}$/);
    // The PnL since start: NAV now against the NAV the paper account opened with.
    expect(await text(page.getByTestId('starting-nav'))).toBe('100,000.00');
    expect(await text(page.getByTestId('pnl-since-start'))).toMatch(
      /^([+−]?\d{1,3}(,\d{3})*\.\d{2}) \([+−]?\d+\.\d{2} %\)$/,
    );
    await vi.waitFor(
      async () => expect(Number(await page.getByTestId('nav-chart').getAttribute('data-points'))).toBeGreaterThan(1),
      WAIT,
    );
    // The candle chart: the bars the run's cycles recorded, and our fills on them (this run's passive
    // orders fill while resting: order_filled entries, marked on the next cycle's bar) once any filled.
    const candles = page.getByTestId('candle-chart');
    await vi.waitFor(async () => expect(Number(await candles.getAttribute('data-candles'))).toBeGreaterThan(1), WAIT);
    expect(await candles.getAttribute('data-symbol')).toBe('BTCUSDT');
    const btcFills = await page.locator('[data-testid=fill-row]', { hasText: 'BTCUSDT' }).count();
    if (btcFills > 0) {
      await vi.waitFor(async () => expect(Number(await candles.getAttribute('data-markers'))).toBeGreaterThan(0), WAIT);
    }
    await shot('running');

    // Pause with a reason: the banner says so with the next epoch and the reason beside the state,
    // and the cycle on screen stops.
    const runningEpoch = Number(await banner.getAttribute('data-epoch'));
    await page.getByLabel('Pause reason').fill('console e2e: maintenance');
    await page.getByRole('button', { name: 'Pause' }).click();
    await stateIs('paused');
    expect(await text(page.getByTestId('state-reason'))).toBe('“console e2e: maintenance”');
    expect(((await (await e.call('GET', '/control/status')).json()) as { reason: string }).reason).toBe(
      'console e2e: maintenance',
    );
    expect(Number(await banner.getAttribute('data-epoch'))).toBe(runningEpoch + 1);
    const pausedPid = (await e.heartbeat())!.pid;
    const pausedCycle = (await e.heartbeat())!.lastCycle;
    await e.heartbeatsSpan(pausedPid, 3 * CYCLE_MS);
    expect((await e.heartbeat())!.lastCycle).toBe(pausedCycle);
    expect(await cycleOnScreen()).toBe(pausedCycle);
    // Nothing trades while paused: the fills list is every fill the audit trail records (at
    // submission in decisions, and resting orders filled later in order_filled entries).
    const recorded = (await (await e.call('GET', '/reports/fills?limit=1000')).json()) as unknown[];
    await vi.waitFor(
      async () => expect(await page.getByTestId('fill-row').count()).toBe(Math.min(50, recorded.length)),
      WAIT,
    );
    await shot('paused');

    // Cancel-all for BTCUSDT (the picker; Escape closes a dialog without acting first).
    await page.getByRole('button', { name: 'Cancel orders…' }).click();
    await page.getByTestId('cancel-dialog').waitFor({ state: 'visible', timeout: 5_000 });
    await page.keyboard.press('Escape');
    await page.getByTestId('cancel-dialog').waitFor({ state: 'hidden', timeout: 5_000 });
    await page.getByRole('button', { name: 'Cancel orders…' }).click();
    await page.getByLabel('Symbols').selectOption('BTCUSDT');
    await shot('cancel-all');
    await page.getByRole('button', { name: 'Cancel orders', exact: true }).click();
    await page.getByText(/cancel-all queued for BTCUSDT/).waitFor({ timeout: 10_000 });
    await vi.waitFor(async () => expect((await portfolio())?.openOrders ?? []).toEqual([]), WAIT);
    await page.getByText('No resting order.').waitFor({ timeout: 10_000 });

    // Deleverage half the BTC position: preview first (send stays disabled until then), then send.
    const before = await btcPosition();
    await page.getByRole('button', { name: 'Deleverage…' }).click();
    const send = page.getByRole('button', { name: 'Send deleverage' });
    expect(await send.isDisabled()).toBe(true);
    await page.getByLabel('Symbol', { exact: true }).selectOption('BTCUSDT');
    await page.getByLabel(/Reduce by/).fill('0.5');
    await page.getByRole('button', { name: 'Preview order' }).click();
    const preview = page.getByTestId('deleverage-preview');
    expect(await text(preview)).toMatch(/SELL/);
    expect(await text(preview)).toMatch(/reduce-only/i);
    await shot('deleverage-preview');
    await send.click();
    await page.getByText(/reduce-only SELL .* BTCUSDT queued/).waitFor({ timeout: 10_000 });
    await vi.waitFor(async () => expect(await btcPosition()).toBeLessThan(before), WAIT);

    // Resume: running again at the next epoch, and cycles advance again.
    await page.getByRole('button', { name: 'Resume' }).click();
    await stateIs('running');
    expect(Number(await banner.getAttribute('data-epoch'))).toBe(runningEpoch + 2);
    await vi.waitFor(async () => expect(await cycleOnScreen()).toBeGreaterThanOrEqual(pausedCycle + 2), WAIT);

    // A decision that proposed an order (the position was halved, so the strategy buys again):
    // its signals and every guard's value, limit and verdict.
    const withOrders = page
      .locator('[data-testid=decisions] tbody tr')
      .filter({ has: page.locator('td:last-child', { hasText: /^[1-9]/ }) });
    await withOrders.first().waitFor({ timeout: 15_000 });
    const opened = withOrders.first().getByRole('button');
    const openedCycle = await text(opened);
    await opened.click();
    const detail = page.getByTestId('decision-detail');
    expect(await text(detail)).toMatch(/btc_always_long/);
    // An opened decision stays open when newer decisions push it off the first page (it vanished).
    const rowButtons = page.locator('[data-testid=decisions] tbody tr button');
    await vi.waitFor(async () => expect(await rowButtons.allInnerTexts()).not.toContain(openedCycle), {
      timeout: 40_000,
      interval: 250,
    });
    expect(await detail.getAttribute('aria-label')).toBe(`Decision of cycle ${openedCycle}`);
    const guards = await text(page.getByTestId('guards').first());
    for (const guard of ['drawdown', 'leverage', 'liquidity', 'exposure']) expect(guards).toContain(guard);
    expect(guards).toMatch(/\bpass\b|\bfail\b/);
    await shot('decision');

    // Machines: the live view of the root statechart with its active state highlighted ("running" is
    // nested under the root's own regions, e.g. trading.control.running: matched by its key).
    const activeRoot = (state: string) =>
      page.locator(`[data-testid=machine-trading] li[data-active=true][data-state-id$=".${state}"]`);
    await activeRoot('running').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('machines-unavailable').count()).toBe(0);
    const health = await text(page.getByTestId('health-status'));
    expect(['ok', 'degraded']).toContain(health);
    // The risk engine's trading state is a row of its own; no drawdown breach here, so no notice.
    await vi.waitFor(async () => expect(await text(page.getByTestId('health-risk-engine'))).toBe('active'), WAIT);
    expect(await page.getByTestId('risk-reducing').count()).toBe(0);
    await page.getByText(/Audit chain: intact/).waitFor({ timeout: 10_000 });

    // The kill switch, with orders resting: passive orders rest until the market reaches them, which
    // can be the next cycle, so hold them with a pause as soon as one rests (no cycle, no fill).
    await holdRestingOrders();
    await stateIs('paused');
    await activeRoot('paused').waitFor({ timeout: 10_000 }); // the trading process published it
    await page.getByTestId('order-row').first().waitFor({ timeout: 10_000 });
    // The confirmation needs a reason; then killed, and nothing rests.
    await page.getByRole('button', { name: 'Kill switch…' }).click();
    const kill = page.getByRole('button', { name: 'Kill trading' });
    expect(await kill.isDisabled()).toBe(true);
    await page.getByLabel(/Reason \(required/).fill('console e2e: exchange incident');
    // With the flatten box ticked: the kill is recorded, then every position closes reduce-only.
    expect(await btcPosition()).toBeGreaterThan(0);
    await page.getByLabel(/Also flatten every position/).check();
    await shot('kill-confirm');
    await kill.click();
    await stateIs('killed');
    await vi.waitFor(async () => expect(await btcPosition()).toBe(0), WAIT);
    expect(await text(banner)).toMatch(/console e2e: exchange incident/);
    // The banner says how a kill ends: the restart with the audited reset (the API cannot end it).
    expect(await text(page.getByTestId('kill-recovery'))).toContain('npm start -- --reset-kill --reason "…"');
    await vi.waitFor(async () => expect((await portfolio())?.openOrders ?? []).toEqual([]), WAIT);
    await page.getByText('No resting order.').waitFor({ timeout: 10_000 });
    expect(await page.getByRole('button', { name: 'Resume' }).isDisabled()).toBe(true);
    // The kill halts the risk engine too; the stream's health event brings it (no cycle runs now).
    await vi.waitFor(async () => expect(await text(page.getByTestId('health-risk-engine'))).toBe('halted'), WAIT);
    await shot('killed');

    // Sign out forgets the key.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate("sessionStorage.getItem('tcs.apiKey')")).toBeNull();

    const origin = new URL(e.base).origin;
    expect(requested.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'))).toEqual([]);
    expect(requested.some((u) => u.includes(e.key))).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});
