/**
 * Public surface: the OpenAPI document reflects every route with schemas, the bearer scheme and the
 * error responses; /docs and /redoc serve working pages with their assets (no CDN); /metrics parses
 * as Prometheus text and counts what happened.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

interface OpenApiOperation {
  security?: unknown[];
  responses: Record<string, unknown>;
  requestBody?: unknown;
  tags?: string[];
}

describe('docs and metrics', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi('sqlite');
  });
  afterAll(async () => api.close());

  it('/openapi.json describes every route, its schemas, the bearer scheme and 401/409/422', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      openapi: string;
      paths: Record<string, Record<string, OpenApiOperation>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(
      [
        'GET /health',
        'GET /metrics',
        'GET /control/mode',
        'GET /control/status',
        'GET /control/events',
        'GET /control/machines',
        'POST /control/pause',
        'POST /control/resume',
        'POST /control/kill-switch',
        'POST /control/cancel-all',
        'POST /control/deleverage',
        'POST /control/flatten',
        'POST /control/risk/reset',
        'GET /reports/decisions',
        'GET /reports/notifications',
        'GET /reports/fills',
        'GET /control/portfolio',
        'GET /control/deleverage/preview',
        'GET /reports/audit-chain',
      ].sort(),
    );
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.tags?.length, `${method} ${path} tags`).toBeGreaterThan(0);
        expect(op.responses['200'], `${method} ${path} 200`).toBeDefined();
        if (path.startsWith('/control') || path.startsWith('/reports')) {
          expect(op.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
          expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['401', '422']));
        } else {
          expect(op.security, `${method} ${path}`).toBeUndefined();
        }
        if (method === 'post') expect(op.requestBody, `${method} ${path}`).toBeDefined();
      }
    }
    expect(Object.keys(doc.paths['/control/resume']!.post!.responses)).toContain('409');
    expect(Object.keys(doc.paths['/control/pause']!.post!.responses)).toContain('409');
    // The kill switch gains only the optional `flatten` in its body; its answer is the spec's, unchanged.
    const kill = doc.paths['/control/kill-switch']!.post! as unknown as {
      requestBody: { content: Record<string, { schema: { properties: object; required?: string[] } }> };
      responses: Record<string, { content: Record<string, { schema: { properties: object } }> }>;
    };
    const killBody = kill.requestBody.content['application/json']!.schema;
    expect(Object.keys(killBody.properties).sort()).toEqual(['flatten', 'reason']);
    expect(killBody.required ?? []).toEqual([]);
    const killAnswer = kill.responses['200']!.content['application/json']!.schema;
    expect(Object.keys(killAnswer.properties).sort()).toEqual(['action', 'cancel_instructions', 'reason']);
  });

  it('/docs serves Swagger UI with try-it-out, and its assets load', async () => {
    const page = await api.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const scripts = [...page.body.matchAll(/src="\.?\/?([^"]+\.js)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const asset = await api.app.inject({ method: 'GET', url: `/docs/${script.replace(/^\.\//, '')}` });
      expect(asset.statusCode, script).toBe(200);
    }
    const init = await api.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.body).toContain('tryItOutEnabled');
    expect((await api.app.inject({ method: 'GET', url: '/docs/json' })).statusCode).toBe(200);
  });

  it('/redoc serves ReDoc from the npm bundle, pointed at /openapi.json', async () => {
    const page = await api.app.inject({ method: 'GET', url: '/redoc' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('spec-url="/openapi.json"');
    expect(page.body).not.toMatch(/https?:\/\//);
    const bundle = await api.app.inject({ method: 'GET', url: '/redoc/redoc.standalone.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toContain('javascript');
    expect(bundle.rawPayload.length).toBeGreaterThan(100_000);
  });

  it('/metrics parses as Prometheus text and counts requests, control calls and the state', async () => {
    await api.app.inject({ method: 'POST', url: '/control/pause', headers: api.auth, payload: { reason: 'metrics' } });
    await api.app.inject({ method: 'POST', url: '/control/pause', headers: api.auth });
    await api.app.inject({ method: 'GET', url: '/control/status' });
    const res = await api.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const families = parsePrometheusTextFormat(res.body);
    const byName = new Map(families.map((f) => [f.name, f]));
    const value = (name: string, labels: Record<string, string>) =>
      byName.get(name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value;
    expect(value('tcs_control_calls_total', { event: 'control.pause', outcome: 'changed' })).toBe('1');
    expect(value('tcs_control_calls_total', { event: 'control.pause', outcome: 'unchanged' })).toBe('1');
    expect(value('tcs_system_state', { state: 'paused', process: 'api' })).toBe('1');
    expect(value('tcs_system_state', { state: 'running' })).toBe('0');
    expect(value('tcs_http_requests_total', { route: '/control/status', status_code: '401', method: 'GET' })).toBe('1');
    expect(byName.get('tcs_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    expect(byName.has('process_cpu_user_seconds_total')).toBe(true);
    expect(res.body).not.toContain(api.key);
  });
});
