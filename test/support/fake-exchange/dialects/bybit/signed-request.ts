/**
 * Bybit v5's signed-request check (Bybit v5 docs, "Integration Guidance → Authentication"): the key
 * in X-BAPI-API-KEY, X-BAPI-TIMESTAMP (ms), X-BAPI-RECV-WINDOW (default 5000), X-BAPI-SIGN = hex
 * HMAC-SHA256 with the secret of timestamp + key + recvWindow + (the query string for GET, the JSON
 * body for POST). Accepted when server − recvWindow ≤ timestamp < server + 1000. Nothing here logs
 * or echoes the key or the secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { header } from '../../dialect.js';
import type { Credentials } from '../../signed-request.js';
import { bybitErrors } from './errors.js';

/** Checks a signed request; returns its parameters (the query, or the JSON body's fields). */
export function verifyBybit(
  req: IncomingMessage,
  url: URL,
  body: string,
  credentials: Credentials,
  serverTime: number,
): Record<string, unknown> {
  const key = header(req, 'x-bapi-api-key');
  if (!key || !same(key, credentials.apiKey)) throw bybitErrors.apiKey();
  const timestamp = header(req, 'x-bapi-timestamp') ?? '';
  const recvWindow = header(req, 'x-bapi-recv-window') ?? '5000';
  const payload = req.method === 'POST' ? body : url.search.replace(/^\?/, '');
  const expected = createHmac('sha256', credentials.secret)
    .update(timestamp + key + recvWindow + payload)
    .digest('hex');
  if (!same((header(req, 'x-bapi-sign') ?? '').toLowerCase(), expected)) throw bybitErrors.sign();
  const t = Number(timestamp);
  if (!Number.isInteger(t) || t >= serverTime + 1000 || serverTime - t > Number(recvWindow))
    throw bybitErrors.timestamp();
  if (req.method === 'POST') return body === '' ? {} : (JSON.parse(body) as Record<string, unknown>);
  return Object.fromEntries(url.searchParams);
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
