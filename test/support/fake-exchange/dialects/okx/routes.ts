/**
 * The OKX v5 endpoints the fake serves for USDT-margined swaps (instType SWAP), each reading OKX's
 * parameters and answering OKX's `data` (./shapes.ts) over the shared engine. Which ccxt 4.5.84 `okx`
 * method calls which (with the OKX profile's options: swap markets only, one order per request):
 *   loadMarkets → GET /api/v5/public/time (adjustForTimeDifference), /api/v5/public/instruments
 *     ?instType=SWAP, /api/v5/asset/currencies (fetchCurrencies, with keys, off in demo mode)
 *   fetchOrderBook → /api/v5/market/books    fetchOHLCV → /api/v5/market/candles (history-candles for old ones)
 *   fetchTicker(s) → /api/v5/market/ticker(s)    fetchFundingRate → /api/v5/public/funding-rate
 *   fetchBalance → /api/v5/account/balance
 *   fetchPositions → /api/v5/account/positions    createOrder → POST /api/v5/trade/order
 *   fetchOrder → /api/v5/trade/order    fetchOpenOrders → /api/v5/trade/orders-pending
 *   fetchClosedOrders → /api/v5/trade/orders-history    cancelOrder → POST /api/v5/trade/cancel-order
 *   cancelOrders → POST /api/v5/trade/cancel-batch-orders    fetchMyTrades → /api/v5/trade/fills-history
 *   setLeverage → POST /api/v5/account/set-leverage    setPositionMode → POST /api/v5/account/set-position-mode
 *   stops (trigger: true) → POST /api/v5/trade/order-algo, GET /api/v5/trade/order-algo,
 *     /api/v5/trade/orders-algo-pending, POST /api/v5/trade/cancel-algos (./algo.ts)
 */
import type { DialectContext } from '../../dialect.js';
import { aggregateCandle, candleAt, FAKE_INSTRUMENTS, FUNDING_INTERVAL, fundingAt, MINUTE } from '../../market-data.js';
import type { FakeInstrument } from '../../market-data.js';
import { parseNewOrder } from '../../order-rules.js';
import type { OrderRecord } from '../../venue.js';
import { ALGO_ROUTES } from './algo.js';
import { ofOrder, okxErrors } from './errors.js';
import { balance, baseOfSz, bill, fill, instIdOf, instrument, order, position, szOf } from './shapes.js';

type Params = Record<string, unknown>;
export type Handler = (p: Params, ctx: DialectContext) => unknown;

/** OKX's candle bars (OKX v5 docs, Get candlesticks) in minutes; `utc` bars are the same in this fake. */
const BARS: Record<string, number> = {
  '1m': 1,
  '3m': 3,
  '5m': 5,
  '15m': 15,
  '30m': 30,
  '1H': 60,
  '2H': 120,
  '4H': 240,
  '6H': 360,
  '12H': 720,
  '1D': 1440,
};

/** OKX v5 docs, Place order: clOrdId "a combination of case-sensitive alphanumerics, all numbers, or all letters of up to 32 characters". */
const CL_ORD_ID = /^[A-Za-z0-9]{1,32}$/;

