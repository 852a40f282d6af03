/**
 * Binance spot (ccxt `binance`, its spot markets only; EXCHANGE=binance, beside `binanceusdm` for
 * USDⓈ-M futures): every fact the generic live venue needs (the type and what each field is for:
 * ./profile.ts). Spot is long-only with no leverage: the venue reads balances instead of positions
 * (../live-venue/spot-holdings.ts). Sources: Binance's spot API docs
 * (developers.binance.com/docs/binance-spot-api-docs/…, cited per fact as "docs: <page>") and ccxt's
 * binance implementation (ccxt/ts/src/binance.ts, "ccxt"). docs/operate/binance-spot.md says how to
 * run it and what protects a holding.
 */
import type { Exchange } from 'ccxt';
import { httpRateVerdict } from './answer-verdict.js';
import { bodyIn, codeInBody } from './error-body.js';
import type { CodeKind, ExchangeProfile } from './profile.js';

/**
 * Binance spot answers "an open order already has this client id" with -2010 NEW_ORDER_REJECTED and
 * the message "Duplicate order sent." (docs: errors, "Messages for -1010 ERROR_MSG_RECEIVED, -2010
 * NEW_ORDER_REJECTED, and -2011 CANCEL_REJECTED"), the same code as a refusal for want of balance or
 * a LIMIT_MAKER that would take. The profile reads that one message as this code of its own, so a
 * duplicate is looked up (it may be ours) while every other -2010 is a refusal.
 */
const DUPLICATE_ORDER = -201001;
const DUPLICATE_MESSAGE = 'Duplicate order sent.';

/**
 * Error codes a spot order request can be answered with (docs: errors, "Error Codes"), and what each
 * means for the order; a code not listed is judged by ccxt's class (../live-venue/exchange-errors.ts).
 */
const REFUSAL_CODES: ReadonlyMap<number, CodeKind> = new Map<number, CodeKind>([
  [-1000, 'unknown'], // UNKNOWN: "An unknown error occurred while processing the request."
  // DISCONNECTED: "Internal error; unable to process your request": as on futures, settled by a look-up.
  [-1001, 'unknown'],
  [-1003, 'rate_limited'], // TOO_MANY_REQUESTS (429) or the IP banned (418).
  [-1006, 'unknown'], // UNEXPECTED_RESP: "execution status unknown".
  [-1007, 'unknown'], // TIMEOUT: "Send status unknown; execution status unknown."
  [-1008, 'retryable'], // SERVER_BUSY: refused unprocessed.
  [-1013, 'rejected'], // INVALID_MESSAGE: "Filter failure: NOTIONAL / LOT_SIZE / PRICE_FILTER …".
  [-1015, 'rate_limited'], // TOO_MANY_ORDERS: the account's order-rate limit.
  [-1021, 'clock'], // INVALID_TIMESTAMP: outside recvWindow, refused unprocessed.
  [-1100, 'rejected'], // ILLEGAL_CHARS (a client order id outside ^[a-zA-Z0-9-_]{1,36}$)
  [-1102, 'rejected'], // MANDATORY_PARAM_EMPTY_OR_MALFORMED
  [-1106, 'rejected'], // PARAM_NOT_REQUIRED
  [-1111, 'rejected'], // BAD_PRECISION
  [-1115, 'rejected'], // INVALID_TIF
  [-1116, 'rejected'], // INVALID_ORDER_TYPE
  [-1117, 'rejected'], // INVALID_SIDE
  [-1121, 'rejected'], // BAD_SYMBOL
  // NEW_ORDER_REJECTED: "Account has insufficient balance for requested action.", "Order would
  // immediately match and take." (a LIMIT_MAKER), "Market is closed." …
  [-2010, 'rejected'],
  [DUPLICATE_ORDER, 'duplicate'],
]);

