/**
 * Bybit v5, USDT linear perpetuals (ccxt `bybit`, category=linear, a unified trading account):
 * every fact the generic live venue needs (the type and what each field is for: ./profile.ts).
 * Sources: Bybit's v5 API docs (bybit-exchange.github.io/docs/v5/…, cited per fact as "docs:
 * <page>") and ccxt's bybit implementation (ccxt/ts/src/bybit.ts, "ccxt"). The local fake's Bybit
 * dialect (test/support/fake-exchange/dialects/bybit/) and what it leaves out:
 * docs/operate/bybit.md.
 */
import type { Exchange, Order } from 'ccxt';
import type { IncomeLine } from '../live-venue/income-tally.js';
import { headerValue, httpRateVerdict, retryAfterSeconds } from './answer-verdict.js';
import type { AnswerVerdict } from './answer-verdict.js';
import { codeInBody } from './error-body.js';
import type { CodeKind, ExchangeProfile } from './profile.js';

/**
 * Error codes an order request can be answered with, and what each means for the order. Built from
 * Bybit's published tables (docs: error "HTTP Code" / "UTA" / "Contract" sections) and ccxt's bybit
 * `exceptions.exact` map. A code not listed is judged by ccxt's class.
 */
const REFUSAL_CODES: ReadonlyMap<number, CodeKind> = new Map<number, CodeKind>([
  // ---- 10xxx: the request, the rate, the clock ----
  [10000, 'unknown'], // "Server Timeout": the order's fate is not known.
  [10001, 'rejected'], // "Request parameter error."
  [10002, 'clock'], // timestamp outside recv_window: refused unprocessed.
  [10006, 'rate_limited'], // "Too many visits": the endpoint's per-UID limit (HTTP 200 or 403).
  [10016, 'unknown'], // "Server error" / "System error. Please try again later.": not said to be unprocessed.
  [10018, 'rate_limited'], // "Exceeded the IP Rate Limit."
  // ---- 110xxx: orders (docs: error, "UTA" and "Contract") ----
  [110003, 'rejected'], // "Order price exceeds the allowable range."
  [110004, 'rejected'], // "Wallet balance is insufficient."
  [110007, 'rejected'], // "Available balance is insufficient." (ccxt: InsufficientFunds)
  [110012, 'rejected'], // "Insufficient available balance."
  [110017, 'rejected'], // "Reduce-only rule not satisfied" / current position is zero.
  [110020, 'rejected'], // "Not allowed to have more than 500 active orders."
  [110021, 'rejected'], // "Not allowed to exceeded position limits due to Open Interest."
  [110025, 'rejected'], // "Position mode has not been modified."
  [110040, 'rejected'], // "The order will trigger a forced liquidation, please re-submit the order."
  [110044, 'rejected'], // "Available margin is insufficient."
  [110045, 'rejected'], // "Wallet balance is insufficient."
  [110072, 'duplicate'], // "OrderLinkedID is duplicate" (ccxt: a plain InvalidOrder).
  [110079, 'retryable'], // "The order is processing and can not be operated, please try again later."
  [110094, 'rejected'], // "Order does not meet minimum order value."
]);

/** Bybit's raw v5 endpoints the profile calls, as ccxt exposes them (ccxt: bybit `api` map). */
interface BybitRawApi {
  publicGetV5MarketTime(): Promise<{ result?: { timeSecond?: string }; time?: number | string }>;
  privateGetV5PositionList(p: { category: string; symbol: string }): Promise<BybitList<BybitPosition>>;
  privateGetV5AccountInfo(): Promise<{ result?: { marginMode?: string } }>;
  privateGetV5AccountTransactionLog(p: {
    accountType: string;
    category: string;
    startTime: number;
    limit: number;
  }): Promise<BybitList<BybitTransaction>>;
}

interface BybitList<T> {
  result?: { list?: T[] };
}

interface BybitPosition {
  positionIdx?: number | string;
  leverage?: string;
  tradeMode?: number | string;
}

/** docs: Get Transaction Log, one line (numbers as strings). */
interface BybitTransaction {
  id?: string;
  symbol?: string;
  type?: string;
  funding?: string;
  fee?: string;
  currency?: string;
  transactionTime?: string;
  tradeId?: string;
}

