/**
 * Binance's SIGNED endpoint security, checked the way the exchange documents it: the key in the
 * X-MBX-APIKEY header; `signature` = hex HMAC-SHA256, keyed with the secret, of totalParams (the
 * query string followed by the request body, exactly as sent, less the signature itself);
 * `timestamp` within `recvWindow` (default 5000 ms, at most 60000) of the server's clock and not
 * more than 1000 ms ahead of it. Nothing here logs or echoes the key or the secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { errors } from './binance-errors.js';

export interface Credentials {
  apiKey: string;
  secret: string;
  /** The key's passphrase, for a dialect whose keys have one (OKX). */
  passphrase?: string;
}

export interface SignedRequest {
  /** The raw query string (without '?') and form body, as they arrived. */
  query: string;
  body: string;
  apiKeyHeader: string | undefined;
}

/** Binance's API keys are 64 alphanumerics; anything else is refused before the key is looked up. */
const API_KEY_FORMAT = /^[A-Za-z0-9]{1,128}$/;

/** Verifies a signed request; returns its parameters (query over body) or throws a BinanceError. */
export function verifySigned(req: SignedRequest, credentials: Credentials, serverTime: number): URLSearchParams {
  const key = req.apiKeyHeader;
  if (!key || !API_KEY_FORMAT.test(key)) throw errors.badApiKeyFormat();
  if (!sameText(key, credentials.apiKey)) throw errors.rejectedApiKey();

  const inQuery = withoutSignature(req.query);
  const inBody = withoutSignature(req.body);
  const signature = inQuery.signature ?? inBody.signature;
  if (!signature) throw errors.mandatory('signature');
  const expected = createHmac('sha256', credentials.secret)
    .update(inQuery.rest + inBody.rest)
    .digest('hex');
  // The signature is not case sensitive (Binance's words).
  if (!sameText(signature.toLowerCase(), expected)) throw errors.badSignature();

  const params = new URLSearchParams(req.body);
  for (const [name, value] of new URLSearchParams(req.query)) params.set(name, value);
  params.delete('signature');
  checkTiming(params, serverTime);
  return params;
}

function checkTiming(params: URLSearchParams, serverTime: number): void {
  const timestamp = Number(params.get('timestamp'));
  if (!params.get('timestamp') || !Number.isInteger(timestamp)) throw errors.mandatory('timestamp');
  const recvWindow = params.has('recvWindow') ? Number(params.get('recvWindow')) : 5000;
  if (!Number.isInteger(recvWindow) || recvWindow <= 0 || recvWindow > 60_000) throw errors.mandatory('recvWindow');
  if (timestamp >= serverTime + 1000) throw errors.aheadOfServer();
  if (serverTime - timestamp > recvWindow) throw errors.outsideRecvWindow();
}

/** Splits `signature=…` off a raw parameter string, keeping the rest byte for byte. */
function withoutSignature(raw: string): { rest: string; signature: string | undefined } {
  const parts = raw === '' ? [] : raw.split('&');
  const at = parts.findIndex((p) => p.startsWith('signature='));
  if (at < 0) return { rest: raw, signature: undefined };
  const signature = decodeURIComponent(parts[at]!.slice('signature='.length));
  parts.splice(at, 1);
  return { rest: parts.join('&'), signature };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
