/**
 * A request carrying two Authorization headers is refused (401), whichever of them holds the right
 * key: Node keeps only the first, so a proxy that appends its own header, or a client that sends a
 * stale and a fresh one, would otherwise be judged on whichever came first. Sent over a real socket,
 * since only a real HTTP parser sees both lines.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

function get(port: number, path: string, authorization: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    // An array value makes Node's client send one header line per element.
    req.setHeader('authorization', authorization);
    req.on('error', reject);
    req.end();
  });
}

describe('two Authorization headers', () => {
  let api: TestApi;
  let port: number;
  beforeAll(async () => {
    api = await openTestApi('sqlite');
    await api.app.listen({ host: '127.0.0.1', port: 0 });
    port = (api.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => api.close());

  it('one right key alone is accepted (the socket path works)', async () => {
    expect((await get(port, '/control/status', [`Bearer ${api.key}`])).status).toBe(200);
  });

  for (const [label, pair] of [
    ['right then wrong', (key: string) => [`Bearer ${key}`, `Bearer ${generateKey()}`]],
    ['wrong then right', (key: string) => [`Bearer ${generateKey()}`, `Bearer ${key}`]],
    ['the right key twice', (key: string) => [`Bearer ${key}`, `Bearer ${key}`]],
  ] as const) {
    it(`${label} → 401 with a message saying why`, async () => {
      const res = await get(port, '/control/status', pair(api.key));
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body)).toEqual({
        statusCode: 401,
        code: 'TCS_UNAUTHORIZED',
        error: 'Unauthorized',
        message: 'more than one Authorization header: send exactly one',
      });
    });
  }
});