/** docs: Get Wallet Balance, one account with its coins. */
interface BybitWallet {
  accountType?: string;
  coin?: Array<{ coin?: string; equity?: string }>;
}

const raw = (exchange: Exchange) => exchange as unknown as BybitRawApi;

/** ccxt pro bybit's WebSocket steps the DCP connection takes (ccxt: pro/bybit.ts). */
interface BybitPro {
  getUrlByMarketType(symbol: undefined, isPrivate: boolean, method: string, params: object): Promise<string>;
  authenticate(url: string): Promise<unknown>;
  watchTopics(url: string, messageHashes: string[], topics: string[], params: object): Promise<unknown>;
}

/**
 * Bybit's dead-man's switch, Disconnect Cancel All (docs: Set Disconnect Cancel All; WebSocket
 * private, Dcp). POST /v5/order/disconnected-cancel-all sets `timeWindow` (3–300 s) for a `product`
 * (DERIVATIVES: every linear and inverse contract; ccxt: cancelAllOrdersAfter, ms → s); once every
 * private connection subscribed to `dcp.future` has been gone that long (closed, or its heartbeat
 * `op: ping` stopped), "all active orders" of the product are cancelled. The connection is ccxt
 * pro's private stream (wss://stream[-demo].bybit.com/v5/private): `op: auth` signed with the key,
 * ccxt's own `op: ping` every 18 s (it drops a connection whose pongs stop), then the subscription.
 * Bybit pushes nothing on `dcp.future` (docs: "Subscribe to the dcp stream to trigger DCP
 * function"), so ccxt's watch on it settles only when the connection ends.
 * Not yet used (BYBIT.disconnectCancel is null): DCP is enabled per account by Bybit's account
 * manager (docs: "How to enable DCP"), and neither that nor whether it cancels untriggered
 * conditional orders (our stop) has been checked on Bybit (docs/operate/bybit.md).
 */
export const BYBIT_DCP: NonNullable<ExchangeProfile<'bybit'>['disconnectCancel']> = {
  // Several reconnects fit in it (the guard's backoff tops at a quarter of it); Bybit's default is 10 s.
  windowMs: 20_000,
  // docs: "all active futures / spot / option orders": conditional orders are active orders on Bybit
  // (GET /v5/order/realtime lists them), so the pessimistic reading.
  cancelsStops: true,
  setWindow: (exchange, windowMs) => exchange.cancelAllOrdersAfter(windowMs, { product: 'DERIVATIVES' }),
  connect: async (exchange) => {
    const pro = exchange as unknown as BybitPro;
    const url = await pro.getUrlByMarketType(undefined, true, 'watchOrders', {});
    await pro.authenticate(url);
    return { closed: pro.watchTopics(url, ['dcp'], ['dcp.future'], {}) };
  },
};

/**
 * A transaction-log line as the income tally reads lines (Binance's shape, ../live-venue/income-tally.ts):
 * a TRADE's fee is a COMMISSION (Bybit's fee is positive when paid; the tally's income negative), a
 * SETTLEMENT's funding a FUNDING_FEE (docs: "funding: positive means paid, negative received").
 */
function incomeLines(t: BybitTransaction): IncomeLine[] {
  const base = { symbol: t.symbol, asset: t.currency, time: t.transactionTime };
  if (t.type === 'TRADE' && Number(t.fee) !== 0)
    return [{ ...base, incomeType: 'COMMISSION', income: String(-Number(t.fee)), tranId: `${t.id}:fee` }];
  if (t.type === 'SETTLEMENT' && Number(t.funding) !== 0)
    return [{ ...base, incomeType: 'FUNDING_FEE', income: String(-Number(t.funding)), tranId: `${t.id}:funding` }];
  return [];
}

/** The envelope's retCode, which Bybit writes first (`{"retCode":0,"retMsg":"OK",…}`): read without parsing every answer. */
const RET_CODE = /^\s*\{\s*"retCode"\s*:\s*(-?\d+)/;
/** The envelope's own `time` (the server's, epoch ms), its last field. */
const ANSWER_TIME = /"time"\s*:\s*(\d{12,})\s*\}\s*$/;

