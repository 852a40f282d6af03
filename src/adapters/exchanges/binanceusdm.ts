/**
 * Binance USDⓈ-M futures (ccxt `binanceusdm`), every fact the generic live venue needs (the type and
 * what each field is for: ./profile.ts). Sources: Binance's API docs
 * (developers.binance.com/docs/derivatives/usds-margined-futures/…, cited per fact as "docs: <page>")
 * and ccxt's binance implementation (ccxt/ts/src/binance.ts, "ccxt"). What the local fake assumes
 * where the docs are silent is in docs/operate/live-trading.md.
 */
import type { Exchange, Order } from 'ccxt';
import type { IncomeLine } from '../live-venue/income-tally.js';
import { httpRateVerdict } from './answer-verdict.js';
import { codeInBody } from './error-body.js';
import type { CodeKind, ExchangeProfile } from './profile.js';

/**
 * Error codes an order request can be answered with, and what each means for the order
 * (docs/operate/live-trading.md, "Refusals by code"). Built from Binance's published error list
 * (docs: …/usds-margined-futures/error-code) and ccxt's binance `exceptions` map. ccxt's class alone
 * cannot decide: it files real refusals (-2027, -2028, -4061, -4131) under OperationRejected, a plain
 * ExchangeError that also covers codes it does not know, so the order was looked up for half a
 * minute as if its outcome were unknown. The code decides first; one not listed is judged by ccxt's
 * class (../live-venue/exchange-errors.ts).
 */
const REFUSAL_CODES: ReadonlyMap<number, CodeKind> = new Map<number, CodeKind>([
  // ---- 10xx: the server, the request rate, the clock ----
  [-1000, 'unknown'], // UNKNOWN: "An unknown error occurred while processing the request."
  // DISCONNECTED (503) "Internal error; unable to process your request. Please try again.": Binance
  // documents it as not processed, so it is retryable; but a 503 comes from a gateway in front of the
  // matching engine, and a look-up by client id (a second or so) settles it without ever risking a
  // second order, so it stays unknown as it always was.
  [-1001, 'unknown'],
  [-1003, 'rate_limited'], // TOO_MANY_REQUESTS: weight over the limit (429) or the IP banned (418).
  [-1006, 'unknown'], // UNEXPECTED_RESP: "Execution status unknown."
  [-1007, 'unknown'], // TIMEOUT: "Send status unknown; execution status unknown."
  [-1008, 'retryable'], // SERVER_BUSY / request throttled by system protection: refused unprocessed.
  [-1015, 'rate_limited'], // TOO_MANY_ORDERS: the account's order-rate limit.
  [-1021, 'clock'], // INVALID_TIMESTAMP: outside recvWindow, refused unprocessed.
  // ---- 11xx: the request itself is malformed: refused ----
  [-1102, 'rejected'], // MANDATORY_PARAM_EMPTY_OR_MALFORMED
  [-1106, 'rejected'], // PARAM_NOT_REQUIRED
  [-1111, 'rejected'], // BAD_PRECISION
  [-1116, 'rejected'], // INVALID_ORDER_TYPE
  [-1121, 'rejected'], // BAD_SYMBOL
  // ---- 20xx: processing ----
  [-2010, 'rejected'], // NEW_ORDER_REJECTED
  [-2018, 'rejected'], // BALANCE_NOT_SUFFICIENT
  [-2019, 'rejected'], // MARGIN_NOT_SUFFICIEN(T)
  [-2020, 'rejected'], // UNABLE_TO_FILL: nothing in the book to fill it.
  [-2021, 'rejected'], // ORDER_WOULD_IMMEDIATELY_TRIGGER
  [-2022, 'rejected'], // REDUCE_ONLY_REJECT: nothing (or less) to reduce.
  [-2023, 'rejected'], // USER_IN_LIQUIDATION
  [-2024, 'rejected'], // POSITION_NOT_SUFFICIENT
  [-2025, 'rejected'], // MAX_OPEN_ORDER_EXCEEDED
  [-2026, 'rejected'], // REDUCE_ONLY_ORDER_TYPE_NOT_SUPPORTED
  [-2027, 'rejected'], // MAX_LEVERAGE_RATIO: the position would exceed the bracket at this leverage.
  [-2028, 'rejected'], // MIN_LEVERAGE_RATIO: leverage too small for the margin balance.
  // ---- 40xx: filters and account settings ----
  [-4003, 'rejected'], // QTY_LESS_THAN_ZERO
  [-4004, 'rejected'], // QTY_LESS_THAN_MIN_QTY
  [-4005, 'rejected'], // QTY_GREATER_THAN_MAX_QTY (LOT_SIZE / MARKET_LOT_SIZE maxQty)
  [-4013, 'rejected'], // PRICE_LESS_THAN_MIN_PRICE
  [-4014, 'rejected'], // PRICE_NOT_INCREASED_BY_TICK_SIZE
  [-4015, 'rejected'], // INVALID_CL_ORD_ID_LEN
  [-4016, 'rejected'], // PRICE_HIGHTER_THAN_MULTIPLIER_UP (PERCENT_PRICE)
  [-4023, 'rejected'], // QTY_NOT_INCREASED_BY_STEP_SIZE
  [-4024, 'rejected'], // PRICE_LOWER_THAN_MULTIPLIER_DOWN (PERCENT_PRICE)
  [-4061, 'rejected'], // INVALID_POSITION_SIDE: hedge-mode account, one-way order (or the reverse).
  // ccxt calls these PermissionDenied (an AuthenticationError): but the keys work, only opening is
  // barred and reduce-only orders still go, so they refuse this order rather than stop the venue.
  [-4087, 'rejected'], // REDUCE_ONLY_ORDER_PERMISSION: the account may only reduce.
  [-4088, 'rejected'], // NO_PLACE_ORDER_PERMISSION: the account may not place orders now.
  [-4116, 'duplicate'], // DUPLICATED_CLIENT_ORDER_ID: an open order already has this id.
  [-4118, 'rejected'], // REDUCE_ONLY_MARGIN_CHECK_FAILED
  [-4131, 'rejected'], // MARKET_ORDER_REJECT: the counterparty's best price is outside PERCENT_PRICE.
  [-4140, 'rejected'], // INVALID_SYMBOL_STATUS: the symbol cannot open positions now.
  [-4141, 'rejected'], // SYMBOL_ALREADY_CLOSED
  [-4164, 'rejected'], // MIN_NOTIONAL
  [-4400, 'rejected'], // Futures quantitative rules: only reduce-only orders allowed for a while.
  [-4401, 'rejected'], // Compliance: only reduce-only orders allowed.
  // ---- 50xx: execution ----
  [-5021, 'rejected'], // FOK_ORDER_REJECT
  [-5022, 'rejected'], // GTX_ORDER_REJECT: a post-only order would have taken.
  [-5028, 'rejected'], // ME_RECVWINDOW_REJECT: refused by the matching engine's recvWindow.
]);

