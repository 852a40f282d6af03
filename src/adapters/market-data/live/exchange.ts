/**
 * Opening a ccxt exchange for public market data. ccxt is large (tens of MB of exchange classes),
 * so it is imported lazily, here only: the API process and a trading process on synthetic data
 * never load it. No keys are ever set: everything used is a public endpoint.
 */
import type { Exchange } from 'ccxt';

export interface ExchangeOptions {
  /**
   * Serve every REST endpoint from this origin instead of the exchange's own (LIVE_EXCHANGE_URL:
   * a local fake exchange in tests, or a caching proxy). The paths stay the exchange's.
   */
  baseUrl?: string;
  /** ccxt's per-request timeout, ms. */
  timeoutMs?: number;
  /**
   * ccxt's throttle interval per unit of request weight, ms; the exchange's published rate by
   * default. The tests against the local fake exchange (no rate to respect) set 1.
   */
  rateLimitMs?: number;
}

/** The ccxt error classes the feed and the downloader judge errors by (loaded with ccxt). */
export interface CcxtErrors {
  NetworkError: new (...args: never[]) => Error;
  RateLimitExceeded: new (...args: never[]) => Error;
  DDoSProtection: new (...args: never[]) => Error;
  BadSymbol: new (...args: never[]) => Error;
}

export interface OpenedExchange {
  exchange: Exchange;
  errors: CcxtErrors;
}

export async function openExchange(id: string, options: ExchangeOptions = {}): Promise<OpenedExchange> {
  const ccxt = (await import('ccxt')).default;
  const ExchangeClass = (ccxt as unknown as Record<string, unknown>)[id];
  if (typeof ExchangeClass !== 'function' || !ccxt.exchanges.includes(id)) {
    throw new Error(`unknown exchange "${id}" (ccxt knows e.g. binanceusdm, bybit, okx)`);
  }
  const exchange = new (ExchangeClass as new (config: object) => Exchange)({
    // ccxt's own throttle keeps us within the exchange's published request rate.
    enableRateLimit: true,
    timeout: options.timeoutMs ?? 10_000,
    ...(options.rateLimitMs === undefined ? {} : { rateLimit: options.rateLimitMs }),
  });
  if (options.baseUrl) pointExchangeAt(exchange, options.baseUrl);
  return { exchange, errors: ccxt as unknown as CcxtErrors };
}

/**
 * Rewrites the origin of every URL in `urls.api` (nested maps included) to `baseUrl`, keeping the
 * path, so `https://fapi.binance.com/fapi/v1` becomes `http://127.0.0.1:PORT/fapi/v1`.
 */
export function pointExchangeAt(exchange: Exchange, baseUrl: string): void {
  let origin: string;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    throw new Error(`LIVE_EXCHANGE_URL must be an http(s) URL, got "${baseUrl}"`);
  }
  const rewrite = (node: unknown): unknown => {
    if (typeof node === 'string') return node.replace(/^https?:\/\/[^/]+/, origin);
    if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) record[key] = rewrite(record[key]);
    }
    return node;
  };
  rewrite((exchange.urls as Record<string, unknown>).api);
}
