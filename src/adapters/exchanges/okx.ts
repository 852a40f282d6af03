/**
 * OKX v5, USDT-margined perpetual swaps (ccxt `okx`, instType SWAP, a trading account in net
 * position mode): every fact the generic live venue needs (the type and what each field is for:
 * ./profile.ts). Sources: OKX's v5 API docs (www.okx.com/docs-v5/en/, cited per fact as "docs:
 * <section>") and ccxt 4.5's okx implementation (ccxt/ts/src/okx.ts, "ccxt"). The local fake's OKX
 * dialect (test/support/fake-exchange/dialects/okx/) and what it leaves out: docs/operate/okx.md.
 */
import type { Exchange, Order } from 'ccxt';
import type { IncomeLine } from '../live-venue/income-tally.js';
import { httpRateVerdict, retryAfterSeconds } from './answer-verdict.js';
import type { AnswerVerdict } from './answer-verdict.js';
import { bodyIn } from './error-body.js';
import type { CodeKind, ExchangeProfile } from './profile.js';

/**
 * Error codes an order request can be answered with, and what each means for the order (docs: Error
 * Code, "REST API" 50000–50099 and "Trade" 51000–51999; ccxt okx `exceptions.exact`). OKX answers
 * `{"code":"1","msg":"…","data":[{"sCode":"51008","sMsg":"…"}]}` for one refused order: the
 * order's own `sCode` is the one that counts. A code not listed is judged by ccxt's class.
 */
const REFUSAL_CODES: ReadonlyMap<number, CodeKind> = new Map<number, CodeKind>([
  // ---- 50xxx: the request, the rate, the clock ----
  [50001, 'retryable'], // "Service temporarily unavailable" (ccxt: OnMaintenance): nothing placed.
  [50004, 'unknown'], // "API endpoint request timeout (does not mean that the request was successful or failed)".
  [50011, 'rate_limited'], // "Rate limit reached" / "Too Many Requests" (HTTP 429).
  [50013, 'retryable'], // "Systems are busy. Please try again later." (ccxt: ExchangeNotAvailable)
  [50026, 'unknown'], // "System error. Try again later": not said to be unprocessed.
  [50061, 'rate_limited'], // "Sub-account rate limit exceeded" (the account's order rate).
  [50102, 'clock'], // "Timestamp request expired" (outside 30 s of the server's time).
  // ---- 51xxx: orders ----
  [51000, 'rejected'], // "Parameter {param0} error".
  [51001, 'rejected'], // "Instrument ID does not exist".
  [51004, 'rejected'], // "Order failed. The order amount exceeds the current tier limit".
  [51006, 'rejected'], // "Order price is not within the price limit".
  [51008, 'rejected'], // "Order failed. Insufficient USDT margin in account" (ccxt: InsufficientFunds).
  [51016, 'duplicate'], // "Duplicated clOrdId" (ccxt: a plain InvalidOrder).
  [51020, 'rejected'], // "Your order should meet or exceed the minimum order amount."
  [51112, 'rejected'], // "Close order size exceeds your available size."
  [51120, 'rejected'], // "Order quantity is less than {param0}."
  [51121, 'rejected'], // "Order quantity must be a multiple of the lot size."
  [51131, 'rejected'], // "Insufficient balance."
  [51169, 'rejected'], // "Order failed because you don't have any positions in this direction for this contract to reduce or close."
  [51202, 'rejected'], // "Market order amount exceeds the maximum amount."
  [51205, 'rejected'], // "Reduce Only is not available."
]);

/** OKX's raw v5 endpoints the profile calls, as ccxt exposes them (ccxt: okx `api` map). */
interface OkxRawApi {
  publicGetPublicTime(): Promise<OkxList<{ ts?: string }>>;
  privateGetAccountConfig(): Promise<OkxList<{ posMode?: string; acctLv?: string }>>;
  privateGetAccountLeverageInfo(p: { instId: string; mgnMode: string }): Promise<OkxList<{ lever?: string }>>;
  privateGetAccountBills(p: { instType: string; ccy: string; begin: number; limit: number }): Promise<OkxList<OkxBill>>;
  privatePostTradeCancelAllAfter(p: { timeOut: string }): Promise<OkxList<{ triggerTime?: string }>>;
}

/** docs: every answer is `{"code":"0","msg":"","data":[…]}`. */
interface OkxList<T> {
  data?: T[];
}

/** docs: Get bills details (last 7 days), one line (numbers as strings). */
interface OkxBill {
  billId?: string;
  instId?: string;
  ccy?: string;
  type?: string;
  balChg?: string;
  fee?: string;
  ts?: string;
  tradeId?: string;
}

/** docs: Get balance, one account with its currencies. */
interface OkxBalance {
  details?: Array<{ ccy?: string; eq?: string }>;
}