/** Endpoints ccxt's table weighs below Binance's published weight (5 each; docs: account, balance, position risk). */
const UNDERWEIGHED = new Set([
  'fapiPrivateV2 account',
  'fapiPrivateV2 balance',
  'fapiPrivateV2 positionRisk',
  'fapiPrivateV3 account',
  'fapiPrivateV3 balance',
  'fapiPrivateV3 positionRisk',
]);

/** Binance's raw endpoints the profile calls, as ccxt exposes them (ccxt: binance `api` map). */
interface BinanceRawApi {
  fapiPublicGetTime(): Promise<{ serverTime?: number | string }>;
  fapiPrivateGetPositionSideDual(): Promise<{ dualSidePosition?: boolean | string }>;
  fapiPrivateGetMultiAssetsMargin(): Promise<{ multiAssetsMargin?: boolean | string }>;
  fapiPrivateGetSymbolConfig(p: {
    symbol: string;
  }): Promise<Array<{ marginType?: string; leverage?: number | string }>>;
  fapiPrivatePostCountdownCancelAll(p: { symbol: string; countdownTime: number }): Promise<unknown>;
  fapiPrivateGetIncome(p: { startTime: number; limit: number }): Promise<IncomeLine[]>;
}

const raw = (exchange: Exchange) => exchange as unknown as BinanceRawApi;

/** Binance answers booleans, ccxt's raw calls pass them through; a string "true" is read as true too. */
const truthy = (value: unknown) => value === true || value === 'true';