export const PUBLIC: Record<string, Handler> = {
  'GET /api/v5/public/time': (_p, ctx) => [{ ts: String(ctx.now()) }],
  // A client without the profile's options (the public feed) asks spot, futures and options too: none here.
  'GET /api/v5/public/instruments': (p) => (p['instType'] === 'SWAP' ? FAKE_INSTRUMENTS.map(instrument) : []),
  'GET /api/v5/market/books': (p, ctx) => {
    const inst = instrumentOf(p);
    // OKX v5 docs, Get order book: sz 1–400, default 1.
    const sz = p['sz'] === undefined ? 1 : Number(p['sz']);
    if (!Number.isInteger(sz) || sz < 1 || sz > 400) throw okxErrors.params('sz');
    const book = ctx.venue.book(inst);
    const side = (levels: [number, number][]) =>
      levels.slice(0, sz).map(([px, qty]) => [String(px), szOf(qty, inst), '0', '1']);
    return [{ asks: side(book.asks), bids: side(book.bids), ts: String(ctx.now()) }];
  },
  'GET /api/v5/market/candles': (p, ctx) => candles(p, ctx, 300),
  'GET /api/v5/market/history-candles': (p, ctx) => candles(p, ctx, 100),
  'GET /api/v5/market/ticker': (p, ctx) => [ticker(instrumentOf(p), ctx)],
  // OKX v5 docs, Get funding rate: the current period's rate, settled every 8 h at fundingTime.
  'GET /api/v5/public/funding-rate': (p, ctx) => {
    const inst = instrumentOf(p);
    const next = (Math.floor(ctx.now() / FUNDING_INTERVAL) + 1) * FUNDING_INTERVAL;
    const rate = String(fundingAt(ctx.seed, inst, next));
    return [
      {
        instType: 'SWAP',
        instId: instIdOf(inst),
        method: 'current_period',
        formulaType: 'withRate',
        fundingRate: rate,
        nextFundingRate: '',
        fundingTime: String(next),
        nextFundingTime: String(next + FUNDING_INTERVAL),
        minFundingRate: '-0.00375',
        maxFundingRate: '0.00375',
        interestRate: '0.0001',
        impactValue: '20000',
        premium: '0',
        settState: 'settled',
        settFundingRate: rate,
        sodUtc0: '',
        ts: String(ctx.now()),
      },
    ];
  },
  // OKX v5 docs, Get funding rate history: settled rates newest first, at most 100 (default 100);
  // `before` returns records newer than its fundingTime, `after` older. With `before` alone the newest
  // page comes (the fake's reading of OKX's cursor pagination, marked as an assumption), so a client
  // that wants an old window must bound it with `after` as well.
  'GET /api/v5/public/funding-rate-history': (p, ctx) => {
    const inst = instrumentOf(p);
    const limit = Math.min(Number(p['limit'] ?? 100), 100);
    if (!Number.isInteger(limit) || limit < 1) throw okxErrors.params('limit');
    const newerThan = p['before'] === undefined ? -Infinity : Number(p['before']);
    const lastSettled = Math.floor(ctx.now() / FUNDING_INTERVAL) * FUNDING_INTERVAL;
    const olderThan = p['after'] === undefined ? Infinity : Number(p['after']);
    const rows = [];
    for (
      let t = Math.min(lastSettled, Math.ceil(olderThan / FUNDING_INTERVAL) * FUNDING_INTERVAL - FUNDING_INTERVAL);
      t > newerThan && rows.length < limit;
      t -= FUNDING_INTERVAL
    ) {
      if (t >= olderThan) continue;
      const rate = String(fundingAt(ctx.seed, inst, t));
      rows.push({
        instType: 'SWAP',
        instId: instIdOf(inst),
        formulaType: 'withRate',
        fundingRate: rate,
        realizedRate: rate,
        fundingTime: String(t),
        method: 'current_period',
      });
    }
    return rows;
  },
  'GET /api/v5/market/tickers': (p, ctx) =>
    p['instType'] === 'SWAP' ? FAKE_INSTRUMENTS.map((i) => ticker(i, ctx)) : [],
};