const raw = (exchange: Exchange) => exchange as unknown as OkxRawApi;

/**
 * A bill as the income tally reads lines (Binance's shape, ../live-venue/income-tally.ts): a trade's
 * (type 2) `fee` is a COMMISSION (docs: "negative number represents the user transaction fee charged
 * by the platform", the tally's sign), a funding fee's (type 8) `balChg` a FUNDING_FEE (positive received).
 */
function incomeLines(b: OkxBill): IncomeLine[] {
  // The tally keys by the exchange's market id, which is OKX's instId (BTC-USDT-SWAP).
  const base = { symbol: b.instId, asset: b.ccy, time: b.ts };
  if (b.type === '2' && Number(b.fee) !== 0)
    return [{ ...base, incomeType: 'COMMISSION', income: String(Number(b.fee)), tranId: `${b.billId}:fee` }];
  if (b.type === '8' && Number(b.balChg) !== 0)
    return [{ ...base, incomeType: 'FUNDING_FEE', income: String(Number(b.balChg)), tranId: `${b.billId}:funding` }];
  return [];
}

/** The refused order's `sCode` in OKX's answer, else the answer's `code`, as a number ("0" is no error). */
function okxCode(err: unknown): number | null {
  const body = bodyIn(err);
  if (!body) return null;
  const first = Array.isArray(body['data']) ? (body['data'][0] as Record<string, unknown> | undefined) : undefined;
  for (const value of [first?.['sCode'], body['code']]) {
    if (typeof value === 'string' && /^[1-9]\d*$/.test(value)) return Number(value);
    if (typeof value === 'number' && value !== 0) return value;
  }
  return null;
}