export const BINANCE_USDM: ExchangeProfile<'binanceusdm'> = {
  id: 'binanceusdm',
  name: 'Binance USDⓈ-M futures',

  clientOptions: {
    // No spot (sapi) calls at loadMarkets: a futures-only or IP-restricted key would fail there (ccxt: fetchCurrencies).
    fetchCurrencies: false,
    // ccxt warns (throws) on fetchOpenOrders without a symbol unless told; reconciliation reads all.
    fetchOpenOrders: { warnWithoutSymbol: false },
    // Sign with the exchange's time, measured by ccxt at loadMarkets.
    adjustForTimeDifference: true,
    recvWindow: 10_000,
  },
  // Demo trading (demo-fapi.binance.com): ccxt refuses private calls to the old futures sandbox
  // unless told to ignore its deprecation, and points to enableDemoTrading instead (ccxt).
  useTestnet: (exchange) => exchange.enableDemoTrading(true),
  testnetLabel: 'demo trading',
  // Run end to end against the fake (tcs start: kill, flatten, SIGKILL, stops) and documented for mainnet.
  mainnetRefused: null,
  // docs: general info, "Timing security": recvWindow; 10 s is ccxt's default for binance.
  recvWindowMs: 10_000,
  // ccxt's binance `sign` appends `&signature=<hex HMAC>` to the query string.
  signatureInUrl: /([?&]signature=)[0-9a-fA-F]+/g,
  // docs: General Info, "API-keys and secret-keys": a key and a secret, no passphrase.
  passphrase: false,

  // docs: New Order (TRADE), newClientOrderId "^[\.A-Z\:/a-z0-9_-]{1,36}$".
  clientOrderId: { pattern: /^[.A-Z:/a-z0-9_-]{1,36}$/, maxLength: 36 },
  // docs: New Order, timeInForce GTX = "Good Till Crossing (Post Only)".
  limitParams: { gtc: { timeInForce: 'GTC' }, postOnly: { timeInForce: 'GTX' } },
  // ccxt: binance fetchPositions(symbols) filters positionRisk by the list.
  positionsBySymbolList: true,
  // docs: New Order, newOrderRespType: ccxt asks RESULT, the order as placed with its status and fills (ccxt).
  createAnswersIdsOnly: false,
  // docs: Query Order, origClientOrderId (ccxt maps clientOrderId to it).
  lookupParams: (clientOrderId) => ({ clientOrderId }),
  // docs: Account Trade List (GET /fapi/v1/userTrades), orderId.
  tradesOfOrderParams: (orderId) => ({ orderId }),
  // docs: Cancel All Open Orders (DELETE /fapi/v1/allOpenOrders), per symbol.
  cancelAllBySymbol: true,
  // docs: New Order, reduceOnly "true"/"false" (ccxt passes the boolean through).
  reduceOnlyParams: { reduceOnly: true },

  // docs: error codes, every error answer is `{"code":-2027,"msg":"..."}`.
  errorBody: { code: 'code', message: 'msg' },
  // ccxt's message is `binanceusdm <body>`; only a code in that JSON counts, never digits elsewhere.
  errorCode: (err) => codeInBody(err, 'code'),
  refusalCodes: REFUSAL_CODES,
  // docs: error codes, -4116 DUPLICATED_CLIENT_ORDER_ID (ccxt: a plain InvalidOrder).
  duplicateOrderCode: -4116,
  // -1001 DISCONNECTED "Internal error; unable to process your request" is documented as a failed
  // operation (unlike -1006/-1007, "execution status unknown"); the table keeps it `unknown` for an
  // order that could add exposure, the venue trusts it for a reduce-only close.
  notProcessedCodes: [-1001],
  // docs: error codes, -1021 INVALID_TIMESTAMP.
  timestampRefusedCode: -1021,
  // docs: general info, "LIMITS": a 429 asks to back off (Retry-After); a client that keeps coming is
  // banned with a 418, "IP banned until <epoch ms>" in its body, from 2 minutes to 3 days. A refused
  // timestamp is -1021 under HTTP 400.
  readAnswer: (status, headers, body) =>
    httpRateVerdict(status, headers, body, 120_000) ??
    (status >= 400 && codeInBody(body, 'code') === -1021
      ? { kind: 'clock', label: '-1021', retryAfterS: null, untilWall: null, fallbackMs: 0 }
      : null),

  // docs: Order Book, limit "Default 500; Valid limits:[5, 10, 20, 50, 100, 500, 1000]".
  bookDepths: [5, 10, 20, 50, 100, 500, 1000],

  // docs: Auto-Cancel All Open Orders (POST /fapi/v1/countdownCancelAll): per symbol; each call
  // replaces the last, 0 disarms.
  deadMansSwitch: (exchange) => (symbolId, countdownMs) =>
    raw(exchange).fapiPrivatePostCountdownCancelAll({ symbol: symbolId, countdownTime: countdownMs }),
  // ORDER_TRADE_UPDATE's order object (ccxt keeps it as the trade's `info`): `c` is the client order id
  // (Binance USDⓈ-M user data streams, "Event: Order Update"; the fake serves it, test/support/fake-exchange/user-stream.ts).
  userStream: { tradeClientOrderId: (info) => (info as { c?: string } | undefined)?.c },
  deadMansSwitchNote:
    'countdownCancelAll per symbol, re-armed every cycle; a symbol with our exchange stop resting is disarmed',
  exchangeStops: {
    // Algo Service since 2025-12-09: ccxt sends an order with stopLossPrice to POST /fapi/v1/algoOrder
    // (docs: New Algo Order); closePosition closes whatever is open, MARK_PRICE triggers on the mark.
    params: (triggerPrice, clientOrderId) => ({
      stopLossPrice: triggerPrice,
      closePosition: true,
      workingType: 'MARK_PRICE',
      clientOrderId,
    }),
    // ccxt leaves the size out of a close-position stop given 0 (the params say the whole position).
    closeAmount: 0,
    // ccxt routes fetchOpenOrders/fetchOrder/cancelOrder to the algo endpoints with `trigger: true`.
    query: { trigger: true },
    // docs: Query Algo Order, algoStatus NEW while it rests; actualOrderId the book order it became.
    resting: (order: Order) => (order.info as { algoStatus?: string }).algoStatus === 'NEW',
    triggeredOrderId: (order: Order) => (order.info as { actualOrderId?: string }).actualOrderId || undefined,
  },

  // docs: Get Income History (GET /fapi/v1/income, weight 30): fees, funding, realized PnL, transfers, oldest first.
  income: (exchange) => (startTime, limit) => raw(exchange).fapiPrivateGetIncome({ startTime, limit }),
  // docs: Get Income History, limit "Default 100; max 1000".
  incomePageSize: 1_000,
  // ccxt: binance's USDT `total` is the asset's marginBalance (wallet plus unrealised; docs: Account Information V3).
  navOf: (balance) => {
    const total = (balance['USDT'] as { total?: unknown } | undefined)?.total;
    return total === undefined || total === null ? undefined : Number(total);
  },
  account: {
    // docs: Check Server Time (GET /fapi/v1/time, weight 1).
    serverTime: async (exchange) => Number((await raw(exchange).fapiPublicGetTime()).serverTime),
    // docs: Get Current Position Mode (GET /fapi/v1/positionSide/dual).
    hedgeMode: async (exchange) => truthy((await raw(exchange).fapiPrivateGetPositionSideDual()).dualSidePosition),
    hedgeModeFix:
      'Binance: Preferences → Position Mode → One-way, or POST /fapi/v1/positionSide/dual dualSidePosition=false',
    // docs: Get Current Multi-Assets Mode (GET /fapi/v1/multiAssetsMargin).
    multiAssets: async (exchange) => truthy((await raw(exchange).fapiPrivateGetMultiAssetsMargin()).multiAssetsMargin),
    multiAssetsFix:
      'Binance: Preferences → Asset Mode → Single-Asset Mode, or POST /fapi/v1/multiAssetsMargin multiAssetsMargin=false',
    // docs: Symbol Configuration (GET /fapi/v1/symbolConfig): leverage and marginType per symbol.
    symbolSettings: async (exchange, symbolId) => {
      const [config] = await raw(exchange).fapiPrivateGetSymbolConfig({ symbol: symbolId });
      return {
        leverage: Number(config?.leverage),
        marginType: String(config?.marginType).toUpperCase() === 'ISOLATED' ? 'isolated' : 'cross',
      };
    },
  },

  // Every cancel is a DELETE (docs: Cancel Order, Cancel All Open Orders, Cancel Algo Order); a close is
  // an order with reduceOnly or closePosition (docs: New Order, New Algo Order).
  isClosing: (method, _path, params) =>
    method === 'DELETE' || (method === 'POST' && (truthy(params['reduceOnly']) || truthy(params['closePosition']))),
  weights: {
    // docs: Exchange Information, rateLimits REQUEST_WEIGHT 2400 per minute (per IP).
    defaultLimitPerMinute: 2_400,
    // docs: general info, "IP Limits": X-MBX-USED-WEIGHT-1M on every answer.
    usedWeightHeader: 'x-mbx-used-weight-1m',
    // ccxt's cost is Binance's weight per endpoint and `limit`, raised where ccxt rounds down.
    weigh: (api, path, ccxtCost) => {
      const cost = Number.isFinite(ccxtCost) && ccxtCost >= 0 ? ccxtCost : 1;
      return UNDERWEIGHED.has(`${String(api)} ${path}`) ? Math.max(cost, 5) : cost;
    },
    limitFrom: (url, body) => (url.includes('/exchangeInfo') ? requestWeightLimit(body) : null),
  },
};

/** The REQUEST_WEIGHT limit per minute from an exchangeInfo body, or null. */
function requestWeightLimit(body: unknown): number | null {
  try {
    const info = (typeof body === 'string' ? JSON.parse(body) : body) as {
      rateLimits?: Array<{ rateLimitType?: string; interval?: string; intervalNum?: number; limit?: number }>;
    };
    const rule = info.rateLimits?.find(
      (r) => r.rateLimitType === 'REQUEST_WEIGHT' && r.interval === 'MINUTE' && (r.intervalNum ?? 1) === 1,
    );
    return typeof rule?.limit === 'number' ? rule.limit : null;
  } catch {
    return null; // not JSON: the limit stays as it was
  }
}
