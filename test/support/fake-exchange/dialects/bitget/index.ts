/**
 * The fake's Bitget V2 dialect (USDT-M perpetuals, productType USDT-FUTURES, one-way mode):
 * Bitget's paths (./routes.ts, ./plan.ts), its ACCESS-* HMAC check with a passphrase
 * (./signed-request.ts), its `{code, msg, requestTime, data}` envelope (./shapes.ts), its error codes
 * (./errors.ts) and its rate-limit and server-error answers (./fault-replies.ts), over the same
 * engine as the other dialects. Requests are not weighed: Bitget limits by request count per
 * endpoint, which the fake does not model (docs/operate/bitget.md).
 */
import type { Dialect } from '../../dialect.js';
import { fromEngine } from './errors.js';
import { BITGET_FAULT_REPLIES } from './fault-replies.js';
import { PRIVATE, PUBLIC } from './routes.js';
import { envelope, failure } from './shapes.js';
import { verifyBitget } from './signed-request.js';

export const BITGET_DIALECT: Dialect = {
  id: 'bitget',
  venueContract: {
    name: 'live venue on the Bitget V2 fake',
    capabilities: {
      foreignOrders: true,
      lostAcknowledgements: true,
      protectiveStops: true,
      // Bitget's classic futures API has no cancel-all-after (src/adapters/exchanges/bitget.ts).
      deadMansSwitch: false,
      // The fake answers a rate limit as Bitget does: HTTP 429, code "429".
      rateLimits: true,
      // Bitget cancels a post-only order that would take (the fake's reading): expired, never filled.
      postOnly: true,
    },
    refusals: {
      margin: /40762/,
      reduceOnly: /22002/,
      minimum: /45110/,
      postOnly: /post-only/,
      rateLimited: /^RATE_LIMITED/,
    },
    createPath: '/api/v2/mix/order/place-order',
  },
  weighsRequests: false,
  faultReplies: BITGET_FAULT_REPLIES,
  isSigned: (req) => req.headers['access-sign'] !== undefined,
  route(ctx, req, url, body) {
    const key = `${req.method ?? 'GET'} ${url.pathname}`;
    const signed = PRIVATE[key];
    if (signed) return envelope(signed(verifyBitget(req, url, body, ctx.credentials, ctx.now()), ctx), ctx.now());
    const open = PUBLIC[key];
    if (!open) throw new BitgetError404(url.pathname);
    return envelope(open(Object.fromEntries(url.searchParams), ctx), ctx.now());
  },
  errorReply(err, now) {
    if (err instanceof BitgetError404) return { status: 404, body: failure(404, 'Not Found', now) };
    const e = fromEngine(err);
    return { status: e.status, body: failure(e.code, e.message, now) };
  },
  failedReply: (now) => ({ status: 400, body: failure(40017, 'Parameter verification failed', now) }),
};

/** A path the fake does not serve (Bitget answers an unknown path with HTTP 404). */
class BitgetError404 extends Error {}
