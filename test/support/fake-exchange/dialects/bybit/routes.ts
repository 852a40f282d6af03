/**
 * The Bybit v5 endpoints the fake serves for USDT linear perpetuals (category=linear), each reading
 * Bybit's parameters and answering Bybit's `result` (./shapes.ts) over the shared engine. Which ccxt
 * 4.5.84 `bybit` method calls which (with options fetchMarkets.types=['linear'], a unified account):
 *   loadMarkets → GET /v5/market/time (adjustForTimeDifference), /v5/market/instruments-info twice
 *     (the second with status=PreLaunch), /v5/asset/coin/query-info (fetchCurrencies, with keys)
 *   fetchOrderBook → /v5/market/orderbook    fetchOHLCV → /v5/market/kline    fetchTicker → /v5/market/tickers
 *   fetchFundingRateHistory → /v5/market/funding/history
 *   fetchBalance → /v5/account/wallet-balance    fetchPositions → /v5/position/list
 *   createOrder → POST /v5/order/create    fetchOrder / fetchOpenOrders → /v5/order/realtime
 *   fetchClosedOrders → /v5/order/history    cancelOrder → POST /v5/order/cancel
 *   cancelAllOrders → POST /v5/order/cancel-all    fetchMyTrades → /v5/execution/list
 *   setLeverage → POST /v5/position/set-leverage    setPositionMode → POST /v5/position/switch-mode
 */
import type { DialectContext } from '../../dialect.js';
import {
  aggregateCandle,
  candleAt,
  FAKE_INSTRUMENTS,
  FUNDING_INTERVAL,
  fundingAt,
  instrumentById,
  MINUTE,
} from '../../market-data.js';
import type { FakeInstrument } from '../../market-data.js';
import { parseNewOrder } from '../../order-rules.js';
import type { OrderRecord } from '../../venue.js';
import { findConditional, conditionalShape, placeConditional } from './conditional.js';
import { bybitErrors } from './errors.js';
import { execution, instrumentInfo, order, position, transaction, walletBalance } from './shapes.js';

type Params = Record<string, unknown>;
type Handler = (p: Params, ctx: DialectContext) => unknown;

/** Bybit's kline intervals (Bybit v5 docs, Get Kline) in minutes. */
const INTERVALS: Record<string, number> = {
  '1': 1,
  '3': 3,
  '5': 5,
  '15': 15,
  '30': 30,
  '60': 60,
  '120': 120,
  '240': 240,
  '360': 360,
  '720': 720,
  D: 1440,
};

/** Bybit v5 docs, Place Order: orderLinkId "max 36 characters … numbers, letters (upper and lower cases), dashes, and underscores". */
const ORDER_LINK_ID = /^[A-Za-z0-9_-]{1,36}$/;

