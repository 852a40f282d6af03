/**
 * The fake's Binance USDⓈ-M dialect: public market data (./public-api.ts), the signed trading
 * endpoints (../../private-api.ts, Binance's HMAC check in ../../signed-request.ts) and Binance's
 * `{code, msg}` error answers (../../binance-errors.ts), and the user-data stream's listen key
 * (../../user-stream.ts, whose WebSocket the server upgrades to).
 */
import { BinanceError, errors } from '../../binance-errors.js';
import type { Dialect } from '../../dialect.js';
import { header } from '../../dialect.js';
import { privateRoute } from '../../private-api.js';
import { verifySigned } from '../../signed-request.js';
import { publicAnswer } from './public-api.js';

export const BINANCE_USDM_DIALECT: Dialect = {
  id: 'binanceusdm',
  venueContract: {
    name: 'live venue on the Binance USDⓈ-M fake',
    capabilities: {
      foreignOrders: true,
      lostAcknowledgements: true,
      protectiveStops: true,
      deadMansSwitch: true,
      rateLimits: true,
      postOnly: true,
    },
    refusals: {
      margin: /\(-2019\)/,
      reduceOnly: /\(-2022\)/,
      minimum: /\(-4164\)/,
      postOnly: /\(-5022\)/,
      rateLimited: /^RATE_LIMITED/,
    },
    createPath: '/fapi/v1/order',
  },
  weighsRequests: true,
  isSigned: (_req, url, body) => url.searchParams.has('signature') || /(^|&)signature=/.test(body),
  route(ctx, req, url, body) {
    if (url.pathname === '/fapi/v1/listenKey') {
      // USER_STREAM security: the API key, no signature.
      if (header(req, 'x-mbx-apikey') !== ctx.credentials.apiKey) throw errors.rejectedApiKey();
      return ctx.userStream.listenKey(req.method ?? 'POST');
    }
    const signed = privateRoute(req.method ?? 'GET', url.pathname);
    if (signed) {
      const query = url.search.startsWith('?') ? url.search.slice(1) : url.search;
      const params = verifySigned(
        { query, body, apiKeyHeader: header(req, 'x-mbx-apikey') },
        ctx.credentials,
        ctx.now(),
      );
      return signed(params, ctx.venue, ctx.faults);
    }
    const answer = publicAnswer(ctx, url);
    if (answer === undefined) throw new BinanceError(404, -5000, `no route ${url.pathname}`);
    return answer;
  },
  errorReply: (err) =>
    err instanceof BinanceError
      ? { status: err.status, body: err.body() }
      : { status: 400, body: { code: -1100, msg: (err as Error).message } },
  failedReply: () => ({ status: 400, body: { code: -1100, msg: 'Illegal characters found in a parameter.' } }),
};
