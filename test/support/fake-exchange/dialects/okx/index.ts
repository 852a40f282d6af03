/**
 * The fake's OKX v5 dialect (USDT-margined perpetual swaps, net position mode): OKX's paths
 * (./routes.ts), its OK-ACCESS-* HMAC check with a passphrase (./signed-request.ts), its
 * `{code, msg, data}` envelope (./shapes.ts) and its error codes (./errors.ts), over the same engine
 * as Binance's and Bybit's. Requests are not weighed: OKX limits by request count per endpoint, which
 * the fake does not model (docs/operate/okx.md).
 */
import type { Dialect } from '../../dialect.js';
import { fromEngine } from './errors.js';
import { PRIVATE, PUBLIC } from './routes.js';
import { envelope } from './shapes.js';
import { verifyOkx } from './signed-request.js';

export const OKX_DIALECT: Dialect = {
  id: 'okx',
  venueContract: {
    name: 'live venue on the OKX v5 fake',
    capabilities: {
      foreignOrders: true,
      lostAcknowledgements: true,
      protectiveStops: true,
      // OKX's cancel-all-after: account-wide, at most 120 s (src/adapters/exchanges/okx.ts).
      deadMansSwitch: true,
      // The fake's 429 answers are Binance's; OKX's per-endpoint limits (50011) are not modelled.
      rateLimits: false,
      // OKX accepts a crossing post-only order and cancels it at once (cancelSource 31): expired, never filled.
      postOnly: true,
    },
    refusals: {
      margin: /51008/,
      reduceOnly: /51169/,
      minimum: /51020/,
      postOnly: /post-only/,
      rateLimited: /^RATE_LIMITED/,
    },
    createPath: '/api/v5/trade/order',
  },
  weighsRequests: false,
  isSigned: (req) => req.headers['ok-access-sign'] !== undefined,
  route(ctx, req, url, body) {
    const key = `${req.method ?? 'GET'} ${url.pathname}`;
    const signed = PRIVATE[key];
    // A batch (cancel-batch-orders, cancel-algos) is a JSON list: its handler reads it as one.
    if (signed)
      return envelope(signed(verifyOkx(req, url, body, ctx.credentials, ctx.now()) as Record<string, unknown>, ctx));
    const open = PUBLIC[key];
    if (!open) throw new OkxError404(url.pathname);
    return envelope(open(Object.fromEntries(url.searchParams), ctx));
  },
  errorReply(err) {
    if (err instanceof OkxError404) return { status: 404, body: { code: '404', msg: 'Not Found', data: [] } };
    const e = fromEngine(err);
    if (e.ofOrder)
      return {
        status: 200,
        body: {
          code: '1',
          msg: 'All operations failed',
          data: [{ ordId: '', clOrdId: '', tag: '', sCode: String(e.code), sMsg: e.message }],
        },
      };
    return { status: e.status, body: { code: String(e.code), msg: e.message, data: [] } };
  },
  failedReply: () => ({ status: 400, body: { code: '51000', msg: 'Parameter error', data: [] } }),
};

/** A path the fake does not serve (OKX answers an unknown path with HTTP 404). */
class OkxError404 extends Error {}