export const PUBLIC: Record<string, Handler> = {
  'GET /v5/market/time': (_p, ctx) => {
    const t = ctx.now();
    return { timeSecond: String(Math.floor(t / 1000)), timeNano: `${t}000000` };
  },
  'GET /v5/market/instruments-info': (p) => {
    // A client without the profile's options (the public feed) asks spot, inverse and option too:
    // this fake lists no markets there.
    const list = p['category'] !== 'linear' || p['status'] === 'PreLaunch' ? [] : FAKE_INSTRUMENTS.map(instrumentInfo);
    return { category: p['category'], list, nextPageCursor: '' };
  },
  'GET /v5/market/orderbook': (p, ctx) => {
    linear(p);
    const inst = instrument(p);
    // Bybit v5 docs, Get Orderbook: linear limit [1, 500], default 25.
    const limit = p['limit'] === undefined ? 25 : Number(p['limit']);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw bybitErrors.params('limit');
    const book = ctx.venue.book(inst);
    const side = (levels: [number, number][]) => levels.slice(0, limit).map(([px, qty]) => [String(px), String(qty)]);
    const t = ctx.now();
    return { s: inst.id, b: side(book.bids), a: side(book.asks), ts: t, u: Math.floor(t / 100), seq: t, cts: t };
  },
  'GET /v5/market/kline': (p, ctx) => {
    linear(p);
    const inst = instrument(p);
    const minutes = INTERVALS[String(p['interval'])];
    if (!minutes) throw bybitErrors.params('interval');
    const step = minutes * MINUTE;
    // Bybit v5 docs, Get Kline: limit [1, 1000], default 200; the newest first.
    const limit = Math.min(Number(p['limit'] ?? 200), 1000);
    const t = ctx.now();
    const lastOpen = Math.floor(t / step) * step;
    const end = Math.floor(Math.min(p['end'] !== undefined ? Number(p['end']) : lastOpen, lastOpen) / step) * step;
    const startAt = p['start'] !== undefined ? Math.ceil(Number(p['start']) / step) * step : -Infinity;
    const gaps = ctx.missing[inst.id] ?? [];
    const list: string[][] = [];
    for (let open = end; open >= startAt && list.length < limit; open -= step) {
      if (gaps.some(([from, to]) => open >= from && open < to)) continue;
      const c = minutes === 1 ? candleAt(ctx.seed, inst, open) : aggregateCandle(ctx.seed, inst, open, minutes);
      const turnover = (c.volume * (c.open + c.close)) / 2;
      list.push([
        String(open),
        String(c.open),
        String(c.high),
        String(c.low),
        String(c.close),
        String(c.volume),
        turnover.toFixed(4),
      ]);
    }
    return { category: 'linear', symbol: inst.id, list };
  },
  // Bybit v5 docs, Get Funding Rate History: limit [1, 200], default 200; settlements with
  // fundingRateTimestamp in [startTime, endTime], the newest first; startTime alone is refused.
  'GET /v5/market/funding/history': (p, ctx) => {
    linear(p);
    const inst = instrument(p);
    const limit = Number(p['limit'] ?? 200);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw bybitErrors.params('limit');
    if (p['startTime'] !== undefined && p['endTime'] === undefined) throw bybitErrors.params('endTime');
    const t = ctx.now();
    const end = Math.floor(Math.min(p['endTime'] !== undefined ? Number(p['endTime']) : t, t) / FUNDING_INTERVAL);
    const startAt = p['startTime'] !== undefined ? Number(p['startTime']) : -Infinity;
    const list: Array<Record<string, string>> = [];
    for (let at = end * FUNDING_INTERVAL; at >= startAt && list.length < limit; at -= FUNDING_INTERVAL)
      list.push({
        symbol: inst.id,
        fundingRate: fundingAt(ctx.seed, inst, at).toFixed(8),
        fundingRateTimestamp: String(at),
      });
    return { category: 'linear', list };
  },
  'GET /v5/market/tickers': (p, ctx) => {
    linear(p);
    const insts = p['symbol'] !== undefined ? [instrument(p)] : FAKE_INSTRUMENTS;
    const list = insts.map((inst) => {
      const book = ctx.venue.book(inst);
      const mark = ctx.venue.mark(inst);
      return {
        symbol: inst.id,
        lastPrice: String(mark),
        indexPrice: String(mark),
        markPrice: String(mark),
        prevPrice24h: String(mark),
        price24hPcnt: '0',
        highPrice24h: String(mark),
        lowPrice24h: String(mark),
        prevPrice1h: String(mark),
        openInterest: '1000',
        openInterestValue: String(1000 * mark),
        turnover24h: String(1000 * mark),
        volume24h: '1000',
        fundingRate: '0.0001',
        nextFundingTime: String((Math.floor(ctx.now() / 28_800_000) + 1) * 28_800_000),
        predictedDeliveryPrice: '',
        basisRate: '',
        deliveryFeeRate: '',
        deliveryTime: '0',
        ask1Size: String(book.asks[0]?.[1] ?? 0),
        bid1Price: String(book.bids[0]?.[0] ?? ''),
        ask1Price: String(book.asks[0]?.[0] ?? ''),
        bid1Size: String(book.bids[0]?.[1] ?? 0),
        basis: '',
      };
    });
    return { category: 'linear', list };
  },
};