/** Binance's raw spot endpoints the profile calls, as ccxt exposes them (ccxt: binance `api` map). */
interface BinanceSpotRawApi {
  publicGetTime(): Promise<{ serverTime?: number | string }>;
}

export const BINANCE_SPOT: ExchangeProfile<'binance'> = {
  id: 'binance',
  name: 'Binance spot',
  market: 'spot',

  clientOptions: {
    // Spot markets only: ccxt's binance loads spot, USDⓈ-M and COIN-M by default (ccxt: options.fetchMarkets).
    fetchMarkets: { types: ['spot'] },
    defaultType: 'spot',
    // No sapi call at loadMarkets (the spot testnet has no sapi; a trade-only key may not call it):
    // neither the coin list nor the margin pairs (ccxt: fetchMarkets reads /sapi/v1/margin/allPairs with keys).
    fetchCurrencies: false,
    fetchMargins: false,
    // ccxt warns (throws) on fetchOpenOrders without a symbol unless told; reconciliation reads per symbol anyway.
    fetchOpenOrders: { warnWithoutSymbol: false },
    adjustForTimeDifference: true,
    recvWindow: 10_000,
  },
  // ccxt's sandbox for binance spot is the spot testnet, testnet.binance.vision/api (ccxt: urls.test).
  useTestnet: (exchange) => exchange.setSandboxMode(true),
  testnetLabel: 'the spot testnet (testnet.binance.vision)',
  mainnetRefused:
    'Binance spot is refused on mainnet for now: it has passed the venue contract against the ' +
    "project's fake exchange, but not yet an end-to-end run nor a check on the spot testnet " +
    '(docs/operate/binance-spot.md)',
  // docs: request security, "Timing security": recvWindow at most 60000, default 5000; ccxt sends its option.
  recvWindowMs: 10_000,
  // ccxt's binance `sign` appends `&signature=<hex HMAC>` to the query string (spot as futures).
  signatureInUrl: /([?&]signature=)[0-9a-fA-F]+/g,

  // docs: general API information, newClientOrderId "^[a-zA-Z0-9-_]{1,36}$".
  clientOrderId: { pattern: /^[a-zA-Z0-9_-]{1,36}$/, maxLength: 36 },
  // docs: New order, type LIMIT_MAKER: a LIMIT order "rejected if it would immediately match and
  // trade as a taker"; ccxt sends LIMIT_MAKER for postOnly on a spot market (and no timeInForce).
  limitParams: { gtc: { timeInForce: 'GTC' }, postOnly: { postOnly: true } },
  // Spot has no positions to fetch: the venue reads balances (../live-venue/spot-holdings.ts).
  positionsBySymbolList: false,
  // docs: New order, newOrderRespType FULL (ccxt's default for spot): the order with its fills.
  createAnswersIdsOnly: false,
  // docs: Query order, origClientOrderId (ccxt maps clientOrderId to it).
  lookupParams: (clientOrderId) => ({ clientOrderId }),
  // Spot has no reduce-only flag (docs: New order): the venue caps a reduce-only sell at the balance held.
  reduceOnlyParams: {},
  // docs: Account trade list (GET /api/v3/myTrades), orderId narrows it to one order's trades.
  tradesOfOrderParams: (orderId) => ({ orderId }),
  // docs: Cancel All Open Orders on a Symbol (DELETE /api/v3/openOrders).
  cancelAllBySymbol: true,
  // An API key and secret, no passphrase.
  passphrase: false,

  // docs: errors, every error answer is `{"code":-2010,"msg":"..."}`.
  errorBody: { code: 'code', message: 'msg' },
  // ccxt's message is `binance <body>`; only a code in that JSON counts. A duplicate is told by its message (above).
  errorCode: (err) => {
    const code = codeInBody(err, 'code');
    return code === -2010 && bodyIn(err)?.['msg'] === DUPLICATE_MESSAGE ? DUPLICATE_ORDER : code;
  },
  refusalCodes: REFUSAL_CODES,
  duplicateOrderCode: DUPLICATE_ORDER,
  // -1001 DISCONNECTED is documented as not processed (as on futures); trusted for a reduce-only close only.
  notProcessedCodes: [-1001],
  // docs: errors, -1021 INVALID_TIMESTAMP.
  timestampRefusedCode: -1021,
  // docs: LIMITS, as on futures: HTTP 429 asks to wait (Retry-After), 418 is an IP ban (2 minutes
  // up to 3 days); a -1021 under HTTP 400 is the clock.
  readAnswer: (status, headers, body) =>
    httpRateVerdict(status, headers, body, 120_000) ??
    (status >= 400 && codeInBody(body, 'code') === -1021
      ? { kind: 'clock', label: '-1021', retryAfterS: null, untilWall: null, fallbackMs: 0 }
      : null),

  // docs: Order book (GET /api/v3/depth), limit default 100, max 5000: any; the weight grows with it.
  bookDepths: [5, 10, 20, 50, 100, 500, 1000, 5000],

  // Not built: the spot user-data stream (executionReport, `c` the client order id) is not served by
  // the fake; resting orders are polled every cycle.
  userStream: null,
  // Binance spot has no countdownCancelAll (docs: Trading endpoints list none). What replaces it: a
  // resting spot order can only buy with quote held or sell what is held (no leverage, no short), so
  // a process gone leaves orders the risk engine approved, and the next start's first
  // reconciliation cancels every order it did not place (docs/operate/binance-spot.md).
  deadMansSwitch: null,
  deadMansSwitchNote:
    'none on spot: no countdownCancelAll; resting orders cannot borrow or short, and the next start cancels every order it did not place',
  // No exchange stop: a STOP_LOSS_LIMIT can miss in a gap and ties up the balance it would sell (a
  // second sell of it is refused for want of balance), and Binance rejects one whose trigger is
  // already crossed (-2010 "Stop price would trigger immediately.") — not built; docs/operate/binance-spot.md.
  exchangeStops: null,

  // No income endpoint on spot: the fees are in the trades (commission), and there is no funding.
  income: null,
  incomePageSize: 0,
  // The NAV of a spot account needs the marks of what it holds: the venue computes it
  // (../live-venue/spot-holdings.ts); this says only the USDT held.
  navOf: (balance) => {
    const total = (balance['USDT'] as { total?: unknown } | undefined)?.total;
    return total === undefined || total === null ? undefined : Number(total);
  },
  account: {
    // docs: Check server time (GET /api/v3/time, weight 1).
    serverTime: async (exchange) => Number((await raw(exchange).publicGetTime()).serverTime),
    // Spot has no position mode, no multi-assets margin and no leverage or margin type.
    hedgeMode: async () => false,
    hedgeModeFix: 'none (spot has no position mode)',
    multiAssets: async () => false,
    multiAssetsFix: 'none (spot has no margin)',
    symbolSettings: async () => ({ leverage: 1, marginType: 'cross' }),
  },

  // Every cancel is a DELETE (docs: Cancel order, Cancel all open orders on a symbol); a spot sell
  // of a holding is an ordinary order, so no order counts as a close here.
  isClosing: (method) => method === 'DELETE',
  weights: {
    // docs: Exchange information, rateLimits REQUEST_WEIGHT 6000 per minute (per IP).
    defaultLimitPerMinute: 6_000,
    // docs: general API information, "IP limits": X-MBX-USED-WEIGHT-1M on every answer.
    usedWeightHeader: 'x-mbx-used-weight-1m',
    // ccxt's cost table is Binance spot's weights.
    weigh: (_api, _path, ccxtCost) => (Number.isFinite(ccxtCost) && ccxtCost >= 0 ? ccxtCost : 1),
    limitFrom: () => null,
  },
};

const raw = (exchange: Exchange) => exchange as unknown as BinanceSpotRawApi;
