/**
 * Points a ccxt exchange at another origin (EXCHANGE_URL: a proxy, a regional endpoint, the tests'
 * fake exchange) by ccxt's own transport hook (`fetchImplementation`): every request goes to that
 * origin with its path and query unchanged, whichever host ccxt
 * meant — mainnet (fapi/api.binance.com), the testnet after setSandboxMode(true)
 * (testnet.binancefuture.com), demo trading after enableDemoTrading(true) (demo-fapi.binance.com).
 * The host meant travels in X-Forwarded-Host, so a proxy (or a test) can see which one ccxt chose.
 *
 * Why the transport and not `urls.api` (src/adapters/market-data/live/exchange.ts rewrites those,
 * which suits public data): ccxt judges Binance's errors by the URL's host — `getExceptionsByUrl`
 * applies its USDⓈ-M table only to https://fapi.binance.com/… or the testnet's /fapi — and refuses
 * private calls to the futures testnet in sandbox mode unless `options.disableFuturesSandboxWarning`
 * is set. With rewritten URLs both silently change (-4164 min notional, -4116 duplicate id,
 * -2022 reduce-only, -2019 margin become a bare ExchangeError; the testnet refusal disappears). Here
 * ccxt keeps its real URLs, so it behaves exactly as it would against the exchange.
 */
import { Agent } from 'node:http';
import type { Exchange } from 'ccxt';

interface CcxtRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export function pointCcxtAt(exchange: Exchange, fakeUrl: string): void {
  if (exchange.fetchImplementationLoading !== undefined) {
    // ccxt has settled on its own transport (undici) and would no longer consult the hook.
    throw new Error('pointCcxtAt must be called before the exchange sends its first request');
  }
  const origin = new URL(fakeUrl).origin;
  pointStreamAt(exchange, origin);
  exchange.fetchImplementation = (url: string, init: CcxtRequestInit) => {
    const meant = new URL(url);
    return fetch(origin + meant.pathname + meant.search, {
      method: init.method ?? 'GET',
      headers: { ...init.headers, 'x-forwarded-host': meant.host },
      body: init.body ?? null,
      signal: init.signal ?? null,
      redirect: 'error',
    });
  };
}

/**
 * A ccxt pro client's private WebSocket on the same origin, ws:// for http://: Binance's futures
 * base (…/ws; the user-data stream is …/private/ws?listenKey=), Bybit's v5 private stream
 * (`private.contract`, …/v5/private: the connection its DCP watches). ccxt refuses a plain ws:// URL
 * unless it has an HTTP agent (its proxy support): one is given. A REST-only client has no
 * WebSocket URLs: nothing to do.
 */
function pointStreamAt(exchange: Exchange, origin: string): void {
  const ws = (exchange.urls as { api?: { ws?: Record<string, unknown> } }).api?.ws;
  if (!ws) return;
  const base = origin.replace(/^http/, 'ws');
  const bybitPrivate = ws['private'] as Record<string, unknown> | undefined;
  if (typeof ws['future'] === 'string') ws['future'] = `${base}/ws`;
  else if (bybitPrivate && typeof bybitPrivate['contract'] === 'string')
    bybitPrivate['contract'] = `${base}/v5/private`;
  else return;
  if (origin.startsWith('http:')) (exchange as unknown as { httpAgent: Agent }).httpAgent = new Agent();
}