export const PRIVATE: Record<string, Handler> = {
  // fetchCurrencies with keys; the fake lists no coins (ccxt then knows USDT from the markets).
  'GET /v5/asset/coin/query-info': () => ({ rows: [] }),
  'GET /v5/account/wallet-balance': (p, ctx) => {
    if (p['accountType'] !== 'UNIFIED') throw bybitErrors.params('accountType only support UNIFIED');
    return walletBalance(ctx.venue.account());
  },
  'GET /v5/position/list': (p, ctx) => {
    linear(p);
    if (p['symbol'] === undefined && p['settleCoin'] === undefined) throw bybitErrors.params('symbol or settleCoin');
    const only = p['symbol'] !== undefined ? instrument(p).id : undefined;
    const held = ctx.venue.account().positions.filter((x) => only === undefined || x.symbol === only);
    // Bybit lists a symbol asked for by name even when flat (size 0); by settleCoin only the held ones.
    if (only !== undefined && held.length === 0) {
      const inst = instrument(p);
      const flat = {
        ...ctx.venue.ledger.position(inst.id),
        mark: ctx.venue.mark(inst),
        unrealized: 0,
        notional: 0,
        margin: 0,
      };
      return { category: 'linear', list: [position(flat, ctx.venue.settings.of(inst.id))], nextPageCursor: '' };
    }
    return {
      category: 'linear',
      list: held.map((x) => position(x, ctx.venue.settings.of(x.symbol))),
      nextPageCursor: '',
    };
  },
  'POST /v5/order/create': (p, ctx) => {
    linear(p);
    const inst = instrument(p);
    const link = p['orderLinkId'];
    if (link !== undefined) {
      if (typeof link !== 'string' || !ORDER_LINK_ID.test(link)) throw bybitErrors.params('orderLinkId');
      // Bybit: an orderLinkId is unique for the account, whatever became of the order that had it.
      if (ctx.venue.placedUnder(link).length > 0 || findConditional(ctx, inst.id, undefined, link))
        throw bybitErrors.duplicate();
    }
    if (p['triggerPrice'] !== undefined) {
      const stop = placeConditional(p, ctx, inst);
      return { orderId: String(stop.algoId), orderLinkId: stop.clientAlgoId };
    }
    ctx.faults.refuseOrder();
    const placed = ctx.venue.place(parseNewOrder(asBinance(p), inst, ctx.venue.mark(inst)), false, 'expire');
    return { orderId: String(placed.orderId), orderLinkId: placed.clientOrderId };
  },
  'GET /v5/order/realtime': (p, ctx) => {
    linear(p);
    if (p['orderFilter'] === 'StopOrder') return { category: 'linear', list: conditionals(p, ctx), nextPageCursor: '' };
    return { category: 'linear', list: selectOrders(p, ctx, 'realtime').map(order), nextPageCursor: '' };
  },
  'GET /v5/order/history': (p, ctx) => {
    linear(p);
    return { category: 'linear', list: selectOrders(p, ctx, 'history').map(order), nextPageCursor: '' };
  },
  'POST /v5/order/cancel': (p, ctx) => {
    linear(p);
    const inst = instrument(p);
    const by = ref(p);
    const stop = findConditional(ctx, inst.id, by.orderId?.toString(), by.clientOrderId);
    if (stop) {
      const gone = ctx.venue.algo.cancel(inst.id, { algoId: stop.algoId }, ctx.now());
      return { orderId: String(gone.algoId), orderLinkId: gone.clientAlgoId };
    }
    const cancelled = ctx.venue.cancel(inst.id, ref(p));
    return { orderId: String(cancelled.orderId), orderLinkId: cancelled.clientOrderId };
  },
  'POST /v5/order/cancel-all': (p, ctx) => {
    linear(p);
    const symbols = p['symbol'] !== undefined ? [instrument(p).id] : FAKE_INSTRUMENTS.map((i) => i.id);
    const list = symbols
      .flatMap((s) => ctx.venue.cancelAll(s))
      .map((o) => ({ orderId: String(o.orderId), orderLinkId: o.clientOrderId }));
    return { list, success: '1' };
  },
  // docs: Set Disconnect Cancel All: timeWindow [3, 300] s, product OPTIONS (default) / DERIVATIVES /
  // SPOT; the window for DERIVATIVES is the one the fake's private socket applies (./private-socket.ts).
  'POST /v5/order/disconnected-cancel-all': (p, ctx) => {
    const seconds = Number(p['timeWindow']);
    if (!Number.isInteger(seconds) || seconds < 3 || seconds > 300) throw bybitErrors.params('timeWindow');
    if ((p['product'] ?? 'OPTIONS') === 'DERIVATIVES') ctx.privateSocket?.setDisconnectWindow(seconds * 1000);
    return {};
  },
  'GET /v5/execution/list': (p, ctx) => {
    linear(p);
    const only = p['symbol'] !== undefined ? instrument(p).id : undefined;
    const num = (name: string) => (p[name] !== undefined ? Number(p[name]) : undefined);
    const [start, end] = [num('startTime'), num('endTime')];
    // Bybit v5 docs, Get Trade History: limit [1, 100], default 50; the newest first.
    const limit = Math.min(num('limit') ?? 50, 100);
    const seen = ctx.now() - ctx.venue.tradeHistoryLagMs;
    const orders = new Map<number, OrderRecord>();
    // A triggered conditional order's fills are its book order's, under the conditional's id.
    const stop =
      only !== undefined && p['orderId'] !== undefined ? findConditional(ctx, only, String(p['orderId'])) : undefined;
    const wantedId =
      stop?.actualOrderId !== undefined && stop.actualOrderId !== null ? String(stop.actualOrderId) : p['orderId'];
    const rows = ctx.venue
      .trades(only)
      .filter((t) => t.time <= seen)
      .filter((t) => wantedId === undefined || String(t.orderId) === wantedId)
      .filter((t) => (start === undefined || t.time >= start) && (end === undefined || t.time <= end))
      .reverse()
      .slice(0, limit);
    const list = rows.map((t) => {
      if (!orders.has(t.orderId)) {
        const o = ctx.venue.find(t.symbol, { orderId: t.orderId });
        if (o) orders.set(t.orderId, o);
      }
      const row = execution(t, orders.get(t.orderId), ctx.venue.instrument(t.symbol));
      return stop ? { ...row, orderId: String(stop.algoId), orderLinkId: stop.clientAlgoId } : row;
    });
    return { category: 'linear', list, nextPageCursor: '' };
  },
  // docs: Get Account Info; the fake's account margins across (REGULAR_MARGIN), DCP off.
  'GET /v5/account/info': () => ({
    marginMode: 'REGULAR_MARGIN',
    updatedTime: '0',
    unifiedMarginStatus: 4,
    dcpStatus: 'OFF',
    timeWindow: 10,
    smpGroup: 0,
    isMasterTrader: false,
    spotHedgingStatus: 'OFF',
  }),
  // docs: Get Transaction Log (UNIFIED): the engine's fees as TRADE lines, its funding as SETTLEMENT
  // lines (fee and funding positive when paid), newest first, limit [1, 50] default 20.
  'GET /v5/account/transaction-log': (p, ctx) => {
    if (p['accountType'] !== undefined && p['accountType'] !== 'UNIFIED') throw bybitErrors.params('accountType');
    const start = p['startTime'] !== undefined ? Number(p['startTime']) : ctx.now() - 7 * 86_400_000;
    const limit = Math.min(Number(p['limit'] ?? 20), 50);
    // Every line of the fake is a linear one.
    if (p['category'] !== undefined && p['category'] !== 'linear') return { list: [], nextPageCursor: '' };
    const list = ctx.venue
      .incomeHistory()
      .filter((r) => r.incomeType !== 'REALIZED_PNL' && r.time >= start)
      .reverse()
      .slice(0, limit)
      .map(transaction);
    return { list, nextPageCursor: '' };
  },
  'POST /v5/position/set-leverage': (p, ctx) => {
    linear(p);
    const symbol = instrument(p).id;
    const leverage = Number(p['buyLeverage']);
    if (String(p['buyLeverage']) !== String(p['sellLeverage']))
      throw bybitErrors.params('buyLeverage must equal sellLeverage in one-way mode');
    if (ctx.venue.settings.of(symbol).leverage === leverage) throw bybitErrors.leverageNotModified();
    ctx.venue.settings.changeLeverage(symbol, leverage);
    return {};
  },
  'POST /v5/position/switch-mode': (p, ctx) => {
    linear(p);
    const hedge = Number(p['mode']) === 3;
    if (ctx.venue.settings.dualSidePosition === hedge) throw bybitErrors.positionModeNotModified();
    ctx.venue.settings.dualSidePosition = hedge;
    return {};
  },
};

