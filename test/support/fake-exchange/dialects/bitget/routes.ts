/**
 * The Bitget V2 endpoints the fake serves for USDT-M perpetuals (productType USDT-FUTURES), each
 * reading Bitget's parameters and answering Bitget's `data` (./shapes.ts) over the shared engine.
 * Which ccxt 4.5.84 `bitget` method calls which (with the Bitget profile's options: swap markets
 * only, a classic account):
 *   loadMarkets → GET /api/v2/public/time (adjustForTimeDifference), /api/v2/mix/market/contracts
 *     once per productType (six), /api/v2/spot/public/coins (fetchCurrencies)
 *   fetchOrderBook → /api/v2/mix/market/merge-depth    fetchOHLCV → /api/v2/mix/market/candles
 *     (history-candles for old ones)    fetchTicker(s) → /api/v2/mix/market/ticker(s)
 *   fetchFundingRate → /api/v2/mix/market/current-fund-rate    fetchFundingRateHistory → history-fund-rate
 *   fetchBalance → /api/v2/mix/account/accounts    fetchPositions → /api/v2/mix/position/all-position
 *   createOrder → POST /api/v2/mix/order/place-order    fetchOrder → /api/v2/mix/order/detail
 *   fetchOpenOrders → /api/v2/mix/order/orders-pending    fetchClosedOrders → orders-history
 *   cancelOrder → POST /api/v2/mix/order/cancel-order    cancelAllOrders → POST batch-cancel-orders
 *   fetchMyTrades → /api/v2/mix/order/fills    setLeverage → POST /api/v2/mix/account/set-leverage
 *   stops (stopLossPrice; planType profit_loss) → ./plan.ts
 * A public client without the profile's options (the live feed) asks spot symbols and margin
 * currencies too: served empty.
 */
import type { DialectContext } from '../../dialect.js';
import { aggregateCandle, candleAt, FAKE_INSTRUMENTS, FUNDING_INTERVAL, fundingAt, MINUTE } from '../../market-data.js';
import type { FakeInstrument } from '../../market-data.js';
import { parseNewOrder } from '../../order-rules.js';
import type { OrderRecord } from '../../venue.js';
import { bitgetErrors, fromEngine } from './errors.js';
import { PLAN_ROUTES } from './plan.js';
import { accounts, bill, contract, fill, order, position } from './shapes.js';

type Params = Record<string, unknown>;
export type Handler = (p: Params, ctx: DialectContext) => unknown;

/** Bitget's candle granularities (docs: Get Candlestick Data) in minutes; `utc` ones are the same here. */
const GRANULARITY: Record<string, number> = {
  '1m': 1,
  '3m': 3,
  '5m': 5,
  '15m': 15,
  '30m': 30,
  '1H': 60,
  '4H': 240,
  '6H': 360,
  '12H': 720,
  '1D': 1440,
};

/** docs: Get Merge Depth, limit 1, 5, 15, 50, max (default 100). */
const DEPTHS: Record<string, number> = { '1': 1, '5': 5, '15': 15, '50': 50, max: 100 };

/** docs: Place Order, clientOid (ccxt: 40305 "Client_oid length is not greater than 50"). */
const CLIENT_OID = /^[A-Za-z0-9_-]{1,50}$/;