export const PRIVATE: Record<string, Handler> = {
  // fetchCurrencies with keys outside demo mode; the fake lists no currencies (ccxt knows USDT from the markets).
  'GET /api/v5/asset/currencies': () => [],
  'GET /api/v5/account/balance': (_p, ctx) => balance(ctx.venue.account(), ctx.now()),
  'GET /api/v5/account/positions': (p, ctx) => {
    if (p['instType'] !== undefined && p['instType'] !== 'SWAP') return [];
    // OKX v5 docs, Get positions: instId, one or several (at most 10) separated by commas; only held positions are listed.
    const wanted =
      typeof p['instId'] === 'string' && p['instId'] !== ''
        ? p['instId'].split(',').map((id) => instrumentOf({ instId: id }).id)
        : undefined;
    return ctx.venue
      .account()
      .positions.filter((x) => x.qty !== 0 && (wanted === undefined || wanted.includes(x.symbol)))
      .map((x) => position(x, ctx.venue.instrument(x.symbol), ctx.venue.settings.of(x.symbol).leverage));
  },
  // OKX v5 docs, Get account configuration: net mode, futures (single-currency margin) mode.
  'GET /api/v5/account/config': (_p, ctx) => [
    {
      uid: '44705892343619584',
      mainUid: '44705892343619584',
      acctLv: '2',
      posMode: ctx.venue.settings.dualSidePosition ? 'long_short_mode' : 'net_mode',
      autoLoan: false,
      greeksType: 'PA',
      level: 'Lv1',
      levelTmp: '',
      ctIsoMode: 'automatic',
      mgnIsoMode: 'automatic',
      spotOffsetType: '',
      roleType: '0',
      traderInsts: [],
      spotRoleType: '0',
      spotTraderInsts: [],
      opAuth: '0',
      kycLv: '2',
      label: 'tcs fake',
      ip: '',
      perm: 'read_only,trade',
      liquidationGear: '-1',
      enableSpotBorrow: false,
      spotBorrowAutoRepay: false,
      type: '0',
    },
  ],
  'GET /api/v5/account/leverage-info': (p, ctx) => {
    const inst = instrumentOf(p);
    if (p['mgnMode'] !== 'cross' && p['mgnMode'] !== 'isolated') throw okxErrors.empty('mgnMode');
    return [
      {
        instId: instIdOf(inst),
        mgnMode: p['mgnMode'],
        posSide: 'net',
        lever: String(ctx.venue.settings.of(inst.id).leverage),
      },
    ];
  },
  'POST /api/v5/account/set-leverage': (p, ctx) => {
    const inst = instrumentOf(p);
    const lever = Number(p['lever']);
    if (!Number.isFinite(lever) || lever < 1) throw okxErrors.params('lever');
    ctx.venue.settings.changeLeverage(inst.id, lever);
    return [{ lever: String(lever), mgnMode: p['mgnMode'], instId: instIdOf(inst), posSide: 'net' }];
  },
  'POST /api/v5/account/set-position-mode': (p, ctx) => {
    if (p['posMode'] !== 'net_mode' && p['posMode'] !== 'long_short_mode') throw okxErrors.params('posMode');
    ctx.venue.settings.dualSidePosition = p['posMode'] === 'long_short_mode';
    return [{ posMode: p['posMode'] }];
  },
  // OKX v5 docs, Get bills details (last 7 days): newest first, limit at most 100; `begin` in ms.
  'GET /api/v5/account/bills': (p, ctx) => {
    if (p['instType'] !== undefined && p['instType'] !== 'SWAP') return [];
    const begin = p['begin'] !== undefined ? Number(p['begin']) : ctx.now() - 7 * 86_400_000;
    const limit = Math.min(Number(p['limit'] ?? 100), 100);
    return ctx.venue
      .incomeHistory()
      .filter((r) => r.incomeType !== 'REALIZED_PNL' && r.time >= begin)
      .filter((r) => p['ccy'] === undefined || r.asset === p['ccy'])
      .reverse()
      .slice(0, limit)
      .map((r) =>
        bill(
          r,
          FAKE_INSTRUMENTS.find((i) => i.id === r.symbol),
        ),
      );
  },
  'POST /api/v5/trade/order': (p, ctx) => {
    try {
      const inst = instrumentOf(p);
      if (p['tdMode'] !== 'cross' && p['tdMode'] !== 'isolated') throw okxErrors.params('tdMode');
      const id = p['clOrdId'];
      if (id !== undefined && (typeof id !== 'string' || !CL_ORD_ID.test(id))) throw okxErrors.params('clOrdId');
      // OKX v5 docs, Place order: clOrdId unique among the account's pending orders (51016).
      if (typeof id === 'string' && ctx.venue.placedUnder(id).some(isOpen)) throw okxErrors.duplicate();
      ctx.faults.refuseOrder();
      const placed = ctx.venue.place(parseNewOrder(asBinance(p), inst, ctx.venue.mark(inst)), false, 'expire');
      return [
        {
          ordId: String(placed.orderId),
          clOrdId: placed.clientOrderId,
          tag: '',
          ts: String(ctx.now()),
          sCode: '0',
          sMsg: 'Order placed',
        },
      ];
    } catch (err) {
      throw ofOrder(err);
    }
  },
  'GET /api/v5/trade/order': (p, ctx) => {
    const inst = instrumentOf(p);
    const ref = orderRef(p);
    const found = ctx.faults.forgetLookup() ? undefined : ctx.venue.find(inst.id, ref);
    if (!found) throw okxErrors.orderNotFound();
    return [order(found, inst, feeOf(found, ctx))];
  },
  'GET /api/v5/trade/orders-pending': (p, ctx) => listOrders(p, ctx, isOpen),
  'GET /api/v5/trade/orders-history': (p, ctx) => listOrders(p, ctx, (o) => !isOpen(o)),
  'POST /api/v5/trade/cancel-order': (p, ctx) => {
    try {
      return [cancelOne(p, ctx)];
    } catch (err) {
      throw ofOrder(err);
    }
  },
  // OKX v5 docs, Cancel multiple orders: a list of at most 20; each answered with its sCode.
  // OKX v5 docs, Cancel All After: timeOut "0" disarms, else 10–120 s; every pending order of the
  // account's order book is cancelled when it runs out (algo orders are not on the book: they stay).
  // One countdown for the account, kept here on every instrument at once.
  'POST /api/v5/trade/cancel-all-after': (p, ctx) => {
    const seconds = Number(p['timeOut']);
    if (!Number.isInteger(seconds) || (seconds !== 0 && (seconds < 10 || seconds > 120)))
      throw okxErrors.params('timeOut');
    const now = ctx.now();
    for (const inst of FAKE_INSTRUMENTS) ctx.venue.countdowns.arm(inst.id, seconds * 1000, now, false);
    return [{ triggerTime: seconds === 0 ? '0' : String(now + seconds * 1000), tag: '', ts: String(now) }];
  },
  'POST /api/v5/trade/cancel-batch-orders': (p, ctx) => {
    if (!Array.isArray(p)) throw okxErrors.params('body');
    if (p.length > 20) throw okxErrors.params('orders');
    const list = (p as Params[]).map((one) => {
      try {
        return cancelOne(one, ctx);
      } catch (err) {
        const e = ofOrder(err);
        return {
          ordId: String(one['ordId'] ?? ''),
          clOrdId: String(one['clOrdId'] ?? ''),
          sCode: String(e.code),
          sMsg: e.message,
        };
      }
    });
    if (list.every((x) => x.sCode !== '0')) throw ofOrder(okxErrors.cancelFailed());
    return list;
  },
  // OKX v5 docs, Get transaction details (last 3 months): newest first, limit at most 100.
  'GET /api/v5/trade/fills-history': (p, ctx) => fills(p, ctx),
  'GET /api/v5/trade/fills': (p, ctx) => fills(p, ctx),
  ...ALGO_ROUTES,
};