/** /v5/order/realtime?orderFilter=StopOrder: by id or orderLinkId whatever its status, else the untriggered ones. */
function conditionals(p: Params, ctx: DialectContext) {
  const only = p['symbol'] !== undefined ? instrument(p).id : undefined;
  const id = p['orderId'] !== undefined && p['orderId'] !== '' ? String(p['orderId']) : undefined;
  const link = typeof p['orderLinkId'] === 'string' && p['orderLinkId'] !== '' ? p['orderLinkId'] : undefined;
  if ((id !== undefined || link !== undefined) && only !== undefined) {
    const found = findConditional(ctx, only, id, link);
    return found ? [conditionalShape(found, ctx)] : [];
  }
  return ctx.venue.algo.open(only).map((a) => conditionalShape(a, ctx));
}

/** This fake speaks the linear category only. */
function linear(p: Params): void {
  if (p['category'] !== 'linear') throw bybitErrors.params('category only support linear in this fake');
}

function instrument(p: Params): FakeInstrument {
  const inst = typeof p['symbol'] === 'string' ? instrumentById(p['symbol']) : undefined;
  if (!inst) throw bybitErrors.params('symbol invalid');
  return inst;
}

function ref(p: Params): { orderId?: number; clientOrderId?: string } {
  if (p['orderId'] !== undefined && p['orderId'] !== '') return { orderId: Number(p['orderId']) };
  if (typeof p['orderLinkId'] === 'string' && p['orderLinkId'] !== '') return { clientOrderId: p['orderLinkId'] };
  throw bybitErrors.params('orderId or orderLinkId is required');
}