export const PUBLIC: Record<string, Handler> = {
  'GET /api/v2/public/time': (_p, ctx) => ({ serverTime: String(ctx.now()) }),
  'GET /api/v2/mix/market/contracts': (p) =>
    p['productType'] === 'USDT-FUTURES' ? FAKE_INSTRUMENTS.map(contract) : [],
  'GET /api/v2/spot/public/symbols': () => [],
  'GET /api/v2/spot/public/coins': () => [],
  'GET /api/v2/margin/currencies': () => [],
  'GET /api/v2/mix/market/merge-depth': (p, ctx) => {
    const inst = instrumentOf(p);
    const levels = DEPTHS[String(p['limit'] ?? 'max')];
    if (levels === undefined) throw bitgetErrors.params('limit');
    const book = ctx.venue.book(inst);
    const side = (rows: [number, number][]) => rows.slice(0, levels).map(([px, qty]) => [px, qty]);
    return {
      asks: side(book.asks),
      bids: side(book.bids),
      ts: String(ctx.now()),
      scale: inst.tickSize,
      precision: 'scale0',
      isMaxPrecision: 'NO',
    };
  },
  'GET /api/v2/mix/market/candles': (p, ctx) => candles(p, ctx, 1000),
  'GET /api/v2/mix/market/history-candles': (p, ctx) => candles(p, ctx, 200),
  'GET /api/v2/mix/market/ticker': (p, ctx) => [ticker(instrumentOf(p), ctx)],
  'GET /api/v2/mix/market/tickers': (p, ctx) =>
    p['productType'] === 'USDT-FUTURES' ? FAKE_INSTRUMENTS.map((i) => ticker(i, ctx)) : [],
  // docs: Get Current Funding Rate: the rate of the period settling at nextUpdate, every 8 h.
  'GET /api/v2/mix/market/current-fund-rate': (p, ctx) => {
    const inst = instrumentOf(p);
    const next = (Math.floor(ctx.now() / FUNDING_INTERVAL) + 1) * FUNDING_INTERVAL;
    return [
      {
        symbol: inst.id,
        fundingRate: String(fundingAt(ctx.seed, inst, next)),
        fundingRateInterval: '8',
        nextUpdate: String(next),
        minFundingRate: '-0.003',
        maxFundingRate: '0.003',
      },
    ];
  },
  // docs: Get Historical Funding Rates: settled rates newest first, pageSize at most 100, pageNo from 1
  // (no time bound: a client wanting an old window pages back).
  'GET /api/v2/mix/market/history-fund-rate': (p, ctx) => {
    const inst = instrumentOf(p);
    const size = Math.min(Number(p['pageSize'] ?? 20), 100);
    const page = Number(p['pageNo'] ?? 1);
    if (!Number.isInteger(size) || size < 1 || !Number.isInteger(page) || page < 1)
      throw bitgetErrors.params('pageSize');
    const lastSettled = Math.floor(ctx.now() / FUNDING_INTERVAL) * FUNDING_INTERVAL;
    const rows = [];
    for (let k = (page - 1) * size; k < page * size; k++) {
      const t = lastSettled - k * FUNDING_INTERVAL;
      rows.push({ symbol: inst.id, fundingRate: String(fundingAt(ctx.seed, inst, t)), fundingTime: String(t) });
    }
    return rows;
  },
};

