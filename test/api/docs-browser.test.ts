/**
 * /docs and /redoc in a real browser (Debian's Chromium driven by playwright-core, never a
 * downloaded browser): every request either page makes, and every link on it, goes to the API's own
 * origin (no CDN, no logo, no font from elsewhere), and ReDoc renders the description's `Bearer <SERVICE_API_KEY>`
 * as text instead of swallowing `<SERVICE_API_KEY>` as an HTML tag. Fails, never skips, when
 * Chromium cannot start: CI installs it (.ci/run).
 */
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApi } from '../support/api.js';
import { launchChromium } from '../support/chromium.js';
import type { TestApi } from '../support/api.js';

describe('docs pages in Chromium', () => {
  let api: TestApi;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    api = await openTestApi('sqlite');
    await api.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium('the docs browser test');
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  /** Opens `path`, waits until `ready` is visible, and returns every URL the page requested. */
  async function visit(path: string, ready: string): Promise<{ page: Page; requested: string[] }> {
    const context = await browser.newContext();
    const requested: string[] = [];
    context.on('request', (request) => requested.push(request.url()));
    const page = await context.newPage();
    await page.goto(`${origin}${path}`);
    await page.locator(ready).first().waitFor({ state: 'visible', timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    return { page, requested };
  }

  /** Where the page's links lead (resolved to absolute URLs), so a link to another host counts too. */
  const linkTargets = (page: Page) =>
    page.locator('a[href]').evaluateAll((links) => links.map((a) => String(Reflect.get(a, 'href'))));

  /** Same origin, or a blob: URL the page made itself; data: URLs never leave the browser. */
  const foreign = (urls: string[]) =>
    urls.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith(`blob:${origin}/`) && !u.startsWith('data:'));

  it('/redoc loads only from the API and shows Bearer <SERVICE_API_KEY> as text', async () => {
    const { page, requested } = await visit('/redoc', 'text=Trading Control Service');
    expect(requested).toContain(`${origin}/openapi.json`);
    expect(foreign(requested)).toEqual([]);
    const text = await page.locator('body').innerText();
    expect(text).toContain('Bearer <SERVICE_API_KEY>');
    expect(foreign(await linkTargets(page))).toEqual([]);
    await page.context().close();
  });

  it('/docs (Swagger UI) loads only from the API', async () => {
    const { page, requested } = await visit('/docs', '.swagger-ui .info .title');
    expect(requested.some((u) => u.endsWith('/docs/json'))).toBe(true);
    expect(foreign(requested)).toEqual([]);
    expect(await page.locator('.swagger-ui .info').innerText()).toContain('Bearer <SERVICE_API_KEY>');
    expect(foreign(await linkTargets(page))).toEqual([]);
    await page.context().close();
  });
});
