/**
 * The API is a plugin: it registers into a plain Fastify instance (no API server options) and brings
 * its own error handling, validation messages, auth and docs; its named parts declare what they
 * depend on; and it leaves the store it was given to whoever opened it.
 */
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { api } from '../../src/api/app.js';
import { rateLimitPlugin } from '../../src/api/rate-limit.js';
import { parseInstruments } from '../../src/domain/instruments.js';
import { generateKey } from '../../src/domain/keys.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

describe('the API plugin', () => {
  let t: TestStore | undefined;
  afterEach(async () => t?.cleanup());

  it('registers into a plain Fastify instance and serves the whole API', async () => {
    t = await openTestStore('sqlite');
    const key = generateKey();
    const app = Fastify();
    await app.register(api, {
      store: t.store,
      apiKeys: [key],
      instruments: parseInstruments('BTCUSDT,ETHUSDT'),
      defaultMode: 'paper',
      controlRateLimit: 100,
    });
    await app.ready();
    for (const name of ['tcs-api', 'tcs-auth', 'tcs-metrics', 'tcs-docs', 'tcs-rate-limit']) {
      expect(app.hasPlugin(name), name).toBe(true);
    }
    const auth = { authorization: `Bearer ${key}` };

    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    const unauthorized = await app.inject({ method: 'GET', url: '/control/status' });
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.json()).toMatchObject({ code: 'TCS_UNAUTHORIZED' });

    const paused = await app.inject({ method: 'POST', url: '/control/pause', headers: auth });
    expect(paused.json()).toMatchObject({ state: 'paused', changed: true });
    // The plugin's own validator and message format, not Fastify's defaults (which coerce and strip).
    const invalid = await app.inject({
      method: 'POST',
      url: '/control/deleverage',
      headers: auth,
      payload: { symbol: 'BTCUSDT', reduce_pct: '0.5' },
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().message).toBe(
      'body/reduce_pct must be number: a fraction of the position in (0, 1]; 50 % is 0.5',
    );
    const missing = await app.inject({ method: 'GET', url: '/nowhere' });
    expect(missing.json()).toMatchObject({ statusCode: 404, code: 'TCS_NOT_FOUND' });
    expect((await app.inject({ method: 'GET', url: '/openapi.json' })).json().paths['/control/pause']).toBeDefined();

    await app.close();
    // The store belongs to whoever opened it: closing the API leaves it open and usable.
    expect((await t.store.control.read()).state).toBe('paused');
  });

  it('refuses the rate limiter without the auth plugin it depends on', async () => {
    const app = Fastify();
    app.register(rateLimitPlugin);
    await expect(app.ready()).rejects.toThrow(/tcs-auth/);
    await app.close();
  });
});
