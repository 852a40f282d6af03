/**
 * The /api/v3 paths ccxt 4's `binance` calls for a spot account (ccxt 4.5.84, spot markets only):
 *   loadMarkets → GET /api/v3/exchangeInfo      fetchTime → GET /api/v3/time
 *   fetchBalance → GET /api/v3/account      fetchBidsAsks → GET /api/v3/ticker/bookTicker
 *   createOrder → POST /api/v3/order      fetchOrder → GET /api/v3/order      cancelOrder → DELETE /api/v3/order
 *   fetchOpenOrders → GET /api/v3/openOrders      cancelAllOrders → DELETE /api/v3/openOrders
 *   fetchMyTrades → GET /api/v3/myTrades      fetchOrderBook → GET /api/v3/depth      fetchOHLCV → GET /api/v3/klines
 * Spot rules the engine (../../venue.ts, a futures account) does not have are checked here before it
 * is asked: a buy needs the quote it spends free, a sell the base it sells (no borrowing, no short),
 * and LIMIT_MAKER is the engine's post-only limit.
 */
import type { DialectContext } from '../../dialect.js';
import { errors } from '../../binance-errors.js';
import { FAKE_INSTRUMENTS, instrumentById } from '../../market-data.js';
import type { FakeInstrument } from '../../market-data.js';
import { LIMIT_MAX_QTY, MARKET_MAX_QTY, parseNewOrder, PERCENT_PRICE } from '../../order-rules.js';
import type { NewOrder } from '../../order-rules.js';
import { klines, depth } from '../binanceusdm/public-api.js';
import { spotErrors } from './errors.js';
import { account, balances, myTrade, orderCancelled, orderFull, orderQuery } from './shapes.js';

type Handler = (q: URLSearchParams, ctx: DialectContext) => unknown;

export const PUBLIC: Record<string, Handler> = {
  'GET /api/v3/time': (_q, ctx) => ({ serverTime: ctx.now() }),
  'GET /api/v3/exchangeInfo': (_q, ctx) => exchangeInfo(ctx.now(), ctx.weightLimit),
  'GET /api/v3/depth': (q, ctx) => {
    const { lastUpdateId, bids, asks } = depth(ctx.venue.book(instrument(q)), q, ctx.now());
    return { lastUpdateId, bids, asks };
  },
  'GET /api/v3/klines': (q, ctx) => klines(instrument(q), q, ctx.now(), ctx.seed, ctx.missing, ctx.damaged),
  // docs: Symbol order book ticker: one object for `symbol`, a list for `symbols` (a JSON array) or none.
  'GET /api/v3/ticker/bookTicker': (q, ctx) => {
    const one = (i: FakeInstrument) => {
      const { bids, asks } = ctx.venue.book(i);
      const [bid, ask] = [bids[0]!, asks[0]!];
      const text = (n: number) => n.toFixed(8);
      return {
        symbol: i.id,
        bidPrice: text(bid[0]),
        bidQty: text(bid[1]),
        askPrice: text(ask[0]),
        askQty: text(ask[1]),
      };
    };
    if (q.has('symbol')) return one(instrument(q));
    const ids = q.has('symbols') ? (JSON.parse(q.get('symbols')!) as string[]) : FAKE_INSTRUMENTS.map((i) => i.id);
    return ids.map((id) => one(known(id)));
  },
};

export const PRIVATE: Record<string, Handler> = {
  'GET /api/v3/account': (_q, ctx) => account(ctx.venue),
  'POST /api/v3/order': (q, ctx) => {
    ctx.faults.refuseOrder();
    const inst = instrument(q);
    const spec = spotOrder(q, inst, ctx);
    const placed = ctx.venue.place(spec);
    return orderFull(
      placed,
      ctx.venue.trades(inst.id).filter((t) => t.orderId === placed.orderId),
    );
  },
  'GET /api/v3/order': (q, ctx) => {
    const order = ctx.venue.find(instrument(q).id, orderRef(q));
    if (!order || ctx.faults.forgetLookup()) throw errors.noSuchOrder();
    return orderQuery(order);
  },
  'DELETE /api/v3/order': (q, ctx) => orderCancelled(ctx.venue.cancel(instrument(q).id, orderRef(q))),
  'GET /api/v3/openOrders': (q, ctx) => ctx.venue.open(q.has('symbol') ? instrument(q).id : undefined).map(orderQuery),
  // docs: Cancel all open orders on a symbol: the orders cancelled; with none open, -2011 "Unknown order sent."
  'DELETE /api/v3/openOrders': (q, ctx) => {
    const symbol = instrument(q).id;
    if (ctx.venue.open(symbol).length === 0) throw spotErrors.unknownOrder();
    return ctx.venue.cancelAll(symbol).map(orderCancelled);
  },
  'GET /api/v3/myTrades': (q, ctx) => {
    const symbol = instrument(q).id;
    const orderId = q.has('orderId') ? Number(q.get('orderId')) : undefined;
    const limit = Math.min(Number(q.get('limit') ?? 500), 1000);
    const seen = ctx.now() - ctx.venue.tradeHistoryLagMs;
    return ctx.venue
      .trades(symbol)
      .filter((t) => t.time <= seen && (orderId === undefined || t.orderId === orderId))
      .slice(-limit)
      .map(myTrade);
  },
};