/**
 * docs: Rate Limit Rules. "Too many visits" (10006, the UID's per-endpoint limit) and "Exceeded the
 * IP rate limit" (10018) come with HTTP 200; X-Bapi-Limit-Reset-Timestamp names when the limit
 * resets, read against the answer's own `time` so that the wait needs no agreement between clocks. An IP past 600 requests in 5 s gets "403, access too frequent": a ban of "at least 10
 * minutes", no JSON, no Retry-After. docs: error, 10002 the request's time outside recv_window (HTTP 200).
 */
function readAnswer(status: number, headers: unknown, body: string): AnswerVerdict | null {
  if (status === 403)
    return {
      kind: 'banned',
      label: '403',
      retryAfterS: retryAfterSeconds(headers),
      untilWall: null,
      fallbackMs: 600_000,
    };
  const code = Number(RET_CODE.exec(body)?.[1] ?? 0);
  if (code === 10006 || code === 10018) {
    const reset = Number(headerValue(headers, 'x-bapi-limit-reset-timestamp'));
    const at = Number(ANSWER_TIME.exec(body)?.[1]);
    const known = Number.isFinite(reset) && reset > 0;
    return {
      kind: 'rate_limited',
      label: `retCode ${code}`,
      retryAfterS: known && Number.isFinite(at) ? Math.max(0, reset - at) / 1000 : null,
      untilWall: known ? reset : null,
      fallbackMs: 1_000,
    };
  }
  if (code === 10002)
    return { kind: 'clock', label: 'retCode 10002', retryAfterS: null, untilWall: null, fallbackMs: 0 };
  // A 429 or 418 from something before Bybit's gateway (a proxy) is still a wait.
  return httpRateVerdict(status, headers, body, 600_000);
}

