/**
 * What the console shows for a failed call (console/lib/api-errors.ts), fed with the real API's
 * error bodies: a 401 reads "That key was refused", other errors keep the API's code and message,
 * and a body that is not the API's still gives a readable message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED_KEY, errorFromBody } from '../../console/lib/api-errors.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

describe('console API errors', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi('sqlite');
  });
  afterAll(async () => api?.close());

  const failed = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) => {
    const res = await api.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return errorFromBody(res.statusCode, res.json());
  };

  it('a refused key says so, whatever the body', async () => {
    const err = await failed('GET', '/control/status', { authorization: 'Bearer not-the-key' });
    expect(err).toMatchObject({ status: 401, message: REFUSED_KEY, unauthorized: true });
    expect(REFUSED_KEY).toBe('That key was refused');
  });

  it("keeps the API's code and message for the operator", async () => {
    await api.app.inject({ method: 'POST', url: '/control/kill-switch', headers: api.auth });
    const conflict = await failed('POST', '/control/pause', api.auth, {});
    expect(conflict).toMatchObject({ status: 409, code: 'TCS_STATE_CONFLICT', unauthorized: false });
    expect(conflict.message).toMatch(/cannot pause: the system is killed/);
    const invalid = await failed('POST', '/control/deleverage', api.auth, { symbol: 'BTCUSDT', reduce_pct: 2 });
    expect(invalid.status).toBe(422);
    expect(invalid.message).toMatch(/reduce_pct/);
  });

  it('reads a body that is not the API’s', () => {
    expect(errorFromBody(502, null)).toMatchObject({ code: 'HTTP_502', message: 'the API answered 502' });
    expect(errorFromBody(500, { nothing: 1 })).toMatchObject({ code: 'HTTP_500', message: 'the API answered 500' });
  });
});