/**
 * A new spot order as the engine's: LIMIT_MAKER is its post-only limit (GTX); no reduce-only on
 * spot; then what the account must have free, as Binance checks it (-2010 insufficient balance).
 */
function spotOrder(q: URLSearchParams, inst: FakeInstrument, ctx: DialectContext): NewOrder {
  const engine = new URLSearchParams(q);
  if (q.get('type') === 'LIMIT_MAKER') {
    if (q.has('timeInForce')) throw errors.notRequired('timeInForce');
    engine.set('type', 'LIMIT');
    engine.set('timeInForce', 'GTX');
  }
  if (q.has('reduceOnly')) throw errors.notRequired('reduceOnly');
  const clientId = q.get('newClientOrderId');
  if (clientId !== null && !/^[a-zA-Z0-9_-]{1,36}$/.test(clientId)) throw spotErrors.illegalChars();
  const mark = ctx.venue.mark(inst);
  const spec = parseNewOrder(engine, inst, mark);
  const free = new Map(balances(ctx.venue).map((b) => [b.asset, b.free]));
  // A market buy is priced at the best ask's side of the mark with PERCENT_PRICE's room, as Binance reserves it.
  const spends = spec.side === 'BUY' ? spec.qty * (spec.price ?? mark * PERCENT_PRICE.up) : spec.qty;
  const asset = spec.side === 'BUY' ? 'USDT' : inst.base;
  if (spends > (free.get(asset) ?? 0) + 1e-9) throw spotErrors.insufficientBalance();
  return spec;
}

function orderRef(q: URLSearchParams): { orderId?: number; clientOrderId?: string } {
  if (q.get('orderId')) return { orderId: Number(q.get('orderId')) };
  if (q.get('origClientOrderId')) return { clientOrderId: q.get('origClientOrderId')! };
  throw errors.eitherOf('orderId', 'origClientOrderId');
}

function instrument(q: URLSearchParams): FakeInstrument {
  const id = q.get('symbol');
  if (!id) throw errors.mandatory('symbol');
  return known(id);
}

function known(id: string): FakeInstrument {
  const inst = instrumentById(id);
  if (!inst) throw errors.invalidSymbol();
  return inst;
}

/** GET /api/v3/exchangeInfo: the fake's instruments as spot pairs against USDT, with spot's filters. */
function exchangeInfo(t: number, weightLimit: number) {
  return {
    timezone: 'UTC',
    serverTime: t,
    rateLimits: [
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: weightLimit },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100 },
      { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 200000 },
    ],
    exchangeFilters: [],
    symbols: FAKE_INSTRUMENTS.map((i) => ({
      symbol: i.id,
      status: 'TRADING',
      baseAsset: i.base,
      baseAssetPrecision: 8,
      quoteAsset: 'USDT',
      quotePrecision: 8,
      quoteAssetPrecision: 8,
      baseCommissionPrecision: 8,
      quoteCommissionPrecision: 8,
      orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT'],
      icebergAllowed: true,
      ocoAllowed: true,
      otoAllowed: true,
      quoteOrderQtyMarketAllowed: true,
      allowTrailingStop: true,
      cancelReplaceAllowed: true,
      isSpotTradingAllowed: true,
      isMarginTradingAllowed: false,
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: i.tickSize, maxPrice: '1000000.00000000', tickSize: i.tickSize },
        { filterType: 'LOT_SIZE', minQty: i.stepSize, maxQty: String(LIMIT_MAX_QTY), stepSize: i.stepSize },
        { filterType: 'MARKET_LOT_SIZE', minQty: '0', maxQty: String(MARKET_MAX_QTY), stepSize: '0' },
        {
          filterType: 'NOTIONAL',
          minNotional: i.minNotional,
          applyMinToMarket: true,
          maxNotional: '9000000.00000000',
          applyMaxToMarket: false,
          avgPriceMins: 5,
        },
        {
          filterType: 'PERCENT_PRICE_BY_SIDE',
          bidMultiplierUp: PERCENT_PRICE.up.toFixed(2),
          bidMultiplierDown: PERCENT_PRICE.down.toFixed(2),
          askMultiplierUp: PERCENT_PRICE.up.toFixed(2),
          askMultiplierDown: PERCENT_PRICE.down.toFixed(2),
          avgPriceMins: 1,
        },
        { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
      ],
      permissions: [],
      permissionSets: [['SPOT']],
      defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
      allowedSelfTradePreventionModes: ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'],
    })),
  };
}
