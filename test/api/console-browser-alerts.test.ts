/**
 * The console's browser notifications (issue 35 item 1), in Debian's Chromium against the real API on
 * a real SQLite store: with the page allowed to notify, a kill pressed elsewhere (here: the API, as
 * another operator or the CLI would) pops up "Trading killed" from the live stream. The page's
 * Notification constructor is wrapped to record what the console asked the browser to show (a
 * headless browser displays nothing to look at); the browser's own API still runs.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';
import { launchChromium } from '../support/chromium.js';

const RECORD_NOTIFICATIONS = `(() => {
  const Real = window.Notification;
  window.__shown = [];
  class Recorded extends Real {
    constructor(title, options) {
      super(title, options);
      window.__shown.push({ title, body: options?.body ?? null, tag: options?.tag ?? null });
    }
  }
  Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
  Recorded.requestPermission = (...a) => Real.requestPermission(...a);
  window.Notification = Recorded;
})();`;

describe('browser notifications in the console, in Chromium', () => {
  let api: TestApi;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    [api, browser] = await Promise.all([openTestApi('sqlite'), launchChromium('the console notifications test')]);
    base = await api.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('pops up a kill once the operator allowed it', async () => {
    const context = await browser.newContext();
    await context.grantPermissions(['notifications'], { origin: base });
    await context.addInitScript(RECORD_NOTIFICATIONS);
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.getByLabel('API key').fill(api.key);
    await page.getByLabel('API key').press('Enter');
    await page.getByText('Browser notifications are on for kills and halts.').waitFor({ timeout: 10_000 });
    // The console has read the running state: the kill is a change it sees on the stream.
    await page
      .getByText(/running/i)
      .first()
      .waitFor({ timeout: 10_000 });
    const kill = await api.app.inject({
      method: 'POST',
      url: '/control/kill-switch',
      headers: { authorization: `Bearer ${api.key}` },
      payload: { reason: 'browser notification drill' },
    });
    expect(kill.statusCode).toBe(200);
    await page.waitForFunction('window.__shown.length > 0', undefined, { timeout: 10_000 });
    expect(await page.evaluate('window.__shown')).toEqual([
      { title: 'Trading killed', body: 'The kill switch is engaged: no order runs.', tag: 'tcs-kill' },
    ]);
    await context.close();
  });
});
