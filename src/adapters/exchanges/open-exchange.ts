/**
 * The one place a ccxt exchange client is made: the live feed's and `tcs data download`'s public
 * client (`openExchange` without credentials: any exchange ccxt knows, no keys), and the trading
 * process's and `tcs venue check`'s authenticated one (`openLiveExchange`: a supported exchange only,
 * by its profile in ./registry.ts; anything else is refused naming the supported ones). ccxt is large
 * (tens of MB of exchange classes), so it is imported lazily, here only: the API process and a
 * trading process on synthetic data never load it. One instance per process and use: constructing a
 * ccxt exchange costs 20–120 ms, and its throttle (`enableRateLimit`) only works across calls of the
 * same instance.
 *
 * The authenticated client (docs/operate/live-trading.md):
 *  - testnet: the profile's `useTestnet` (Binance: demo trading);
 *  - ccxt options from the profile (`clientOptions`: no calls at loadMarkets the key may not make,
 *    requests signed with the exchange's time within its recvWindow; a local clock further off than
 *    half of it is refused at start, src/adapters/live-venue/account-check.ts);
 *  - EXCHANGE_URL by the transport hook (../live-venue/point-ccxt.ts), so ccxt keeps its error tables;
 *  - every request has a deadline (`timeout`), and 429/418 are also backed off by the venue;
 *  - the key and secret go to ccxt and nowhere else; a request's signature, which ccxt writes into a
 *    failed request's error with its URL, is blanked there before the error goes on (a log line).
 */
import type { Exchange } from 'ccxt';
import type ccxtModule from 'ccxt';
import type { CcxtErrorClasses } from '../live-venue/exchange-errors.js';
import { pointCcxtAt } from '../live-venue/point-ccxt.js';
import type { ExchangeProfile } from './profile.js';
import { exchangeProfile, findProfile } from './registry.js';
import type { ExchangeId } from './registry.js';

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
  /** A ccxt pro client (the REST client with the WebSocket methods): for the user-data stream. */
  pro?: boolean;
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

/**
 * A public client of any exchange ccxt knows (no keys). For a supported exchange, the markets it
 * loads are its profile's (`fetchMarkets`, `defaultType`, `defaultSubType`): `binance` is spot here,
 * and ccxt's binance would otherwise load the futures markets too (from fapi, which a spot-only
 * region or proxy may not serve).
 */
export async function openExchange(id: string, options: ExchangeOptions = {}): Promise<OpenedExchange> {
  const profile = findProfile(id);
  const { exchange, errors } = await construct(id, options, profile ? { options: marketScope(profile) } : {});
  if (options.baseUrl) pointExchangeAt(exchange, options.baseUrl);
  return { exchange, errors };
}

/** Which exchange and where (src/runtime/exchange-config.ts reads and checks it). */
export interface LiveExchangeConfig {
  exchange: ExchangeId;
  testnet: boolean;
  url: string | null;
}

export interface LiveExchangeCredentials {
  apiKey: string;
  secret: string;
  /** The key's passphrase where the profile says keys have one (OKX): ccxt's `password`. */
  passphrase?: string;
}

export interface OpenedLiveExchange {
  exchange: Exchange;
  errors: CcxtErrorClasses;
  profile: ExchangeProfile;
}

/** The authenticated client of a supported exchange (`config.exchange` is checked against the registry). */
export async function openLiveExchange(
  config: LiveExchangeConfig,
  credentials: LiveExchangeCredentials,
  options: Omit<ExchangeOptions, 'baseUrl'> = {},
): Promise<OpenedLiveExchange> {
  const profile = exchangeProfile(config.exchange);
  const { exchange, ccxt } = await construct(profile.id, options, {
    apiKey: credentials.apiKey,
    secret: credentials.secret,
    ...(profile.passphrase ? { password: requirePassphrase(profile, credentials.passphrase) } : {}),
    options: { ...profile.clientOptions },
  });
  if (config.testnet) profile.useTestnet(exchange);
  if (config.url) pointCcxtAt(exchange, config.url);
  blankSignatures(exchange, profile.signatureInUrl);
  return { exchange, errors: ccxt, profile };
}

/** The part of a profile's ccxt options that says which markets the client loads and means by default. */
function marketScope(profile: ExchangeProfile): Record<string, unknown> {
  const options = profile.clientOptions as Record<string, unknown>;
  const scope: Record<string, unknown> = {};
  for (const key of ['fetchMarkets', 'defaultType', 'defaultSubType'])
    if (options[key] !== undefined) scope[key] = options[key];
  return scope;
}

/** An exchange whose keys have a passphrase is not opened without one (ccxt would fail each signed call). */
function requirePassphrase(profile: ExchangeProfile, passphrase: string | undefined): string {
  if (!passphrase) throw new Error(`${profile.name} keys have a passphrase: set EXCHANGE_API_PASSPHRASE`);
  return passphrase;
}

async function construct(
  id: string,
  options: ExchangeOptions,
  settings: Record<string, unknown>,
): Promise<{ exchange: Exchange; errors: CcxtErrors; ccxt: typeof ccxtModule }> {
  const ccxt = (await import('ccxt')).default;
  const classes = (options.pro ? ccxt.pro : ccxt) as unknown as Record<string, unknown>;
  const ExchangeClass = classes[id];
  if (typeof ExchangeClass !== 'function' || !ccxt.exchanges.includes(id)) {
    throw new Error(`unknown exchange "${id}" (ccxt knows e.g. binanceusdm, bybit, okx)`);
  }
  const exchange = new (ExchangeClass as new (config: object) => Exchange)({
    ...settings,
    // ccxt's own throttle keeps us within the exchange's published request rate.
    enableRateLimit: true,
    timeout: options.timeoutMs ?? 10_000,
    ...(options.rateLimitMs === undefined ? {} : { rateLimit: options.rateLimitMs }),
  });
  return { exchange, errors: ccxt as unknown as CcxtErrors, ccxt };
}

type Fetch = (url: string, method?: string, headers?: unknown, body?: unknown) => Promise<unknown>;

/** Hooks the client's transport: every error that comes out of a request has its signature blanked. */
function blankSignatures(exchange: Exchange, signature: RegExp): void {
  const hooked = exchange as unknown as { fetch: Fetch };
  const fetch = hooked.fetch.bind(exchange);
  hooked.fetch = async (url, method, headers, body) => {
    try {
      return await fetch(url, method, headers, body);
    } catch (err) {
      if (err instanceof Error) {
        err.message = err.message.replace(signature, '$1<blank>');
        if (err.stack) err.stack = err.stack.replace(signature, '$1<blank>');
      }
      throw err;
    }
  };
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
