/**
 * Bitget USDT-M perpetual futures (ccxt `bitget`, the classic V2 mix API, productType USDT-FUTURES,
 * a classic — not unified — futures account in one-way position mode): every fact the generic live
 * venue needs (the type and what each field is for: ./profile.ts). Sources: Bitget's API docs
 * (www.bitget.com/api-doc/contract/…, cited per fact as "docs: <page>") and ccxt 4.5's bitget
 * implementation (ccxt/ts/src/bitget.ts, "ccxt"). The local fake's Bitget dialect
 * (test/support/fake-exchange/dialects/bitget/) and what it leaves out: docs/operate/bitget.md.
 */
import type { Exchange, Order } from 'ccxt';
import type { IncomeLine } from '../live-venue/income-tally.js';
import { httpRateVerdict, retryAfterSeconds } from './answer-verdict.js';
import type { AnswerVerdict } from './answer-verdict.js';
import { bodyIn } from './error-body.js';
import type { CodeKind, ExchangeProfile } from './profile.js';

/**
 * Error codes an order request can be answered with, and what each means for the order (docs:
 * Common → Error code, "Futures"; ccxt bitget `exceptions.exact`). Bitget answers
 * `{"code":"40762","msg":"…","requestTime":…,"data":null}`; codes are strings. A code not listed is
 * judged by ccxt's class.
 */
const REFUSAL_CODES: ReadonlyMap<number, CodeKind> = new Map<number, CodeKind>([
  // ---- the request, the rate, the clock ----
  [429, 'rate_limited'], // "Too Many Requests" (HTTP 429; ccxt: DDoSProtection).
  [40004, 'clock'], // "Request timestamp expired" (ccxt: InvalidNonce).
  [40005, 'clock'], // "Invalid ACCESS_TIMESTAMP" (ccxt: InvalidNonce).
  [40008, 'clock'], // "Request timestamp expired" (ccxt: InvalidNonce).
  [40010, 'unknown'], // "Request timed out": not said to be unprocessed.
  [40015, 'unknown'], // "System is abnormal, please try again later": not said to be unprocessed.
  [40200, 'retryable'], // "Server upgrade, please try again later" (ccxt: OnMaintenance): nothing taken.
  [40604, 'retryable'], // "Server is busy, please try again later" (ccxt: ExchangeNotAvailable).
  // ---- orders ----
  [40017, 'rejected'], // "Parameter verification failed".
  [40108, 'rejected'], // "Wrong order quantity".
  [40706, 'rejected'], // "Wrong order price".
  [40711, 'rejected'], // "Insufficient contract account balance" (ccxt: InsufficientFunds).
  [40712, 'rejected'], // "Insufficient margin" (ccxt: InsufficientFunds).
  [40762, 'rejected'], // "The order amount exceeds the balance" (ccxt: InsufficientFunds).
  [40774, 'rejected'], // "The order type for unilateral position must also be the unilateral position type."
  [40786, 'duplicate'], // "Duplicate clientOid" (docs: Error code; not in ccxt's table: a plain ExchangeError).
  [40808, 'rejected'], // "Parameter verification exception size checkBDScale error" (size off the step).
  [22002, 'rejected'], // "No position to close" (a reduce-only order with nothing to reduce).
  [43012, 'rejected'], // "Insufficient balance" (ccxt: InsufficientFunds).
  [45110, 'rejected'], // "less than the minimum amount 5 USDT" (ccxt: InvalidOrder).
  [45113, 'rejected'], // "Maximum order value limit triggered".
  [40917, 'rejected'], // "Stop price for long positions please < mark price".
  [45122, 'rejected'], // "Short position stop loss price please > mark price".
]);

