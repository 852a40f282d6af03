/**
 * The fake's Binance spot dialect (ccxt `binance`, /api/v3): spot's paths (./routes.ts), Binance's
 * HMAC check (../../signed-request.ts, the same as futures'), spot's shapes (./shapes.ts) and error
 * words (./errors.ts), over the same engine as the futures and Bybit dialects, its positions read as
 * base-asset balances. Requests are not weighed (spot's weights are not futures'; the fake's weight
 * table is futures'), and the 429 a test asks for is Binance's either way.
 */
import { verifySigned } from '../../signed-request.js';
import type { Dialect } from '../../dialect.js';
import { header } from '../../dialect.js';
import { fromEngine } from './errors.js';
import { PRIVATE, PUBLIC } from './routes.js';

export const BINANCE_SPOT_DIALECT: Dialect = {
  id: 'binance',
  venueContract: {
    name: 'live venue on the Binance spot fake',
    kind: 'spot',
    // Binance spot's base rate, 0.1 % maker and taker (without the BNB discount).
    fees: { maker: 0.001, taker: 0.001 },
    capabilities: {
      foreignOrders: true,
      lostAcknowledgements: true,
      // No exchange stop on spot (the profile's exchangeStops is null): a STOP_LOSS_LIMIT can miss in a gap.
      protectiveStops: false,
      // Binance spot has no countdownCancelAll.
      deadMansSwitch: false,
      rateLimits: true,
      // LIMIT_MAKER: refused -2010 "Order would immediately match and take."
      postOnly: true,
    },
    refusals: {
      // A buy beyond the USDT held: -2010 "Account has insufficient balance for requested action.", which
      // ccxt matches by its message (its broad table) and reports without the code.
      margin: /^InsufficientFunds: binance Account has insufficient balance/,
      // Refused by the venue before sending: spot has no reduce-only flag.
      reduceOnly: /^REDUCE_ONLY_REJECTED/,
      minimum: /NOTIONAL \(-1013\)/,
      // -2010 "Order would immediately match and take.", by its message as above.
      postOnly: /^OrderImmediatelyFillable: binance Order would immediately match and take/,
      rateLimited: /^RATE_LIMITED/,
    },
    createPath: '/api/v3/order',
  },
  weighsRequests: false,
  isSigned: (_req, url, body) => url.searchParams.has('signature') || /(^|&)signature=/.test(body),
  route(ctx, req, url, body) {
    const key = `${req.method ?? 'GET'} ${url.pathname}`;
    const signed = PRIVATE[key];
    if (signed) {
      const query = url.search.startsWith('?') ? url.search.slice(1) : url.search;
      const params = verifySigned(
        { query, body, apiKeyHeader: header(req, 'x-mbx-apikey') },
        ctx.credentials,
        ctx.now(),
      );
      return signed(params, ctx);
    }
    const open = PUBLIC[key];
    if (!open) throw new Error(`no route ${url.pathname}`);
    return open(url.searchParams, ctx);
  },
  errorReply(err) {
    const e = fromEngine(err);
    return { status: e.status, body: e.body() };
  },
  failedReply: () => ({ status: 400, body: { code: -1100, msg: 'Illegal characters found in a parameter.' } }),
};