/** The envelope's code, which OKX writes first (`{"code":"50011","msg":…}`): read without parsing every answer. */
const ENVELOPE_CODE = /^\s*\{\s*"code"\s*:\s*"(\d+)"/;

/**
 * docs: Error Code. "Rate limit reached" 50011 (HTTP 429: OKX counts per endpoint over 2 s windows,
 * so the fallback wait is one window) and 50061 (the sub-account's order rate, HTTP 429); a request
 * time refused: 50102 "Timestamp request expired" and 50112 "Invalid OK-ACCESS-TIMESTAMP" (HTTP 401).
 * OKX documents no IP ban answer: a 418 or a bare 429 from before its gateway reads as HTTP says.
 */
function readAnswer(status: number, headers: unknown, body: string): AnswerVerdict | null {
  const code = ENVELOPE_CODE.exec(body)?.[1];
  if (code === '50102' || code === '50112')
    return { kind: 'clock', label: `code ${code}`, retryAfterS: null, untilWall: null, fallbackMs: 0 };
  if (code === '50011' || code === '50061')
    return {
      kind: 'rate_limited',
      label: `code ${code}`,
      retryAfterS: retryAfterSeconds(headers),
      untilWall: null,
      fallbackMs: 2_000,
    };
  return httpRateVerdict(status, headers, body);
}

export const OKX: ExchangeProfile<'okx'> = {
  id: 'okx',
  name: 'OKX USDT swaps',

  clientOptions: {
    // Only swaps at loadMarkets (ccxt: fetchMarkets.types; spot, futures and options are not traded).
    fetchMarkets: { types: ['swap'] },
    defaultType: 'swap',
    // One order per request on POST /api/v5/trade/order (ccxt's default is batch-orders, a list of
    // one: its answer and its faults are the batch's).
    createOrder: 'privatePostTradeOrder',
    // Orders are cross margin (tdMode cross; ccxt: defaultMarginMode).
    defaultMarginMode: 'cross',
    // Sign with the exchange's time, measured by ccxt at loadMarkets (GET /api/v5/public/time).
    adjustForTimeDifference: true,
  },
  // OKX's demo trading is its mainnet address with the header `x-simulated-trading: 1` and a demo
  // key (docs: Demo Trading Services); ccxt's setSandboxMode sets that header.
  useTestnet: (exchange) => exchange.setSandboxMode(true),
  testnetLabel: 'demo trading',
  mainnetRefused:
    'OKX is supported on its demo trading only for now: it has passed the venue contract and an ' +
    "end-to-end run against the project's fake exchange, with OKX's contract sizes (0.01 BTC a " +
    "BTC-USDT-SWAP contract), but not yet a check on OKX's own demo (docs/operate/okx.md)",
  // docs: Get funding rate history, `after` "return records earlier than the requested fundingTime";
  // ccxt 4.5's okx sends only `before` (= since − 1) and drops `until`, and a request bounded only by
  // its start answers the newest page, not the window asked for.
  fundingHistoryUntil: (untilMs) => ({ after: untilMs }),
  // docs: Get candlesticks history, limit "maximum is 100" (ccxt switches to it for candles older
  // than 1 440 bars); Get funding rate history, limit "maximum is 100". Both newest first.
  historyPages: { candles: 100, funding: 100 },
  // docs: REST Authentication, "the request will be considered expired and rejected if the timestamp
  // is more than 30 seconds away from the server time" (50102).
  recvWindowMs: 30_000,
  // OKX signs in the OK-ACCESS-SIGN header, which ccxt never writes into an error; nothing in a URL
  // carries a signature. The pattern blanks a `sign=` query all the same, should one ever appear.
  signatureInUrl: /([?&]sign=)[A-Za-z0-9+/=%]+/g,
  // docs: Create an APIKey: a key, a secret and a passphrase chosen by the user (OK-ACCESS-PASSPHRASE).
  passphrase: true,

  // docs: Place order, clOrdId "a combination of case-sensitive alphanumerics, all numbers, or all
  // letters of up to 32 characters"; a letter first is the safe subset (ours that do not fit are
  // hashed to `hx` + hex). Unique among the account's open orders (51016).
  clientOrderId: { pattern: /^[A-Za-z][A-Za-z0-9]{0,31}$/, maxLength: 32, alphanumericOnly: true },
  // docs: Place order, ordType limit / post_only (ccxt: postOnly → ordType post_only).
  limitParams: { gtc: { ordType: 'limit' }, postOnly: { postOnly: true } },
  // docs: Get positions, instId "single instrument ID or multiple instrument IDs (no more than 10)".
  positionsBySymbolList: true,
  // docs: Place order, response: ordId, clOrdId, tag, sCode, sMsg only.
  createAnswersIdsOnly: true,
  // docs: Get order details (GET /api/v5/trade/order), clOrdId (ccxt: clientOrderId → clOrdId).
  lookupParams: (clientOrderId) => ({ clOrdId: clientOrderId }),
  // docs: Get transaction details (GET /api/v5/trade/fills-history), ordId.
  tradesOfOrderParams: (orderId) => ({ ordId: orderId }),
  // ccxt: okx has cancelAllOrders false; docs: Cancel multiple orders (POST
  // /api/v5/trade/cancel-batch-orders, at most 20) by ordId. (mass-cancel is for options only.)
  cancelAllBySymbol: false,
  // docs: Place order, reduceOnly true (net mode, MARGIN/SWAP/FUTURES).
  reduceOnlyParams: { reduceOnly: true },

  // docs: every answer is `{"code":"0","msg":"","data":[…]}`; codes are strings.
  errorBody: { code: 'code', message: 'msg', perOrder: { list: 'data', code: 'sCode', message: 'sMsg' } },
  errorCode: okxCode,
  refusalCodes: REFUSAL_CODES,
  // docs: error 51016 "Duplicated clOrdId".
  duplicateOrderCode: 51016,
  // docs: 50001 "Service temporarily unavailable", answered before the matching engine takes anything.
  notProcessedCodes: [50001],
  // docs: error 50102 "Timestamp request expired".
  timestampRefusedCode: 50102,

  readAnswer,

  // docs: Get order book (GET /api/v5/market/books), sz 1–400 (any depth): the feed asks what it wants.
  bookDepths: null,

  // docs: Cancel All After (POST /api/v5/trade/cancel-all-after): "Cancel all pending orders after
  // the countdown timeout. Applicable to all trading symbols through order book", timeOut 10–120 s,
  // "0" disarms; each call restarts the countdown. Account-wide, so armed once per cycle, and its
  // 120 s ceiling caps the venue's three-cycle countdown (cycles of up to 110 s keep it armed). Algo
  // (conditional) orders are not on the order book until they trigger: our exchange stop is left
  // resting, so the switch is never disarmed for one (the fake models it so; unchecked on OKX itself).
  deadMansSwitch: (exchange) => (_symbolId, countdownMs) =>
    raw(exchange).privatePostTradeCancelAllAfter({ timeOut: String(Math.round(countdownMs / 1000)) }),
  deadMansSwitchScope: 'account',
  deadMansSwitchMaxMs: 120_000,
  // Not built: OKX's private WebSocket (orders channel) is not served by the fake; resting orders are polled every cycle.
  userStream: null,
  deadMansSwitchNote:
    'cancel-all-after (account-wide, at most 120 s), re-armed every cycle; an exchange-side reduce-only stop (a conditional algo order on the mark) protects each position, and the switch leaves it resting',
  exchangeStops: {
    // docs: Place algo order (POST /api/v5/trade/order-algo), ordType conditional, slTriggerPx with
    // slTriggerPxType mark and slOrdPx -1 (market); closeFraction 1 closes the whole position (net
    // mode, reduceOnly; sz left out: ccxt omits it with closeFraction). algoClOrdId names it; ccxt
    // sends clientOrderId as clOrdId too (else a broker id of its own) and reads it back from there.
    params: (triggerPrice, clientOrderId) => ({
      stopLossPrice: triggerPrice,
      slTriggerPxType: 'mark',
      closeFraction: '1',
      reduceOnly: true,
      algoClOrdId: clientOrderId,
      clientOrderId,
    }),
    // ccxt leaves the size out of a close-position stop given 0 (the params say the whole position).
    closeAmount: 0,
    // docs: Get algo order list (GET /api/v5/trade/orders-algo-pending), ordType conditional
    // (ccxt: trigger true picks the algo endpoints; without ordType it asks `trigger` orders).
    query: { trigger: true, ordType: 'conditional' },
    // docs: algo order state live (waiting) / effective (triggered) / canceled / order_failed.
    resting: (order: Order) => (order.info as { state?: string }).state === 'live',
    // docs: an effective algo order names the order it placed in ordIdList (ordId in older answers).
    triggeredOrderId: (order: Order) => {
      const info = order.info as { state?: string; ordId?: string; ordIdList?: string[] };
      if (info.state !== 'effective') return undefined;
      return info.ordIdList?.[0] ?? (info.ordId || undefined);
    },
  },

  // docs: Get bills details (last 7 days) (GET /api/v5/account/bills): trade fees (type 2) and funding (type 8).
  income: (exchange) => async (startTime, limit) => {
    const answer = await raw(exchange).privateGetAccountBills({
      instType: 'SWAP',
      ccy: 'USDT',
      begin: startTime,
      limit,
    });
    // OKX lists the newest first; the tally reads oldest first.
    return (answer.data ?? []).slice().reverse().flatMap(incomeLines);
  },
  // docs: Get bills details, limit at most 100.
  incomePageSize: 100,
  // docs: Get balance, details[].eq "equity of currency" (cash balance + unrealised PnL); ccxt's total is that eq too.
  navOf: (balance) => {
    const accounts = (balance.info as { data?: OkxBalance[] } | undefined)?.data ?? [];
    const usdt = accounts[0]?.details?.find((d) => d.ccy === 'USDT');
    return usdt?.eq === undefined || usdt.eq === '' ? undefined : Number(usdt.eq);
  },
  account: {
    // docs: Get system time (GET /api/v5/public/time), ts in ms.
    serverTime: async (exchange) => Number((await raw(exchange).publicGetPublicTime()).data?.[0]?.ts),
    // docs: Get account configuration, posMode long_short_mode (hedge) / net_mode (one-way).
    hedgeMode: async (exchange) =>
      (await raw(exchange).privateGetAccountConfig()).data?.[0]?.posMode === 'long_short_mode',
    hedgeModeFix:
      'OKX: Trade → Settings → Position mode → One-way mode, or POST /api/v5/account/set-position-mode posMode=net_mode',
    // docs: Get account configuration, acctLv 1 spot, 2 futures (single-currency margin), 3 multi-currency, 4 portfolio.
    multiAssets: async (exchange) =>
      ['3', '4'].includes(String((await raw(exchange).privateGetAccountConfig()).data?.[0]?.acctLv)),
    multiAssetsFix:
      'OKX: Trade → Settings → Account mode → Futures mode (single-currency margin), or POST /api/v5/account/set-account-level acctLv=2',
    // docs: Get leverage (GET /api/v5/account/leverage-info) for cross margin, the mode our orders are
    // sent in (tdMode cross): on OKX the margin mode is the order's, not the symbol's.
    symbolSettings: async (exchange, symbolId) => {
      const answer = await raw(exchange).privateGetAccountLeverageInfo({ instId: symbolId, mgnMode: 'cross' });
      return { leverage: Number(answer.data?.[0]?.lever), marginType: 'cross' };
    },
  },

  // Cancels are POSTs to /trade/cancel-order, /trade/cancel-batch-orders and /trade/cancel-algos
  // (docs: Cancel order, Cancel multiple orders, Cancel algo order); a close is an order with reduceOnly.
  isClosing: (method, path, params) =>
    method === 'POST' &&
    (/trade\/cancel-/.test(path) || params['reduceOnly'] === true || params['reduceOnly'] === 'true'),
  weights: {
    // OKX limits by request count per endpoint over 2 s windows (docs: Rate Limit, e.g. 60 per 2 s
    // for Place order per instrument, 10–20 per 2 s for account reads); ccxt's okx throttle is one
    // request per 100 ms. This budget counts requests, each weighing 1, at that 600 a minute.
    defaultLimitPerMinute: 600,
    // OKX sends no used-weight header.
    usedWeightHeader: null,
    weigh: () => 1,
    limitFrom: () => null,
  },
};