function isOpen(o: OrderRecord): boolean {
  return o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';
}

function cancelOne(p: Params, ctx: DialectContext) {
  const inst = instrumentOf(p);
  const cancelled = ctx.venue.cancel(inst.id, orderRef(p));
  return {
    ordId: String(cancelled.orderId),
    clOrdId: cancelled.clientOrderId,
    ts: String(ctx.now()),
    sCode: '0',
    sMsg: '',
  };
}

function fills(p: Params, ctx: DialectContext) {
  if (p['instType'] !== undefined && p['instType'] !== 'SWAP') return [];
  const only = p['instId'] !== undefined ? instrumentOf(p).id : undefined;
  const num = (name: string) => (p[name] !== undefined ? Number(p[name]) : undefined);
  const [begin, end] = [num('begin'), num('end')];
  const limit = Math.min(num('limit') ?? 100, 100);
  const seen = ctx.now() - ctx.venue.tradeHistoryLagMs;
  const orders = new Map<number, OrderRecord | undefined>();
  return ctx.venue
    .trades(only)
    .filter((t) => t.time <= seen)
    .filter((t) => p['ordId'] === undefined || String(t.orderId) === String(p['ordId']))
    .filter((t) => (begin === undefined || t.time >= begin) && (end === undefined || t.time <= end))
    .reverse()
    .slice(0, limit)
    .map((t) => {
      if (!orders.has(t.orderId)) orders.set(t.orderId, ctx.venue.find(t.symbol, { orderId: t.orderId }));
      return fill(t, orders.get(t.orderId), ctx.venue.instrument(t.symbol));
    });
}

function listOrders(p: Params, ctx: DialectContext, keep: (o: OrderRecord) => boolean) {
  if (p['instType'] !== undefined && p['instType'] !== 'SWAP') return [];
  const only = p['instId'] !== undefined ? instrumentOf(p).id : undefined;
  const limit = Math.min(Number(p['limit'] ?? 100), 100);
  return ctx.venue
    .all(only)
    .filter(keep)
    .sort((a, b) => b.time - a.time || b.orderId - a.orderId)
    .slice(0, limit)
    .map((o) => order(o, ctx.venue.instrument(o.symbol), feeOf(o, ctx)));
}