export const PRIVATE: Record<string, Handler> = {
  'GET /api/v2/mix/account/accounts': (p, ctx) =>
    p['productType'] === 'USDT-FUTURES' ? accounts(ctx.venue.account()) : [],
  // docs: Get Single Account: the product's position and asset modes, the symbol's margin mode and leverage.
  'GET /api/v2/mix/account/account': (p, ctx) => {
    const inst = instrumentOf(p);
    if (p['marginCoin'] !== 'USDT') throw bitgetErrors.empty('marginCoin');
    const [usdt] = accounts(ctx.venue.account());
    const leverage = String(ctx.venue.settings.of(inst.id).leverage);
    return {
      ...usdt,
      marginMode: ctx.venue.settings.of(inst.id).marginType === 'ISOLATED' ? 'isolated' : 'crossed',
      posMode: ctx.venue.settings.dualSidePosition ? 'hedge_mode' : 'one_way_mode',
      assetMode: ctx.venue.settings.multiAssetsMargin ? 'union' : 'single',
      crossedMarginLeverage: leverage,
      isolatedLongLever: leverage,
      isolatedShortLever: leverage,
    };
  },
  'POST /api/v2/mix/account/set-leverage': (p, ctx) => {
    const inst = instrumentOf(p);
    const leverage = Number(p['leverage']);
    if (!Number.isFinite(leverage) || leverage < 1) throw bitgetErrors.params('leverage');
    ctx.venue.settings.changeLeverage(inst.id, leverage);
    return {
      symbol: inst.id,
      marginCoin: 'USDT',
      longLeverage: String(leverage),
      shortLeverage: String(leverage),
      crossMarginLeverage: String(leverage),
      marginMode: 'crossed',
    };
  },
  'POST /api/v2/mix/account/set-position-mode': (p, ctx) => {
    if (p['posMode'] !== 'one_way_mode' && p['posMode'] !== 'hedge_mode') throw bitgetErrors.params('posMode');
    ctx.venue.settings.dualSidePosition = p['posMode'] === 'hedge_mode';
    return { posMode: p['posMode'] };
  },
  // docs: Get Account Bill: newest first, limit at most 100, startTime in ms.
  'GET /api/v2/mix/account/bill': (p, ctx) => {
    if (p['productType'] !== 'USDT-FUTURES') throw bitgetErrors.empty('productType');
    const start = p['startTime'] !== undefined ? Number(p['startTime']) : ctx.now() - 7 * 86_400_000;
    const limit = Math.min(Number(p['limit'] ?? 20), 100);
    const bills = ctx.venue
      .incomeHistory()
      .filter((r) => r.incomeType !== 'REALIZED_PNL' && r.time >= start)
      .filter((r) => p['coin'] === undefined || r.asset === p['coin'])
      .reverse()
      .slice(0, limit)
      .map(bill);
    return { bills, endId: bills.at(-1)?.billId ?? null };
  },
  'GET /api/v2/mix/position/all-position': (p, ctx) => {
    if (p['productType'] !== 'USDT-FUTURES') return [];
    return ctx.venue
      .account()
      .positions.filter((x) => x.qty !== 0)
      .map((x) => position(x, ctx.venue.settings.of(x.symbol).leverage));
  },
  'POST /api/v2/mix/order/place-order': (p, ctx) => {
    const inst = instrumentOf(p);
    productOf(p);
    if (p['marginCoin'] !== 'USDT') throw bitgetErrors.empty('marginCoin');
    if (p['marginMode'] !== 'crossed' && p['marginMode'] !== 'isolated') throw bitgetErrors.params('marginMode');
    // docs: Place Order, tradeSide "only required in hedge-mode": refused in one-way mode.
    if (p['tradeSide'] !== undefined && !ctx.venue.settings.dualSidePosition) throw bitgetErrors.oneWay();
    const id = p['clientOid'];
    if (id !== undefined && (typeof id !== 'string' || !CLIENT_OID.test(id))) throw bitgetErrors.params('clientOid');
    // docs: Error code 40786, a clientOid already used by an order of the account (the fake: an open one).
    if (typeof id === 'string' && ctx.venue.placedUnder(id).some(isOpen)) throw bitgetErrors.duplicate();
    ctx.faults.refuseOrder();
    const placed = ctx.venue.place(parseNewOrder(asBinance(p, inst), inst, ctx.venue.mark(inst)), false, 'expire');
    return { orderId: String(placed.orderId), clientOid: placed.clientOrderId };
  },
  'GET /api/v2/mix/order/detail': (p, ctx) => {
    const inst = instrumentOf(p);
    productOf(p);
    const ref = orderRef(p);
    const found = ctx.faults.forgetLookup() ? undefined : ctx.venue.find(inst.id, ref);
    if (!found) throw bitgetErrors.orderNotFound();
    return order(found, feeOf(found, ctx), 'state');
  },
  'GET /api/v2/mix/order/orders-pending': (p, ctx) => listOrders(p, ctx, isOpen),
  'GET /api/v2/mix/order/orders-history': (p, ctx) => listOrders(p, ctx, (o) => !isOpen(o)),
  'POST /api/v2/mix/order/cancel-order': (p, ctx) => {
    const inst = instrumentOf(p);
    productOf(p);
    const cancelled = ctx.venue.cancel(inst.id, orderRef(p));
    return { orderId: String(cancelled.orderId), clientOid: cancelled.clientOrderId };
  },
  // docs: Batch Cancel Orders: by orderIdList (at most 50), or, without one, every open order of the symbol.
  'POST /api/v2/mix/order/batch-cancel-orders': (p, ctx) => {
    const inst = instrumentOf(p);
    productOf(p);
    const list: Array<{ orderId?: number; clientOrderId?: string }> = Array.isArray(p['orderIdList'])
      ? (p['orderIdList'] as Params[]).map(orderRef)
      : ctx.venue
          .all(inst.id)
          .filter(isOpen)
          .map((o) => ({ orderId: o.orderId }));
    const successList: Array<{ orderId: string; clientOid: string }> = [];
    const failureList: Array<{ orderId: string; clientOid: string; errorMsg: string; errorCode: string }> = [];
    for (const ref of list) {
      try {
        const gone = ctx.venue.cancel(inst.id, ref);
        successList.push({ orderId: String(gone.orderId), clientOid: gone.clientOrderId });
      } catch (err) {
        const e = fromEngine(err);
        failureList.push({
          orderId: String(ref.orderId ?? ''),
          clientOid: ref.clientOrderId ?? '',
          errorMsg: e.message,
          errorCode: String(e.code),
        });
      }
    }
    return { successList, failureList };
  },
  // docs: Get Order Fill Details: newest first, limit at most 100.
  'GET /api/v2/mix/order/fills': (p, ctx) => {
    productOf(p);
    const only = p['symbol'] !== undefined ? instrumentOf(p).id : undefined;
    const num = (name: string) => (p[name] !== undefined ? Number(p[name]) : undefined);
    const [start, end] = [num('startTime'), num('endTime')];
    const limit = Math.min(num('limit') ?? 100, 100);
    const seen = ctx.now() - ctx.venue.tradeHistoryLagMs;
    const fillList = ctx.venue
      .trades(only)
      .filter((t) => t.time <= seen)
      .filter((t) => p['orderId'] === undefined || String(t.orderId) === String(p['orderId']))
      .filter((t) => (start === undefined || t.time >= start) && (end === undefined || t.time <= end))
      .reverse()
      .slice(0, limit)
      .map(fill);
    return { fillList, endId: fillList.at(-1)?.tradeId ?? null };
  },
  ...PLAN_ROUTES,
};

