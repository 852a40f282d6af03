/**
 * Bitget V2's signed-request check (Bitget API docs, "Signature"): ACCESS-KEY, ACCESS-PASSPHRASE,
 * ACCESS-TIMESTAMP (epoch ms) and ACCESS-SIGN = base64 HMAC-SHA256 with the secret of timestamp +
 * method + requestPath + ("?" + the query string, for a GET with one) + body (the JSON, for POST).
 * ccxt signs the query unencoded and sorted (ccxt: bitget sign, rawencode of keysort): the fake
 * checks the query as it arrived, decoded. Refused (40008) when the timestamp is more than 30 s
 * from the server's time. Nothing here logs or echoes the key, the secret or the passphrase.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { header } from '../../dialect.js';
import type { Credentials } from '../../signed-request.js';
import { bitgetErrors } from './errors.js';

/** docs: "the timestamp … differs from the server time by more than 30 seconds" is refused. */
const EXPIRY_MS = 30_000;

/** Checks a signed request; returns its parameters (the query, or the JSON body). */
export function verifyBitget(
  req: IncomingMessage,
  url: URL,
  body: string,
  credentials: Credentials,
  serverTime: number,
): Record<string, unknown> {
  const key = header(req, 'access-key');
  if (!key || !same(key, credentials.apiKey)) throw bitgetErrors.apiKey();
  if (!same(header(req, 'access-passphrase') ?? '', credentials.passphrase ?? '')) throw bitgetErrors.passphrase();
  const timestamp = header(req, 'access-timestamp') ?? '';
  const method = req.method ?? 'GET';
  const query = url.search === '' ? '' : decodeURIComponent(url.search);
  const payload = timestamp + method + url.pathname + (method === 'POST' ? body : query);
  const expected = createHmac('sha256', credentials.secret).update(payload).digest('base64');
  if (!same(header(req, 'access-sign') ?? '', expected)) throw bitgetErrors.sign();
  const t = Number(timestamp);
  if (!/^\d{13}$/.test(timestamp) || Math.abs(serverTime - t) > EXPIRY_MS) throw bitgetErrors.timestamp();
  if (method === 'POST') return body === '' ? {} : (JSON.parse(body) as Record<string, unknown>);
  return Object.fromEntries(url.searchParams);
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