/** Bitget's raw V2 endpoints the profile calls, as ccxt exposes them (ccxt: bitget `api` map). */
interface BitgetRawApi {
  publicCommonGetV2PublicTime(): Promise<BitgetAnswer<{ serverTime?: string }>>;
  privateMixGetV2MixAccountAccount(p: {
    symbol: string;
    productType: string;
    marginCoin: string;
  }): Promise<BitgetAnswer<BitgetAccount>>;
  privateMixGetV2MixAccountBill(p: {
    productType: string;
    coin: string;
    startTime: number;
    limit: number;
  }): Promise<BitgetAnswer<{ bills?: BitgetBill[] }>>;
}

/** docs: every answer is `{"code":"00000","msg":"success","requestTime":…,"data":…}`. */
interface BitgetAnswer<T> {
  data?: T;
}

/** docs: Get Single Account (GET /api/v2/mix/account/account). */
interface BitgetAccount {
  marginMode?: string;
  posMode?: string;
  assetMode?: string;
  crossedMarginLeverage?: string | number;
  isolatedLongLever?: string | number;
}

/** docs: Get Account Bill, one line (numbers as strings). */
interface BitgetBill {
  billId?: string;
  symbol?: string;
  amount?: string;
  fee?: string;
  businessType?: string;
  coin?: string;
  cTime?: string;
}

/** docs: Get Account List, one margin coin. */
interface BitgetContractAccount {
  marginCoin?: string;
  accountEquity?: string;
}

const raw = (exchange: Exchange) => exchange as unknown as BitgetRawApi;

/** The one product this profile trades (docs: productType USDT-FUTURES, "USDT professional futures"). */
const PRODUCT = { productType: 'USDT-FUTURES', marginCoin: 'USDT' } as const;

/**
 * A bill as the income tally reads lines (Binance's shape, ../live-venue/income-tally.ts): an
 * order's `fee` (negative: paid, the tally's sign) is a COMMISSION; a funding settlement
 * (businessType contract_settle_fee) moves `amount` (positive received) and is a FUNDING_FEE.
 */
function incomeLines(b: BitgetBill): IncomeLine[] {
  const base = { symbol: b.symbol, asset: b.coin, time: b.cTime };
  if (b.businessType === 'contract_settle_fee')
    return Number(b.amount) === 0
      ? []
      : [{ ...base, incomeType: 'FUNDING_FEE', income: String(Number(b.amount)), tranId: `${b.billId}:funding` }];
  if (Number(b.fee) !== 0)
    return [{ ...base, incomeType: 'COMMISSION', income: String(Number(b.fee)), tranId: `${b.billId}:fee` }];
  return [];
}

/** The answer's `code` as a number ("00000" is success). */
function bitgetCode(err: unknown): number | null {
  const value = bodyIn(err)?.['code'];
  if (typeof value === 'string' && /^\d+$/.test(value) && Number(value) !== 0) return Number(value);
  if (typeof value === 'number' && value !== 0) return value;
  return null;
}