export const BYBIT: ExchangeProfile<'bybit'> = {
  id: 'bybit',
  name: 'Bybit USDT perpetuals',

  clientOptions: {
    // Only linear markets at loadMarkets (ccxt: fetchMarkets.types; spot/inverse/option are not traded).
    fetchMarkets: { types: ['linear'] },
    // A unified trading account, said up front: otherwise ccxt asks /v5/user/query-api and
    // /v5/account/info first, which need key permissions a trading key should not have (ccxt: isUnifiedEnabled).
    enableUnifiedAccount: true,
    enableUnifiedMargin: false,
    // ccxt's fetchOrder refuses unless told the caller knows it sees only the last 500 orders (ccxt);
    // the venue looks up its own recent orders only.
    fetchOrder: { acknowledged: true },
    // linear contracts by default (ccxt: defaultType / defaultSubType).
    defaultType: 'swap',
    defaultSubType: 'linear',
    // Sign with the exchange's time, measured by ccxt at loadMarkets.
    adjustForTimeDifference: true,
    recvWindow: 10_000,
  },
  // Bybit's demo trading (api-demo.bybit.com) is a copy of mainnet with demo funds; the testnet
  // (api-testnet.bybit.com, setSandboxMode) is a separate market. Demo keeps mainnet's books (ccxt: enableDemoTrading).
  useTestnet: (exchange) => exchange.enableDemoTrading(true),
  testnetLabel: 'demo trading',
  // Proven against the fake only (the Venue and MarketFeed contracts, tcs start end to end); two
  // facts wait for a check on Bybit's demo (docs/operate/bybit.md).
  mainnetRefused:
    'Bybit is supported on its demo trading only for now: it has passed the venue contract and an ' +
    "end-to-end run against the project's fake exchange, but not yet a check on Bybit's own demo of the " +
    'close-position stop (qty 0) and the look-up by client id (docs/operate/bybit.md)',
  // docs: Integration Guidance, "recv_window": default 5000 ms; ccxt sends X-BAPI-RECV-WINDOW from options.recvWindow.
  recvWindowMs: 10_000,
  // v5 signs in the X-BAPI-SIGN header, which ccxt never writes into an error; the legacy v3 query
  // `sign=` is the only signature that could appear in a URL.
  signatureInUrl: /([?&]sign=)[0-9a-fA-F]+/g,
  // docs: Integration Guidance, Authentication: a key and a secret, no passphrase.
  passphrase: false,

  // docs: Place Order, orderLinkId "max 36 characters. Combinations of numbers, letters (upper and
  // lower cases), dashes, and underscores are supported"; unique per account, even once the order is done.
  clientOrderId: { pattern: /^[A-Za-z0-9_-]{1,36}$/, maxLength: 36 },
  // docs: Place Order, timeInForce GTC / IOC / FOK / PostOnly (ccxt passes timeInForce through).
  limitParams: { gtc: { timeInForce: 'GTC' }, postOnly: { timeInForce: 'PostOnly' } },
  // ccxt: bybit fetchPositions "does not accept an array with more than one symbol"; without one it
  // reads every USDT position (docs: Get Position Info, settleCoin).
  positionsBySymbolList: false,
  // docs: Place Order, response: orderId and orderLinkId only ("the order is processed asynchronously").
  createAnswersIdsOnly: true,
  // docs: Get Open & Closed Orders (GET /v5/order/realtime), orderLinkId.
  lookupParams: (clientOrderId) => ({ orderLinkId: clientOrderId }),
  // docs: Get Trade History (GET /v5/execution/list), orderId.
  tradesOfOrderParams: (orderId) => ({ orderId }),
  // docs: Cancel All Orders (POST /v5/order/cancel-all), per symbol.
  cancelAllBySymbol: true,
  // docs: Place Order, reduceOnly true.
  reduceOnlyParams: { reduceOnly: true },

  // docs: Integration Guidance, every answer is `{"retCode":110072,"retMsg":"...","result":{},...}`.
  errorBody: { code: 'retCode', message: 'retMsg' },
  // ccxt's message is `bybit <body>`; only a code in that JSON counts.
  errorCode: (err) => codeInBody(err, 'retCode'),
  refusalCodes: REFUSAL_CODES,
  // docs: error, 110072 "OrderLinkedID is duplicate" (ccxt: InvalidOrder).
  duplicateOrderCode: 110072,
  // docs: 110079 "The order is processing and can not be operated": not taken.
  notProcessedCodes: [110079],
  // docs: error, 10002 "The request time exceeds the time window range."
  timestampRefusedCode: 10002,
  readAnswer,

  // docs: Get Orderbook, linear limit [1, 500] (default 25); Bybit keeps its linear books at 1, 50,
  // 200 and 500 levels (docs: websocket Orderbook), so the feed asks the smallest of these ≥ the levels it wants.
  bookDepths: [1, 50, 200, 500],

  // Bybit's dead-man's switch, DCP (docs: Set Disconnect Cancel All, POST
  // /v5/order/disconnected-cancel-all, timeWindow 3–300 s), cancels when the account's private
  // websocket has been gone that long: it needs a websocket this REST venue does not hold, and it is
  // account-wide, not per symbol.
  deadMansSwitch: null,
  // Not built: Bybit's private WebSocket (execution/order topics) is not served by the fake, so its
  // trades' client ids are unproven; resting orders are polled every cycle.
  userStream: null,
  deadMansSwitchNote:
    "none used: Bybit's DCP needs a private websocket held open; an exchange-side reduce-only stop (triggerPrice on the mark) protects each position instead",
  // Built (BYBIT_DCP above, the fake serves it) but not switched on until checked on Bybit.
  disconnectCancel: null,
  exchangeStops: {
    // docs: Place Order, a conditional order: triggerPrice with triggerBy MarkPrice; qty "0" with
    // reduceOnly and closeOnTrigger closes the whole position ("you can close the position up to
    // maxMktOrderQty"). ccxt leaves qty out for an amount of 0, so it is passed here (ccxt:
    // stopLossPrice → triggerPrice with the direction set).
    params: (triggerPrice, clientOrderId) => ({
      stopLossPrice: triggerPrice,
      qty: '0',
      reduceOnly: true,
      closeOnTrigger: true,
      triggerBy: 'MarkPrice',
      clientOrderId,
    }),
    // ccxt leaves the size out of a close-position stop given 0 (the params say the whole position).
    closeAmount: 0,
    // docs: Get Open Orders, orderFilter=StopOrder (ccxt: trigger: true).
    query: { trigger: true },
    // docs: enums, orderStatus Untriggered while the condition waits.
    resting: (order: Order) => (order.info as { orderStatus?: string }).orderStatus === 'Untriggered',
    // A triggered conditional order keeps its orderId as it goes to the book (docs: enums, Triggered);
    // Deactivated is one cancelled before it triggered (nothing to close).
    triggeredOrderId: (order: Order) =>
      ['Triggered', 'PartiallyFilled', 'Filled'].includes(String((order.info as { orderStatus?: string }).orderStatus))
        ? order.id
        : undefined,
  },

  // docs: Get Transaction Log (GET /v5/account/transaction-log, UNIFIED): trades' fees and funding settlements.
  income: (exchange) => async (startTime, limit) => {
    const answer = await raw(exchange).privateGetV5AccountTransactionLog({
      accountType: 'UNIFIED',
      category: 'linear',
      startTime,
      limit,
    });
    // Bybit lists the newest first; the tally reads oldest first.
    return (answer.result?.list ?? []).slice().reverse().flatMap(incomeLines);
  },
  // docs: Get Transaction Log, limit [1, 50], default 20.
  incomePageSize: 50,
  // ccxt's USDT `total` is Bybit's walletBalance, without unrealised PnL; the coin's `equity` has it
  // (docs: Get Wallet Balance, coin[].equity = walletBalance + unrealisedPnl − borrow).
  navOf: (balance) => {
    const accounts = (balance.info as { result?: { list?: BybitWallet[] } } | undefined)?.result?.list ?? [];
    const usdt = accounts.find((a) => a.accountType === 'UNIFIED')?.coin?.find((c) => c.coin === 'USDT');
    return usdt?.equity === undefined || usdt.equity === '' ? undefined : Number(usdt.equity);
  },
  account: {
    // docs: Get Bybit Server Time (GET /v5/market/time): timeSecond; the envelope's `time` in ms.
    serverTime: async (exchange) => {
      const answer = await raw(exchange).publicGetV5MarketTime();
      return Number(answer.time ?? Number(answer.result?.timeSecond) * 1000);
    },
    // docs: Get Position Info, positionIdx 0 one-way, 1/2 the legs of hedge mode.
    hedgeMode: async (exchange) => {
      const answer = await raw(exchange).privateGetV5PositionList({ category: 'linear', symbol: 'BTCUSDT' });
      return (answer.result?.list ?? []).some((p) => Number(p.positionIdx) !== 0);
    },
    hedgeModeFix:
      'Bybit: Derivatives → Settings → Position Mode → One-Way Mode, or POST /v5/position/switch-mode mode=0',
    // docs: Get Account Info, marginMode REGULAR_MARGIN / ISOLATED_MARGIN / PORTFOLIO_MARGIN: a
    // unified account margins across its coins unless isolated.
    multiAssets: async (exchange) =>
      (await raw(exchange).privateGetV5AccountInfo()).result?.marginMode === 'PORTFOLIO_MARGIN',
    multiAssetsFix:
      'Bybit: Unified Trading Account → Margin Mode → Cross Margin or Isolated Margin (not Portfolio Margin)',
    // docs: Get Position Info, leverage and tradeMode (0 cross, 1 isolated) per symbol; set by POST /v5/position/set-leverage.
    symbolSettings: async (exchange, symbolId) => {
      const answer = await raw(exchange).privateGetV5PositionList({ category: 'linear', symbol: symbolId });
      const [p] = answer.result?.list ?? [];
      return { leverage: Number(p?.leverage), marginType: Number(p?.tradeMode) === 1 ? 'isolated' : 'cross' };
    },
  },

  // Cancels are POSTs to /v5/order/cancel and /v5/order/cancel-all (docs: Cancel Order, Cancel All
  // Orders); a close is an order with reduceOnly (docs: Place Order).
  isClosing: (method, path, params) =>
    method === 'POST' &&
    (/order\/cancel/.test(path) || params['reduceOnly'] === true || params['reduceOnly'] === 'true'),
  weights: {
    // Bybit limits by request count per endpoint and UID over rolling windows (docs: Rate Limit,
    // e.g. 10/s for order create on linear, 50/s for most reads) plus 600 requests per 5 s per IP;
    // this budget counts requests, each weighing 1, at the IP rule's 7 200 a minute.
    defaultLimitPerMinute: 7_200,
    // docs: Rate Limit, X-Bapi-Limit-Status is the endpoint's remaining count, not a used weight.
    usedWeightHeader: null,
    weigh: () => 1,
    limitFrom: () => null,
  },
};