/** An order's fees so far, as OKX signs them (negative: paid). */
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
    instType: 'SWAP',
    instId: instIdOf(inst),
    last: mark,
    lastSz: '1',
    askPx: String(book.asks[0]?.[0] ?? ''),
    askSz: book.asks[0] ? szOf(book.asks[0][1], inst) : '',
    bidPx: String(book.bids[0]?.[0] ?? ''),
    bidSz: book.bids[0] ? szOf(book.bids[0][1], inst) : '',
    open24h: mark,
    high24h: mark,
    low24h: mark,
    volCcy24h: '1000',
    vol24h: '1000',
    sodUtc0: mark,
    sodUtc8: mark,
    ts: String(ctx.now()),
  };
}

/**
 * OKX v5 docs, Get candlesticks: bar, `after` (records older than this ts), `before` (newer than this
 * ts), limit (at most 300, history 100), newest first; `confirm` 0 for the candle still open.
 */
function candles(p: Params, ctx: DialectContext, maxLimit: number) {
  const inst = instrumentOf(p);
  const minutes = BARS[String(p['bar'] ?? '1m').replace(/utc$/, '')];
  if (!minutes) throw okxErrors.params('bar');
  const step = minutes * MINUTE;
  const limit = Math.min(Number(p['limit'] ?? 100), maxLimit);
  const t = ctx.now();
  const lastOpen = Math.floor(t / step) * step;
  const newest = p['after'] !== undefined ? Math.ceil(Number(p['after']) / step) * step - step : lastOpen;
  const oldest = p['before'] !== undefined ? Math.floor(Number(p['before']) / step) * step + step : -Infinity;
  const gaps = ctx.missing[inst.id] ?? [];
  const rows: string[][] = [];
  for (let open = Math.min(newest, lastOpen); open >= oldest && rows.length < limit; open -= step) {
    if (gaps.some(([from, to]) => open >= from && open < to)) continue;
    const c = minutes === 1 ? candleAt(ctx.seed, inst, open) : aggregateCandle(ctx.seed, inst, open, minutes);
    const quote = (c.volume * (c.open + c.close)) / 2;
    rows.push([
      String(open),
      String(c.open),
      String(c.high),
      String(c.low),
      String(c.close),
      // vol in contracts, volCcy in the base.
      szOf(c.volume, inst),
      String(c.volume),
      quote.toFixed(4),
      open + step <= t ? '1' : '0',
    ]);
  }
  return rows;
}

export function instrumentOf(p: Params): FakeInstrument {
  const id = p['instId'];
  const inst = typeof id === 'string' ? FAKE_INSTRUMENTS.find((i) => instIdOf(i) === id) : undefined;
  if (!inst) throw okxErrors.instrument();
  return inst;
}

function orderRef(p: Params): { orderId?: number; clientOrderId?: string } {
  if (p['ordId'] !== undefined && p['ordId'] !== '') return { orderId: Number(p['ordId']) };
  if (typeof p['clOrdId'] === 'string' && p['clOrdId'] !== '') return { clientOrderId: p['clOrdId'] };
  throw okxErrors.empty('ordId or clOrdId');
}

/** An OKX place-order request in the engine's (Binance's) terms, so one rule book checks all dialects. */
function asBinance(p: Params): URLSearchParams {
  const q = new URLSearchParams();
  q.set('symbol', instrumentOf(p).id);
  if (p['side'] === 'buy' || p['side'] === 'sell') q.set('side', p['side'].toUpperCase());
  const type = String(p['ordType'] ?? '');
  if (type === 'market') q.set('type', 'MARKET');
  else if (['limit', 'post_only', 'ioc', 'fok'].includes(type)) {
    q.set('type', 'LIMIT');
    q.set('timeInForce', { limit: 'GTC', post_only: 'GTX', ioc: 'IOC', fok: 'FOK' }[type]!);
    if (p['px'] !== undefined) q.set('price', String(p['px']));
  } else throw okxErrors.params('ordType');
  if (p['sz'] !== undefined) q.set('quantity', baseOfSz(p['sz'], instrumentOf(p)));
  if (typeof p['clOrdId'] === 'string') q.set('newClientOrderId', p['clOrdId']);
  if (p['reduceOnly'] === true || p['reduceOnly'] === 'true') q.set('reduceOnly', 'true');
  return q;
}
