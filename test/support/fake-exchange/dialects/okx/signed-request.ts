/**
 * OKX v5's signed-request check (OKX v5 docs, "REST Authentication"): OK-ACCESS-KEY, OK-ACCESS-PASSPHRASE,
 * OK-ACCESS-TIMESTAMP (ISO 8601 with milliseconds, UTC) and OK-ACCESS-SIGN = base64 HMAC-SHA256 with
 * the secret of timestamp + method + requestPath (with its query for GET) + body (the JSON for POST).
 * Refused (50102) when the timestamp is more than 30 s from the server's time. Nothing here logs or
 * echoes the key, the secret or the passphrase.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { header } from '../../dialect.js';
import type { Credentials } from '../../signed-request.js';
import { okxErrors } from './errors.js';

/** docs: "more than 30 seconds away from the server time". */
const EXPIRY_MS = 30_000;

/** Checks a signed request; returns its parameters (the query, or the JSON body: an object or a list). */
export function verifyOkx(
  req: IncomingMessage,
  url: URL,
  body: string,
  credentials: Credentials,
  serverTime: number,
): unknown {
  const key = header(req, 'ok-access-key');
  if (!key || !same(key, credentials.apiKey)) throw okxErrors.apiKey();
  if (!same(header(req, 'ok-access-passphrase') ?? '', credentials.passphrase ?? '')) throw okxErrors.passphrase();
  const timestamp = header(req, 'ok-access-timestamp') ?? '';
  const method = req.method ?? 'GET';
  const payload = timestamp + method + url.pathname + url.search + (method === 'POST' ? body : '');
  const expected = createHmac('sha256', credentials.secret).update(payload).digest('base64');
  if (!same(header(req, 'ok-access-sign') ?? '', expected)) throw okxErrors.sign();
  const t = Date.parse(timestamp);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(timestamp) || Math.abs(serverTime - t) > EXPIRY_MS)
    throw okxErrors.timestamp();
  if (method === 'POST') return body === '' ? {} : (JSON.parse(body) as unknown);
  return Object.fromEntries(url.searchParams);
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
