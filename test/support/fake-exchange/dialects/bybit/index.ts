/**
 * The fake's Bybit v5 dialect (USDT linear perpetuals): Bybit's paths (./routes.ts), its
 * X-BAPI-* HMAC check (./signed-request.ts), its `{retCode, retMsg, result, retExtInfo, time}`
 * envelope (./shapes.ts), its error codes (./errors.ts) and its rate-limit, ban and server-error
 * answers (./fault-replies.ts), over the same engine as Binance's.
 * Requests are not weighed: Bybit limits by request count per endpoint, which the fake does not
 * model (docs/operate/bybit.md).
 */
import type { Dialect } from '../../dialect.js';
import { bybitErrors, fromEngine } from './errors.js';
import { BYBIT_FAULT_REPLIES } from './fault-replies.js';
import { BybitPrivateSocket } from './private-socket.js';
import { PRIVATE, PUBLIC } from './routes.js';
import { envelope } from './shapes.js';
import { verifyBybit } from './signed-request.js';

export const BYBIT_DIALECT: Dialect = {
  id: 'bybit',
  venueContract: {
    name: 'live venue on the Bybit v5 fake',
    capabilities: {
      foreignOrders: true,
      lostAcknowledgements: true,
      protectiveStops: true,
      // Bybit's DCP needs a private websocket; the profile has no dead-man's switch.
      deadMansSwitch: false,
      // Bybit's "too many visits" (HTTP 200, retCode 10006, the reset time in a header).
      rateLimits: true,
      // Bybit accepts a crossing post-only order and cancels it at once (EC_PostOnlyWillTakeLiquidity): expired, never filled.
      postOnly: true,
    },
    refusals: {
      margin: /\(110007\)/,
      reduceOnly: /\(110017\)/,
      minimum: /\(110094\)/,
      postOnly: /EC_PostOnlyWillTakeLiquidity/,
      rateLimited: /^RATE_LIMITED/,
    },
    createPath: '/v5/order/create',
  },
  weighsRequests: false,
  // /v5/private: auth, ping/pong, the order topic and DCP (./private-socket.ts).
  privateSocket: (deps) => new BybitPrivateSocket(deps),
  faultReplies: BYBIT_FAULT_REPLIES,
  isSigned: (req) => req.headers['x-bapi-sign'] !== undefined,
  route(ctx, req, url, body) {
    const key = `${req.method ?? 'GET'} ${url.pathname}`;
    const signed = PRIVATE[key];
    if (signed) return envelope(signed(verifyBybit(req, url, body, ctx.credentials, ctx.now()), ctx), ctx.now());
    const open = PUBLIC[key];
    if (!open) throw bybitErrors.params(`no route ${url.pathname}`);
    return envelope(open(Object.fromEntries(url.searchParams), ctx), ctx.now());
  },
  // Bybit answers refusals with HTTP 200 and the code in the body (Bybit v5 docs, "Error Codes").
  errorReply(err, now) {
    const e = fromEngine(err);
    return { status: 200, body: envelope({}, now, e.retCode, e.message) };
  },
  failedReply: (now) => ({ status: 200, body: envelope({}, now, 10001, 'params error') }),
};