function isOpen(o: OrderRecord): boolean {
  return o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';
}

/** docs: every mix endpoint takes productType; only USDT-FUTURES is served. */
export function productOf(p: Params): void {
  if (p['productType'] === undefined) throw bitgetErrors.empty('productType');
  if (p['productType'] !== 'USDT-FUTURES') throw bitgetErrors.params('productType');
}

function listOrders(p: Params, ctx: DialectContext, keep: (o: OrderRecord) => boolean) {
  productOf(p);
  const only = p['symbol'] !== undefined ? instrumentOf(p).id : undefined;
  const limit = Math.min(Number(p['limit'] ?? 100), 100);
  const list = ctx.venue
    .all(only)
    .filter(keep)
    .sort((a, b) => b.time - a.time || b.orderId - a.orderId)
    .slice(0, limit)
    .map((o) => order(o, feeOf(o, ctx), 'status'));
  // docs: an empty page is `entrustedList: null`.
  return { entrustedList: list.length > 0 ? list : null, endId: list.at(-1)?.orderId ?? null };
}

/** An order's fees so far, as Bitget signs them (negative: paid). */
function feeOf(o: OrderRecord, ctx: DialectContext): number {
  return -ctx.venue
    .trades(o.symbol)
    .filter((t) => t.orderId === o.orderId)
    .reduce((sum, t) => sum + t.commission, 0);
}

function ticker(inst: FakeInstrument, ctx: DialectContext) {
  const book = ctx.venue.book(inst);
  const mark = String(ctx.venue.mark(inst));
  return {
    symbol: inst.id,
    lastPr: mark,
    askPr: String(book.asks[0]?.[0] ?? ''),
    bidPr: String(book.bids[0]?.[0] ?? ''),
    bidSz: String(book.bids[0]?.[1] ?? ''),
    askSz: String(book.asks[0]?.[1] ?? ''),
    high24h: mark,
    low24h: mark,
    ts: String(ctx.now()),
    change24h: '0',
    baseVolume: '1000',
    quoteVolume: '1000',
    usdtVolume: '1000',
    openUtc: mark,
    changeUtc24h: '0',
    indexPrice: mark,
    fundingRate: '0.0001',
    holdingAmount: '0',
    deliveryStartTime: null,
    deliveryTime: null,
    deliveryStatus: '',
    open24h: mark,
    markPrice: mark,
  };
}

