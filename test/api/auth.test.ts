/**
 * Authentication: every protected route × no / malformed / non-Bearer / wrong / right token, key
 * rotation, and that a refused call changes nothing (a kill-switch with a wrong key stays running).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey, keyId } from '../../src/domain/keys.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

const PROTECTED: Array<{ method: 'GET' | 'POST'; url: string; payload?: unknown }> = [
  { method: 'GET', url: '/control/mode' },
  { method: 'GET', url: '/control/status' },
  { method: 'POST', url: '/control/pause', payload: { reason: 'auth test' } },
  { method: 'POST', url: '/control/resume', payload: {} },
  { method: 'POST', url: '/control/kill-switch', payload: { reason: 'auth test' } },
  { method: 'POST', url: '/control/cancel-all', payload: { symbols: null } },
  { method: 'POST', url: '/control/deleverage', payload: { symbol: 'BTCUSDT', reduce_pct: 0.5 } },
  { method: 'GET', url: '/reports/decisions' },
  { method: 'GET', url: '/reports/notifications' },
];

describe('bearer authentication', () => {
  let api: TestApi;
  const rotated = generateKey();
  beforeAll(async () => {
    // Two keys accepted at once, as during a rotation.
    api = await openTestApi('sqlite', { apiKeys: [generateKey(), rotated] });
  });
  afterAll(async () => api.close());

  const badHeaders: Array<[string, Record<string, string>, boolean]> = [
    ['no Authorization header', {}, false],
    ['an empty header', { authorization: '' }, false],
    ['a Basic credential', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, true],
    ['Bearer with no token', { authorization: 'Bearer ' }, true],
    ['a wrong key', { authorization: `Bearer ${generateKey()}` }, true],
    ['the right key with a suffix', { authorization: `Bearer ${rotated}x` }, true],
    ['the key without the scheme', { authorization: rotated }, true],
  ];

  for (const route of PROTECTED) {
    for (const [label, headers, invalidToken] of badHeaders) {
      it(`${route.method} ${route.url} with ${label} → 401 and nothing changes`, async () => {
        const before = await api.store.control.read();
        const eventsBefore = await api.store.events.count();
        const res = await api.app.inject({
          method: route.method,
          url: route.url,
          headers,
          ...(route.payload ? { payload: route.payload as object } : {}),
        });
        expect(res.statusCode).toBe(401);
        expect(res.headers['www-authenticate']).toMatch(
          invalidToken ? /^Bearer realm="tcs", error="invalid_token"$/ : /^Bearer realm="tcs"$/,
        );
        expect(res.json()).toEqual({
          statusCode: 401,
          code: 'TCS_UNAUTHORIZED',
          error: 'Unauthorized',
          message: expect.any(String),
        });
        expect(res.body).not.toContain(rotated);
        expect(await api.store.control.read()).toEqual(before);
        expect(await api.store.events.count()).toBe(eventsBefore);
      });
    }
  }

  it('accepts every configured key (rotation), case-insensitive scheme, and audits the key id, never the key', async () => {
    for (const route of PROTECTED.filter((r) => r.method === 'GET')) {
      const res = await api.app.inject({
        method: 'GET',
        url: route.url,
        headers: { authorization: `bearer ${rotated}` },
      });
      expect(res.statusCode, route.url).toBe(200);
    }
    const res = await api.app.inject({
      method: 'POST',
      url: '/control/pause',
      headers: { authorization: `Bearer ${rotated}` },
      payload: { reason: 'rotation' },
    });
    expect(res.statusCode).toBe(200);
    const [audit] = await api.store.events.query({ kind: 'control', limit: 1 });
    expect(audit?.body.actor).toBe(keyId(rotated));
    expect(JSON.stringify(audit)).not.toContain(rotated);
  });

  it('leaves the public endpoints open', async () => {
    for (const url of ['/health', '/metrics', '/openapi.json', '/redoc']) {
      const res = await api.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
    }
  });
});
