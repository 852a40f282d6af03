/**
 * The trading process's authenticated exchange client, opened from EXCHANGE / EXCHANGE_TESTNET /
 * EXCHANGE_URL and the key and secret (src/runtime/exchange-config.ts). One instance per process:
 * constructing a ccxt exchange costs 20–120 ms, and its throttle (`enableRateLimit`) only works
 * across calls of the same instance. Choices (docs/operate/live-trading.md):
 *  - testnet = Binance's demo trading (`enableDemoTrading`): ccxt refuses private calls to the old
 *    futures sandbox unless told to ignore its deprecation, and points to demo trading instead;
 *  - no spot (sapi) calls at loadMarkets (`fetchCurrencies: false`): a futures-only or IP-restricted
 *    key would fail there;
 *  - EXCHANGE_URL by the transport hook (./point-ccxt.ts), so ccxt keeps its error tables;
 *  - every request has a deadline (`timeout`), and 429/418 are also backed off by the venue;
 *  - requests are signed with the exchange's time (`adjustForTimeDifference`: ccxt measures the
 *    difference at loadMarkets), within a recvWindow of RECV_WINDOW_MS; a local clock further off
 *    than half of it is refused at start (./account-check.ts).
 * The key and secret go to ccxt and nowhere else; a request's signature, which ccxt writes into a
 * failed request's error with its URL, is blanked there before the error goes on (a log line).
 */
import type { Exchange } from 'ccxt';
import type { CcxtErrorClasses } from './exchange-errors.js';
import { pointCcxtAt } from './point-ccxt.js';

/** Which exchange and where (src/runtime/exchange-config.ts reads and checks it). */
/** How long after its timestamp the exchange accepts a signed request, ms (ccxt's default for Binance). */
export const RECV_WINDOW_MS = 10_000;

export interface LiveExchangeConfig {
  exchange: 'binanceusdm';
  testnet: boolean;
  url: string | null;
}

export interface LiveExchangeCredentials {
  apiKey: string;
  secret: string;
}

export interface OpenedLiveExchange {
  exchange: Exchange;
  errors: CcxtErrorClasses;
}

export interface LiveExchangeOptions {
  /** Per-request deadline, ms (default 10 s). */
  timeoutMs?: number;
  /** ccxt's throttle per unit of weight, ms: the exchange's published rate unless given (a test's fake sets 1). */
  rateLimitMs?: number;
  /** A ccxt pro client (the REST client with the WebSocket methods): for the user-data stream. */
  pro?: boolean;
}

export async function openLiveExchange(
  config: LiveExchangeConfig,
  credentials: LiveExchangeCredentials,
  options: LiveExchangeOptions = {},
): Promise<OpenedLiveExchange> {
  const ccxt = (await import('ccxt')).default;
  const exchange = new (options.pro ? ccxt.pro[config.exchange] : ccxt[config.exchange])({
    apiKey: credentials.apiKey,
    secret: credentials.secret,
    enableRateLimit: true,
    timeout: options.timeoutMs ?? 10_000,
    ...(options.rateLimitMs === undefined ? {} : { rateLimit: options.rateLimitMs }),
    options: {
      fetchCurrencies: false,
      fetchOpenOrders: { warnWithoutSymbol: false },
      adjustForTimeDifference: true,
      recvWindow: RECV_WINDOW_MS,
    },
  });
  if (config.testnet) exchange.enableDemoTrading(true);
  if (config.url) pointCcxtAt(exchange, config.url);
  blankSignatures(exchange);
  return { exchange, errors: ccxt };
}

const SIGNATURE = /([?&]signature=)[0-9a-fA-F]+/g;

type Fetch = (url: string, method?: string, headers?: unknown, body?: unknown) => Promise<unknown>;

/** Hooks the client's transport: every error that comes out of a request has its signature blanked. */
function blankSignatures(exchange: Exchange): void {
  const hooked = exchange as unknown as { fetch: Fetch };
  const fetch = hooked.fetch.bind(exchange);
  hooked.fetch = async (url, method, headers, body) => {
    try {
      return await fetch(url, method, headers, body);
    } catch (err) {
      if (err instanceof Error) {
        err.message = err.message.replace(SIGNATURE, '$1<blank>');
        if (err.stack) err.stack = err.stack.replace(SIGNATURE, '$1<blank>');
      }
      throw err;
    }
  };
}