/**
 * docs: Get Candlestick Data / Get History Candlestick Data: granularity, startTime, endTime, limit
 * (at most 1 000 / 200); oldest first, each `[ts, open, high, low, close, baseVolume, quoteVolume]`.
 * The fake serves the newest `limit` candles opening in [startTime, endTime) (its reading of the
 * window, an assumption), the one still open included.
 */
function candles(p: Params, ctx: DialectContext, maxLimit: number) {
  const inst = instrumentOf(p);
  productOf(p);
  const minutes = GRANULARITY[String(p['granularity'] ?? '')];
  if (!minutes) throw bitgetErrors.params('granularity');
  const step = minutes * MINUTE;
  const limit = Math.min(Number(p['limit'] ?? 100), maxLimit);
  const t = ctx.now();
  const lastOpen = Math.floor(t / step) * step;
  const end = p['endTime'] !== undefined ? Math.ceil(Number(p['endTime']) / step) * step - step : lastOpen;
  const start = p['startTime'] !== undefined ? Math.ceil(Number(p['startTime']) / step) * step : -Infinity;
  const gaps = ctx.missing[inst.id] ?? [];
  const rows: string[][] = [];
  for (let open = Math.min(end, lastOpen); open >= start && rows.length < limit; open -= step) {
    if (gaps.some(([from, to]) => open >= from && open < to)) continue;
    const c = minutes === 1 ? candleAt(ctx.seed, inst, open) : aggregateCandle(ctx.seed, inst, open, minutes);
    const quote = (c.volume * (c.open + c.close)) / 2;
    rows.push([
      String(open),
      String(c.open),
      String(c.high),
      String(c.low),
      String(c.close),
      String(c.volume),
      quote.toFixed(4),
    ]);
  }
  return rows.reverse();
}

export function instrumentOf(p: Params): FakeInstrument {
  const id = p['symbol'];
  const inst = typeof id === 'string' ? FAKE_INSTRUMENTS.find((i) => i.id === id.toUpperCase()) : undefined;
  if (!inst) throw bitgetErrors.symbol();
  return inst;
}

function orderRef(p: Params): { orderId?: number; clientOrderId?: string } {
  if (p['orderId'] !== undefined && p['orderId'] !== '') return { orderId: Number(p['orderId']) };
  if (typeof p['clientOid'] === 'string' && p['clientOid'] !== '') return { clientOrderId: p['clientOid'] };
  throw bitgetErrors.empty('orderId or clientOid');
}

/** A Bitget place-order request in the engine's (Binance's) terms, so one rule book checks all dialects. */
function asBinance(p: Params, inst: FakeInstrument): URLSearchParams {
  const q = new URLSearchParams();
  q.set('symbol', inst.id);
  if (p['side'] === 'buy' || p['side'] === 'sell') q.set('side', p['side'].toUpperCase());
  const type = String(p['orderType'] ?? '');
  const force = String(p['force'] ?? 'gtc').toLowerCase();
  if (type === 'market') q.set('type', 'MARKET');
  else if (type === 'limit') {
    const tif = { gtc: 'GTC', post_only: 'GTX', ioc: 'IOC', fok: 'FOK' }[force];
    if (!tif) throw bitgetErrors.params('force');
    q.set('type', 'LIMIT');
    q.set('timeInForce', tif);
    if (p['price'] !== undefined) q.set('price', String(p['price']));
  } else throw bitgetErrors.params('orderType');
  if (p['size'] !== undefined) q.set('quantity', String(p['size']));
  if (typeof p['clientOid'] === 'string') q.set('newClientOrderId', p['clientOid']);
  if (p['reduceOnly'] === 'YES') q.set('reduceOnly', 'true');
  return q;
}
