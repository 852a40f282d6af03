/**
 * A strategy that throws, as a new user meets it (issue 19): `tcs start` with a real user module
 * that throws on every analysis beside one that trades. Every error is an `agent_error` line on
 * stdout; stderr has one warning for it (the test runs well under the minute that limits them);
 * /metrics counts the errors by agent; /health is degraded and names it; the console marks the
 * cycles in its decision view and lists the errors in the detail (Chromium). The other strategy
 * keeps trading throughout.
 */
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Health } from '../../src/api/health.js';
import { launchChromium } from '../support/chromium.js';
import { ALWAYS_LONG } from '../support/trading.js';
import { openE2e } from './harness.js';
import type { E2e } from './harness.js';

const THROWING = fileURLToPath(new URL('../fixtures/strategies/throwing.js', import.meta.url));
const WAIT = { timeout: 15_000, interval: 100 };

describe('a throwing strategy through tcs start', () => {
  let e: E2e;
  let browser: Browser;
  beforeAll(async () => {
    [e, browser] = await Promise.all([
      openE2e('sqlite', { STRATEGIES: `${ALWAYS_LONG},${THROWING}` }),
      launchChromium('the agent-error console test'),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await e?.close();
  });

  it('is on stdout, once on stderr, in /metrics, on /health and in the console', async () => {
    await e.proc.waitFor(/"event":"cycle_end","cycle":4,/, 20_000);
    const errors = e.lines().filter((l) => l.event === 'agent_error');
    expect(errors.length).toBeGreaterThanOrEqual(8);
    expect(errors[0]).toEqual({
      event: 'agent_error',
      agent: 'throwing',
      symbol: 'BTCUSDT',
      message: 'no model for BTCUSDT',
    });
    expect(e.count('order_submitted')).toBeGreaterThan(0);

    const warnings = e.proc
      .stderr()
      .split('\n')
      .filter((l) => l.includes('"agent":"throwing"'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, symbol: 'BTCUSDT', suppressed: 0 });
    expect(JSON.parse(warnings[0]!).msg).toMatch(/^strategy throwing threw on BTCUSDT: no model for BTCUSDT/);

    await vi.waitFor(async () => {
      const families = parsePrometheusTextFormat(await (await fetch(`${e.base}/metrics`)).text());
      const family = families.find((f) => f.name === 'tcs_trading_agent_errors_total');
      const value = (agent: string) =>
        Number(
          (family?.metrics as Array<{ labels: Record<string, string>; value: string }>).find(
            (m) => m.labels.agent === agent && m.labels.process === 'trading',
          )?.value,
        );
      expect(value('throwing')).toBeGreaterThanOrEqual(8);
      expect(value('btc_always_long')).toBe(0);
    }, WAIT);

    const health = (await (await fetch(`${e.base}/health`)).json()) as Health;
    expect(health.status).toBe('degraded');
    expect(health.components.trading_process.status).toBe('ok');
    expect(health.components.strategies).toMatchObject({
      status: 'failing',
      failing: [{ agent: 'throwing', message: expect.stringMatching(/^no model for /) }],
    });

    const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
    await page.goto(`${e.base}/`);
    await page.getByLabel('API key').fill(e.key);
    await page.getByLabel('API key').press('Enter');
    const marked = page
      .locator('[data-testid=decisions] tbody tr')
      .filter({ has: page.getByTestId('agent-error-mark') });
    await marked.first().waitFor({ timeout: 15_000 });
    expect(await marked.first().getByTestId('agent-error-mark').innerText()).toBe('⚠ 2');
    expect(await marked.first().getByTestId('agent-error-mark').getAttribute('title')).toBe('2 agent errors: throwing');
    await marked.first().getByRole('button').click();
    const listed = await page.getByTestId('agent-errors').innerText({ timeout: 10_000 });
    expect(listed).toContain('throwing');
    expect(listed).toContain('no model for BTCUSDT');
    expect(listed).toContain('no model for ETHUSDT');
  });
});
