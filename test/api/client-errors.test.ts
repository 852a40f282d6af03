/**
 * Errors Node's HTTP parser raises before Fastify sees a request (headers too large, a
 * Content-Length that is malformed, repeated or not matched by the body) answer with the standard
 * error body and a stable `code`, like every other error. Sent over a raw TCP socket to a listening
 * instance: no HTTP client would send such requests.
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

/** Writes `request`, half-closes, and returns everything the server sent until it closed. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

function parse(raw: string): { status: number; headers: string; body: unknown } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]);
  return { status, headers: head.toLowerCase(), body: JSON.parse(body) };
}

describe('errors below the routes', () => {
  let api: TestApi;
  let port: number;
  beforeAll(async () => {
    api = await openTestApi('sqlite');
    await api.app.listen({ host: '127.0.0.1', port: 0 });
    port = (api.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => api.close());

  it('header fields too large → 431 TCS_HEADERS_TOO_LARGE', async () => {
    const res = parse(await exchange(port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(res.status).toBe(431);
    expect(res.headers).toContain('content-type: application/json');
    expect(res.body).toEqual({
      statusCode: 431,
      code: 'TCS_HEADERS_TOO_LARGE',
      error: 'Request Header Fields Too Large',
      message: expect.stringContaining('headers'),
    });
  });

  const body = '{"reason":"content-length test"}';
  const post = (contentLength: string) =>
    `POST /control/pause HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer KEY\r\n` +
    `Content-Type: application/json\r\n${contentLength}\r\n\r\n${body}`;

  it.each([
    ['larger than the body', `Content-Length: ${body.length + 10}`],
    ['not a number', 'Content-Length: abc'],
    ['sent twice with different values', `Content-Length: ${body.length}\r\nContent-Length: ${body.length + 1}`],
  ])('a Content-Length %s → 400 TCS_BAD_CONTENT_LENGTH, and nothing changes', async (_label, contentLength) => {
    const raw = await exchange(port, post(contentLength).replace('KEY', api.key));
    const res = parse(raw);
    expect(res.status, raw).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      code: 'TCS_BAD_CONTENT_LENGTH',
      error: 'Bad Request',
      message: expect.stringContaining('Content-Length'),
    });
    expect((await api.store.control.read()).state).toBe('running');
  });

  it('any other malformed request → 400 TCS_MALFORMED_REQUEST', async () => {
    const res = parse(await exchange(port, 'GET /health HTTP/1.1\r\nHost: x\r\nBad Header Name: 1\r\n\r\n'));
    expect(res.body).toEqual({
      statusCode: 400,
      code: 'TCS_MALFORMED_REQUEST',
      error: 'Bad Request',
      message: expect.any(String),
    });
  });
});