/** The envelope's code, which Bitget writes first (`{"code":"40008","msg":…}`): read without parsing every answer. */
const ENVELOPE_CODE = /^\s*\{\s*"code"\s*:\s*"(\d+)"/;

/**
 * docs: Rate Limit, "the response status 429 … Too Many Requests" (code "429"), limits per endpoint
 * and UID or IP per second, so the fallback wait is one second; a refused request time is 40008
 * "Request timestamp expired" (and 40004/40005). Bitget documents no IP ban answer: a 418 from
 * before its gateway reads as HTTP says.
 */
function readAnswer(status: number, headers: unknown, body: string): AnswerVerdict | null {
  const code = ENVELOPE_CODE.exec(body)?.[1];
  if (code === '40008' || code === '40004' || code === '40005')
    return { kind: 'clock', label: `code ${code}`, retryAfterS: null, untilWall: null, fallbackMs: 0 };
  if (code === '429' || status === 429)
    return {
      kind: 'rate_limited',
      label: code === '429' ? 'code 429' : '429',
      retryAfterS: retryAfterSeconds(headers),
      untilWall: null,
      fallbackMs: 1_000,
    };
  return httpRateVerdict(status, headers, body);
}

const yes = (value: unknown) => value === true || value === 'true' || value === 'YES';

export const BITGET: ExchangeProfile<'bitget'> = {
  id: 'bitget',
  name: 'Bitget USDT-M perpetuals',

  clientOptions: {
    // Only contracts at loadMarkets (ccxt: fetchMarkets.types; spot and margin are not traded).
    fetchMarkets: { types: ['swap'] },
    // A classic account, said up front: otherwise ccxt probes GET /api/v3/account/settings (the
    // unified account's) at loadMarkets and before each order (ccxt: handleUTAAndParams).
    uta: false,
    // USDT-M perpetuals by default: ccxt derives productType USDT-FUTURES from linear swaps
    // (ccxt: handleProductTypeAndParams), which fetchBalance and fetchPositions need.
    defaultType: 'swap',
    defaultSubType: 'linear',
    // Orders are cross margin (ccxt: createOrderRequest, marginMode crossed by default).
    defaultMarginMode: 'cross',
    // Sign with the exchange's time, measured by ccxt at loadMarkets (GET /api/v2/public/time).
    adjustForTimeDifference: true,
  },
  // Bitget's demo trading is its mainnet address with the header `paptrading: 1` and a demo key
  // (docs: Demo Trading, "add paptrading: 1 in the header"); ccxt's setSandboxMode sets that header
  // (ccxt: sign, PAPTRADING). The demo books are Bitget's own simulated market.
  useTestnet: (exchange) => exchange.setSandboxMode(true),
  testnetLabel: 'demo trading',
  mainnetRefused:
    'Bitget is supported on its demo trading only for now: it has passed the venue contract and an ' +
    "end-to-end run against the project's fake exchange, but not yet a check on Bitget's own demo " +
    '(the position stop-loss, the look-up by clientOid, the duplicate code: docs/operate/bitget.md)',
  // docs: Get Candlestick Data, limit "max 1000"; Get History Candlestick Data, limit "max 200"
  // (ccxt switches to it for old candles); Get Historical Funding Rates, pageSize "max 100".
  historyPages: { candles: 200, funding: 100 },
  // docs: Signature, ACCESS-TIMESTAMP: "the request will be rejected … if the timestamp differs from
  // the server time by more than 30 seconds" (40008).
  recvWindowMs: 30_000,
  // Bitget signs in the ACCESS-SIGN header, which ccxt never writes into an error; nothing in a URL
  // carries a signature. The pattern blanks a `sign=` query all the same, should one ever appear.
  signatureInUrl: /([?&]sign=)[A-Za-z0-9+/=%]+/g,
  // docs: Quick Start → Create an API Key: a key, a secret and a passphrase (ACCESS-PASSPHRASE).
  passphrase: true,

  // docs: Place Order, clientOid "Customize order ID" (ccxt: 40305 "Client_oid length is not greater
  // than 50"); letters, digits, `-` and `_` are the safe subset. Unique per account (40786).
  clientOrderId: { pattern: /^[A-Za-z0-9_-]{1,50}$/, maxLength: 50 },
  // docs: Place Order, force gtc / ioc / fok / post_only (ccxt: timeInForce GTC → force GTC, postOnly → post_only).
  limitParams: { gtc: { timeInForce: 'GTC' }, postOnly: { postOnly: true } },
  // ccxt: bitget fetchPositions reads every position of the product (GET
  // /api/v2/mix/position/all-position) and keeps those of the symbols asked.
  positionsBySymbolList: true,
  // docs: Place Order, response: orderId and clientOid only.
  createAnswersIdsOnly: true,
  // docs: Get Order Detail (GET /api/v2/mix/order/detail), clientOid (ccxt: clientOrderId → clientOid).
  lookupParams: (clientOrderId) => ({ clientOrderId }),
  // docs: Get Order Fill Details (GET /api/v2/mix/order/fills), orderId.
  tradesOfOrderParams: (orderId) => ({ orderId }),
  // docs: Batch Cancel Orders (POST /api/v2/mix/order/batch-cancel-orders) with a symbol and no
  // orderIdList cancels every open order of that symbol (ccxt: cancelAllOrders).
  cancelAllBySymbol: true,
  // docs: Place Order, reduceOnly YES (one-way mode only; ccxt: reduceOnly true → "YES").
  reduceOnlyParams: { reduceOnly: true },

  // docs: every answer is `{"code":"00000","msg":"success","requestTime":…,"data":…}`; codes are strings.
  errorBody: { code: 'code', message: 'msg' },
  errorCode: bitgetCode,
  refusalCodes: REFUSAL_CODES,
  // docs: Error code, 40786 "Duplicate clientOid".
  duplicateOrderCode: 40786,
  // docs: 40200 "Server upgrade, please try again later", answered before any order is taken.
  notProcessedCodes: [40200],
  // docs: Error code, 40008 "Request timestamp expired".
  timestampRefusedCode: 40008,
  readAnswer,

  // docs: Get Merge Depth (GET /api/v2/mix/market/merge-depth), limit 1, 5, 15, 50 or "max" (default 100).
  bookDepths: [1, 5, 15, 50],

  // Bitget's classic V2 futures API has no cancel-all-after: the countdown (POST
  // /api/v3/trade/countdown-cancel-all, ccxt: privateUtaPost…) is the unified account's only.
  deadMansSwitch: null,
  // Not built: Bitget's private WebSocket (orders/fill channels) is not served by the fake; resting orders are polled every cycle.
  userStream: null,
  deadMansSwitchNote:
    "none used: Bitget's classic futures API has no cancel-all-after (only the unified account's v3 countdown); an exchange-side position stop-loss (pos_loss on the mark) protects each position instead, and resting orders stay when the process dies",
  exchangeStops: {
    // docs: Place Tpsl Order (POST /api/v2/mix/order/place-tpsl-order), planType pos_loss: a
    // stop-loss on the whole position ("position stop loss"), triggerType mark_price, executed at
    // market; holdSide buy/sell in one-way mode (ccxt: stopLossPrice → place-tpsl-order, holdSide
    // from the side). clientOid names it.
    params: (triggerPrice, clientOrderId) => ({
      stopLossPrice: triggerPrice,
      triggerType: 'mark_price',
      clientOrderId,
    }),
    // ccxt's createOrder refuses an amount of 0 (amountToPrecision) and sends none when given none;
    // pos_loss takes no size (docs: Place Tpsl Order, size "not required" for pos_profit/pos_loss).
    closeAmount: undefined,
    // docs: Get Pending Trigger Orders (GET /api/v2/mix/order/orders-plan-pending), planType
    // profit_loss (ccxt: a planType picks the plan endpoints; trigger routes cancelOrder to cancel-plan-order).
    query: { trigger: true, planType: 'profit_loss' },
    // docs: Get Order Detail reads orders only, not plan orders; a stop is found among Get Pending
    // Trigger Orders, else Get History Trigger Order (GET /api/v2/mix/order/orders-plan-history,
    // ccxt: fetchCanceledAndClosedOrders with a planType; the last 90 days).
    read: async (exchange, id, symbol) => {
      const query = { trigger: true, planType: 'profit_loss' };
      const pending = await exchange.fetchOpenOrders(symbol, undefined, undefined, query);
      const found =
        pending.find((o) => o.id === id) ??
        (await exchange.fetchCanceledAndClosedOrders(symbol, undefined, undefined, query)).find((o) => o.id === id);
      if (!found) throw new Error(`bitget: stop ${id} on ${symbol} is neither pending nor in the history`);
      return found;
    },
    // docs: planStatus live (waiting) / executed (triggered) / fail_trigger / cancelled.
    resting: (order: Order) => (order.info as { planStatus?: string }).planStatus === 'live',
    // docs: Get History Trigger Order, executeOrderId: the order a triggered plan placed.
    triggeredOrderId: (order: Order) => {
      const info = order.info as { planStatus?: string; executeOrderId?: string };
      return info.planStatus === 'executed' && info.executeOrderId ? info.executeOrderId : undefined;
    },
  },

  // docs: Get Account Bill (GET /api/v2/mix/account/bill): trades' fees and funding settlements, newest first.
  income: (exchange) => async (startTime, limit) => {
    const answer = await raw(exchange).privateMixGetV2MixAccountBill({
      productType: PRODUCT.productType,
      coin: PRODUCT.marginCoin,
      startTime,
      limit,
    });
    // Bitget lists the newest first; the tally reads oldest first.
    return (answer.data?.bills ?? []).slice().reverse().flatMap(incomeLines);
  },
  // docs: Get Account Bill, limit "max 100".
  incomePageSize: 100,
  // docs: Get Account List, accountEquity "account equity" (wallet plus unrealised PnL); ccxt's total is the same.
  navOf: (balance) => {
    const accounts = (balance.info as BitgetContractAccount[] | undefined) ?? [];
    const usdt = Array.isArray(accounts) ? accounts.find((a) => a.marginCoin === 'USDT') : undefined;
    return usdt?.accountEquity === undefined || usdt.accountEquity === '' ? undefined : Number(usdt.accountEquity);
  },
  account: {
    // docs: Get Server Time (GET /api/v2/public/time), serverTime in ms.
    serverTime: async (exchange) => Number((await raw(exchange).publicCommonGetV2PublicTime()).data?.serverTime),
    // docs: Get Single Account, posMode one_way_mode / hedge_mode (the product's, read on BTCUSDT).
    hedgeMode: async (exchange) =>
      (await raw(exchange).privateMixGetV2MixAccountAccount({ symbol: 'BTCUSDT', ...PRODUCT })).data?.posMode ===
      'hedge_mode',
    hedgeModeFix:
      'Bitget: Futures → Preferences → Position mode → One-way mode, or POST /api/v2/mix/account/set-position-mode posMode=one_way_mode',
    // docs: Get Single Account, assetMode single / union (multi-assets margin).
    multiAssets: async (exchange) =>
      (await raw(exchange).privateMixGetV2MixAccountAccount({ symbol: 'BTCUSDT', ...PRODUCT })).data?.assetMode ===
      'union',
    multiAssetsFix:
      'Bitget: Futures → Preferences → Asset mode → Single-asset mode, or POST /api/v2/mix/account/set-asset-mode assetMode=single',
    // docs: Get Single Account, marginMode crossed / isolated and the leverage of each.
    symbolSettings: async (exchange, symbolId) => {
      const answer = await raw(exchange).privateMixGetV2MixAccountAccount({ symbol: symbolId, ...PRODUCT });
      const isolated = answer.data?.marginMode === 'isolated';
      return {
        leverage: Number(isolated ? answer.data?.isolatedLongLever : answer.data?.crossedMarginLeverage),
        marginType: isolated ? 'isolated' : 'cross',
      };
    },
  },

  // Cancels are POSTs to /order/cancel-order, /order/batch-cancel-orders, /order/cancel-plan-order
  // (docs: Cancel Order, Batch Cancel Orders, Cancel Trigger Order); a close is an order with
  // reduceOnly YES (docs: Place Order).
  isClosing: (method, path, params) =>
    method === 'POST' && (/order\/(batch-)?cancel-/.test(path) || yes(params['reduceOnly'])),
  weights: {
    // Bitget limits by request count per endpoint and UID (docs: Rate Limit, e.g. 10/s for Place
    // Order) and 6 000 requests a minute per IP; this budget counts requests, each weighing 1.
    defaultLimitPerMinute: 6_000,
    // Bitget sends no used-weight header.
    usedWeightHeader: null,
    weigh: () => 1,
    limitFrom: () => null,
  },
};
