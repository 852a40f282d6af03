/**
 * Integer query parameters accept decimal digits only. Ajv's query coercion is JavaScript's
 * Number(): it reads "0x10" as 16, "1e309" as Infinity, " 5" as 5 and "1e3" as 1000, so a
 * mistyped or crafted query would page through the log with a number nobody wrote. Every
 * integer parameter of /reports/decisions is checked, and a plain decimal still works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

const INTEGER_PARAMS = ['limit', 'before'];
const NOT_DECIMAL = ['0x10', '1e309', '1e3', '0b11', '0o7', 'Infinity', '%2010', '10.0', '+5', '', '9007199254740993'];

describe('integer query parameters', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi('sqlite');
  });
  afterAll(async () => api.close());

  const get = (query: string) =>
    api.app.inject({ method: 'GET', url: `/reports/decisions?${query}`, headers: api.auth });

  for (const param of INTEGER_PARAMS) {
    for (const raw of NOT_DECIMAL) {
      it(`${param}=${raw} → 422 naming the parameter`, async () => {
        const res = await get(`${param}=${raw}`);
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json()).toEqual({
          statusCode: 422,
          code: 'FST_ERR_VALIDATION',
          error: 'Unprocessable Entity',
          message: `querystring/${param} must be a decimal integer`,
        });
      });
    }
    it(`${param}=16 and ${param}=016 are accepted (decimal, leading zeros allowed)`, async () => {
      expect((await get(`${param}=16`)).statusCode).toBe(200);
      expect((await get(`${param}=016`)).statusCode).toBe(200);
    });
  }

  it('the range checks still apply to decimal input', async () => {
    expect((await get('limit=0')).json().message).toBe('querystring/limit must be >= 1');
    expect((await get('limit=1001')).json().message).toBe('querystring/limit must be <= 1000');
  });
});
