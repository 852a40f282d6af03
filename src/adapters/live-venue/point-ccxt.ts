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
 * A ccxt pro client's WebSocket URLs on the same origin, ws:// for http://, each keeping its path:
 * Binance's futures stream (…/ws; the user-data stream is …/private/ws?listenKey=), Bybit's v5 private
 * stream (…/v5/private: the connection its DCP watches). Every URL under `urls.api.ws` is rewritten,
 * whatever key the exchange keeps it under, so a new exchange needs no line here (issue 33: no
 * exchange is named outside its profile). ccxt refuses a plain ws:// URL unless it has an HTTP agent
 * (its proxy support): one is given. A REST-only client has no WebSocket URLs: nothing to do.
 */
function pointStreamAt(exchange: Exchange, origin: string): void {
  const api = (exchange.urls as { api?: { ws?: unknown } }).api;
  if (!api) return;
  // `ws` itself may be one URL (OKX) or a tree of them (Binance, Bybit): rewritten through a holder.
  const holder = { ws: api.ws };
  if (rewriteStreams(holder, origin.replace(/^http/, 'ws')) === 0) return;
  api.ws = holder.ws;
  if (origin.startsWith('http:')) (exchange as unknown as { httpAgent: Agent }).httpAgent = new Agent();
}

/** Rewrites, in place, the origin of every ws(s):// string in the tree; answers how many it rewrote. */
function rewriteStreams(tree: unknown, base: string): number {
  if (!tree || typeof tree !== 'object') return 0;
  const node = tree as Record<string, unknown>;
  let rewritten = 0;
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'string' && /^wss?:\/\//.test(value)) {
      // The host may hold a ccxt placeholder ({hostname}): everything up to the first path slash goes.
      node[key] = base + value.replace(/^wss?:\/\/[^/]*/, '');
      rewritten += 1;
    } else rewritten += rewriteStreams(value, base);
  }
  return rewritten;
}
