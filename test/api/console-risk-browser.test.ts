/**
 * The console while the risk engine is `reducing` (issue 20), in Debian's Chromium against the real
 * API on a real SQLite store, without a trading process: the heartbeat it would publish is written
 * by the test, which is what arranges a drawdown breach cheaply. The banner's notice says since
 * when, why and how it ends; the Health panel's row and overall status follow; its button opens the
 * drawdown reset, which needs a reason and queues the audited `risk_reset` command; when the
 * heartbeat says `active` again the notice goes (through the stream's `health` event). Fails, never
 * skips, when Chromium cannot start.
 */
import type { Browser, ConsoleMessage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keyId } from '../../src/domain/keys.js';
import { HEARTBEAT_KEY } from '../../src/domain/runtime-documents.js';
import type { TradingHeartbeat } from '../../src/domain/runtime-documents.js';
import { writeDocument } from '../../src/ports/documents.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';
import { launchChromium } from '../support/chromium.js';
import { SAMPLE_DOCUMENTS } from '../support/documents.js';

const BREACH = 'drawdown 10.50% from peak NAV 11200.00 exceeds RISK_MAX_DRAWDOWN 10.00%';
const SINCE = Date.UTC(2026, 0, 5, 11, 59);
const WAIT = { timeout: 10_000, interval: 50 };
// The hub checks health every 100 ms here instead of 5 s, so the notice's end is seen at once.
const TIMINGS = { tailMs: 20, heartbeatMs: 50, machinesMs: 50, healthMs: 100, keepAliveMs: 15_000 };

describe('the console while the risk engine is reducing, in Chromium', () => {
  let api: TestApi;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    [api, browser] = await Promise.all([
      openTestApi('sqlite', { eventStream: { timings: TIMINGS } }),
      launchChromium('the console risk browser test'),
    ]);
    base = await api.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  /** The trading heartbeat, fresh for a minute (intervalMs), with the risk state given. */
  const beat = (risk: TradingHeartbeat['risk']) =>
    writeDocument(api.store.kv, HEARTBEAT_KEY, {
      ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY],
      ts: Date.now(),
      intervalMs: 60_000,
      risk,
    });

  it('shows the notice, resets the drawdown from it with a reason, and drops it once active', async () => {
    await beat({ state: 'reducing', since: SINCE, reason: BREACH });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m: ConsoleMessage) => void (m.type() === 'error' && errors.push(m.text())));
    page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
    await page.goto(`${base}/`);
    await page.getByLabel('API key').fill(api.key);
    await page.getByLabel('API key').press('Enter');

    const notice = page.getByTestId('risk-reducing');
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.innerText()).toMatch(
      new RegExp(
        `^Risk engine reducing since 2026-01-05 11:59:00 UTC: ${BREACH.replace(/\./g, '\\.')} — only closes pass.*` +
          'ends by a drawdown reset or when RISK_DRAWDOWN_WINDOW drops the peak\\.',
      ),
    );
    expect(await page.getByTestId('health-risk-engine').innerText()).toBe('reducing');
    expect(await page.getByTestId('health-status').innerText()).toBe('degraded');

    // The notice's button opens the reset; it cannot be sent without a reason.
    await notice.getByRole('button', { name: 'Reset drawdown…' }).click();
    const dialog = page.getByTestId('risk-reset-dialog');
    await dialog.waitFor({ state: 'visible', timeout: 5_000 });
    const send = dialog.getByRole('button', { name: 'Reset drawdown' });
    expect(await send.isDisabled()).toBe(true);
    await page.getByLabel(/Reason for the reset/).fill('  loss reviewed in the browser test ');
    await send.click();
    await page.getByText(/drawdown reset queued for the trading process: .*\(risk-reset-/).waitFor({ timeout: 10_000 });
    await dialog.waitFor({ state: 'hidden', timeout: 5_000 });
    const [call] = await api.store.events.query({ kind: 'control_call', limit: 1 });
    expect(call?.body).toMatchObject({
      call: 'risk_reset',
      actor: keyId(api.key),
      reason: 'loss reviewed in the browser test',
    });
    expect(await api.store.commands.get(String(call?.body.command_id))).toMatchObject({
      type: 'risk_reset',
      status: 'pending',
    });

    // The trading process would run it and publish `active`: the notice goes, the row follows.
    await beat({ state: 'active', since: Date.now(), reason: 'drawdown reset: loss reviewed in the browser test' });
    await notice.waitFor({ state: 'detached', timeout: 10_000 });
    await vi.waitFor(async () => expect(await page.getByTestId('health-risk-engine').innerText()).toBe('active'), WAIT);
    expect(await page.getByTestId('health-status').innerText()).toBe('ok');
    expect(errors).toEqual([]);
    await page.close();
  });
});