/**
 * /v5/order/realtime: by orderId or orderLinkId, the order whatever its status (Bybit keeps closed
 * ones there for a while); otherwise openOnly=0 (the default) lists open orders, 1 the closed ones.
 * /v5/order/history: the closed ones. Newest first.
 */
function selectOrders(p: Params, ctx: DialectContext, endpoint: 'realtime' | 'history'): OrderRecord[] {
  const only = p['symbol'] !== undefined ? instrument(p).id : undefined;
  const all = ctx.venue.all(only);
  const open = (o: OrderRecord) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';
  let list: OrderRecord[];
  // An empty orderId is no orderId (ccxt sends `orderId=` when it looks an order up by orderLinkId).
  const id = p['orderId'] !== undefined && p['orderId'] !== '' ? String(p['orderId']) : undefined;
  const link = typeof p['orderLinkId'] === 'string' && p['orderLinkId'] !== '' ? p['orderLinkId'] : undefined;
  if (id !== undefined || link !== undefined) {
    list = all.filter(
      (o) => (id === undefined || String(o.orderId) === id) && (link === undefined || o.clientOrderId === link),
    );
    if (ctx.faults.forgetLookup()) list = [];
  } else if (endpoint === 'realtime' && Number(p['openOnly'] ?? 0) === 0) list = all.filter(open);
  else list = all.filter((o) => !open(o));
  const limit = Math.min(Number(p['limit'] ?? 20), 50);
  return list.sort((a, b) => b.time - a.time || b.orderId - a.orderId).slice(0, limit);
}

/** A Bybit create-order request in the engine's (Binance's) terms, so one rule book checks both. */
function asBinance(p: Params): URLSearchParams {
  const q = new URLSearchParams();
  q.set('symbol', String(p['symbol']));
  if (p['side'] === 'Buy' || p['side'] === 'Sell') q.set('side', p['side'].toUpperCase());
  if (p['orderType'] === 'Market' || p['orderType'] === 'Limit') q.set('type', p['orderType'].toUpperCase());
  else if (p['orderType'] !== undefined) q.set('type', String(p['orderType']));
  if (p['qty'] !== undefined) q.set('quantity', String(p['qty']));
  if (p['orderType'] === 'Limit') {
    if (p['price'] !== undefined) q.set('price', String(p['price']));
    const tif = String(p['timeInForce'] ?? 'GTC');
    q.set('timeInForce', tif === 'PostOnly' ? 'GTX' : tif);
  }
  if (typeof p['orderLinkId'] === 'string') q.set('newClientOrderId', p['orderLinkId']);
  if (p['reduceOnly'] === true || p['reduceOnly'] === 'true') q.set('reduceOnly', 'true');
  return q;
}
