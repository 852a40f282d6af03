/**
 * The operator console as the API serves it: the page at / is public HTML with a Content-Security-
 * Policy that allows this origin only; its script and stylesheet are served; nothing in them loads
 * from another host; unknown paths keep the API's standard 404; an API without a built console
 * says so at / instead of a bare 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP, consoleAssetsDir } from '../../src/api/console/console-plugin.js';
import { createApi } from '../../src/api/create-api.js';
import { parseInstruments } from '../../src/domain/instruments.js';
import { generateKey } from '../../src/domain/keys.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';
import { openTestStore } from '../support/stores.js';

/**
 * Hosts named in the bundle that are never contacted: www.w3.org in XML namespace names (Preact's
 * SVG and MathML), and www.tradingview.com in lightweight-charts' attribution logo link, which the
 * console turns off (attributionLogo: false; the browser test checks no link leaves the origin).
 */
const NAMED_NOT_CONTACTED = new Set(['www.w3.org', 'www.tradingview.com']);

describe('operator console assets', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi('sqlite');
  });
  afterAll(async () => api?.close());

  it('serves the page at / without a key, as HTML, with a same-origin-only CSP', async () => {
    expect(consoleAssetsDir()).not.toBeNull();
    const res = await api.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("default-src 'none'");
    expect(CONSOLE_CSP).toContain("connect-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toContain('<div id="app"></div>');
    expect(res.body).toContain('src="/app.js"');
    expect(res.body).toContain('href="/styles.css"');
  });

  it('serves the script and stylesheet, and neither page nor assets address another host', async () => {
    const page = (await api.app.inject({ method: 'GET', url: '/' })).body;
    const script = await api.app.inject({ method: 'GET', url: '/app.js' });
    const styles = await api.app.inject({ method: 'GET', url: '/styles.css' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.body.length).toBeGreaterThan(10_000);
    expect(styles.statusCode).toBe(200);
    expect(styles.headers['content-type']).toMatch(/^text\/css/);
    // Every local reference of the page is root-relative; no address anywhere names a host.
    for (const ref of page.matchAll(/(?:src|href)="([^"]*)"/g)) expect(ref[1]).toMatch(/^(\/[^/]|data:)/);
    expect(page).not.toMatch(/https?:\/\//);
    expect(styles.body).not.toMatch(/https?:\/\/|@import|url\(\s*['"]?\/\//);
    const hosts = new Set([...script.body.matchAll(/https?:\/\/([^/\s"'`)$]+)/g)].map((m) => m[1]));
    expect([...hosts].filter((h) => !NAMED_NOT_CONTACTED.has(h!))).toEqual([]);
    // No font, stylesheet or module is fetched from elsewhere by the script either.
    expect(script.body).not.toMatch(/fonts\.googleapis|cdn\.|unpkg|jsdelivr/);
  });

  it('leaves unknown paths to the standard 404, and keeps /control behind the key', async () => {
    const missing = await api.app.inject({ method: 'GET', url: '/nothing-here.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ statusCode: 404, code: 'TCS_NOT_FOUND' });
    expect((await api.app.inject({ method: 'GET', url: '/control/portfolio' })).statusCode).toBe(401);
  });

  it('says the console is not built when its assets are missing', async () => {
    const t = await openTestStore('sqlite');
    const bare = await createApi({
      store: t.store,
      apiKeys: [generateKey()],
      instruments: parseInstruments('BTCUSDT'),
      defaultMode: 'paper',
      controlRateLimit: 10,
      consoleRoot: null,
    });
    try {
      const res = await bare.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'TCS_CONSOLE_NOT_BUILT' });
    } finally {
      await bare.close();
      await t.cleanup();
    }
  });
});
