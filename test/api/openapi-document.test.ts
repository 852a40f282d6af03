/**
 * /openapi.json is valid OpenAPI 3.0.3 by a real validator (swagger-parser, against the official
 * schema), and says what the routes do: the optional bodies of pause, resume and kill-switch are
 * optional in the document too, with a real example reason for Swagger UI to pre-fill.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishOpenApiDocument } from '../../src/api/openapi-document.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

interface Schema {
  properties?: Record<string, Schema>;
  example?: unknown;
  [keyword: string]: unknown;
}
interface RequestBody {
  required?: boolean;
  content: Record<string, { schema: Schema }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: RequestBody }>>;
}

describe('the OpenAPI document', () => {
  let api: TestApi;
  let doc: Document;
  beforeAll(async () => {
    api = await openTestApi('sqlite');
    const res = await api.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(async () => api.close());

  const bodyOf = (path: string) => doc.paths[path]!.post!.requestBody!;
  const bodySchema = (path: string) => bodyOf(path).content['application/json']!.schema;

  it('is valid OpenAPI 3.0.3 (swagger-parser: zero errors)', async () => {
    expect(doc.openapi).toBe('3.0.3');
    // validate() dereferences in place, so it gets a copy.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('describes reduce_pct as (0, 1] in 3.0 form, and the API still refuses 0', async () => {
    expect(bodySchema('/control/deleverage').properties!.reduce_pct).toMatchObject({
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 1,
    });
    const res = await api.app.inject({
      method: 'POST',
      url: '/control/deleverage',
      headers: api.auth,
      payload: { symbol: 'BTCUSDT', reduce_pct: 0 },
    });
    expect(res.statusCode).toBe(422);
  });

  it('pause, resume and kill-switch: body not required, with a real example reason', async () => {
    for (const path of ['/control/pause', '/control/resume', '/control/kill-switch']) {
      expect(bodyOf(path).required, path).toBe(false);
      const reason = bodySchema(path).properties!.reason!;
      expect(reason.example, path).toEqual(expect.stringMatching(/^[a-z]+ [a-z ]+$/));
      expect(JSON.stringify(doc.paths[path]), path).not.toContain('x-tcs');
      // The document tells the truth: the route answers without any body.
      const res = await api.app.inject({ method: 'POST', url: path, headers: api.auth });
      expect(res.statusCode, path).toBe(200);
    }
    for (const path of ['/control/cancel-all', '/control/deleverage']) expect(bodyOf(path).required, path).toBe(true);
  });
});

describe('finishOpenApiDocument', () => {
  it('keeps the tighter of an exclusive and an inclusive bound', () => {
    const doc = finishOpenApiDocument({
      paths: {},
      a: { exclusiveMinimum: 0, minimum: -5, exclusiveMaximum: 10, maximum: 20 },
      b: { exclusiveMinimum: 0, minimum: 3, exclusiveMaximum: 10, maximum: 4 },
      c: { properties: { x: { items: [{ exclusiveMinimum: 2 }] } } },
      d: { example: { exclusiveMinimum: 7 } },
    });
    expect(doc).toEqual({
      paths: {},
      a: { minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true },
      b: { minimum: 3, maximum: 4 },
      c: { properties: { x: { items: [{ minimum: 2, exclusiveMinimum: true }] } } },
      d: { example: { exclusiveMinimum: 7 } },
    });
  });
});
