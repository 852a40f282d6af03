/**
 * OKX v5's conditional algo orders (OKX v5 docs, "Algo Trading": Place algo order, Get algo order
 * details, Get algo order list, Cancel algo order) over the engine's stops (../../algo-orders.ts): a
 * stop-loss market order (slOrdPx -1) on the mark price that, with closeFraction 1, closes the whole
 * net position when it triggers. States: live (waiting), effective (triggered: ordIdList names the
 * book order it placed), canceled.
 */
import type { DialectContext } from '../../dialect.js';
import type { AlgoRecord } from '../../algo-orders.js';
import { BinanceError } from '../../binance-errors.js';
import { OkxError, ofOrder, okxErrors } from './errors.js';
import type { Handler } from './routes.js';
import { instrumentOf } from './routes.js';
import { baseOfSz, instIdOf, szOf } from './shapes.js';

type Params = Record<string, unknown>;

/** OKX v5 docs, Place algo order: algoClOrdId "alphanumerics … up to 32 characters". */
const ALGO_CL_ORD_ID = /^[A-Za-z0-9]{1,32}$/;

export const ALGO_ROUTES: Record<string, Handler> = {
  'POST /api/v5/trade/order-algo': (p, ctx) => {
    try {
      const stop = place(p, ctx);
      return [
        { algoId: String(stop.algoId), clOrdId: '', algoClOrdId: stop.clientAlgoId, tag: '', sCode: '0', sMsg: '' },
      ];
    } catch (err) {
      throw ofOrder(err);
    }
  },
  'GET /api/v5/trade/order-algo': (p, ctx) => {
    const found = find(p, ctx);
    if (!found) throw new OkxError(51603, "Order doesn't exist.");
    return [shape(found, ctx)];
  },
  'GET /api/v5/trade/orders-algo-pending': (p, ctx) => {
    if (p['ordType'] !== 'conditional') return []; // the fake's only kind
    const only = p['instId'] !== undefined ? instrumentOf(p).id : undefined;
    return ctx.venue.algo.open(only).map((a) => shape(a, ctx));
  },
  // OKX v5 docs, Cancel algo order: a list of {instId, algoId}, at most 10.
  'POST /api/v5/trade/cancel-algos': (p, ctx) => {
    if (!Array.isArray(p)) throw okxErrors.params('body');
    return (p as Params[]).map((one) => {
      const inst = instrumentOf(one);
      try {
        const gone = ctx.venue.algo.cancel(inst.id, { algoId: Number(one['algoId']) }, ctx.now());
        return { algoId: String(gone.algoId), algoClOrdId: gone.clientAlgoId, sCode: '0', sMsg: '' };
      } catch (err) {
        throw ofOrder(err instanceof BinanceError ? okxErrors.cancelFailed() : err);
      }
    });
  },
};

function place(p: Params, ctx: DialectContext): AlgoRecord {
  const inst = instrumentOf(p);
  if (p['ordType'] !== 'conditional') throw okxErrors.params('ordType: only conditional orders are modelled');
  if (p['tdMode'] !== 'cross' && p['tdMode'] !== 'isolated') throw okxErrors.params('tdMode');
  if (String(p['slOrdPx']) !== '-1') throw okxErrors.params('slOrdPx: only market stops are modelled');
  const q = new URLSearchParams({ algoType: 'CONDITIONAL', type: 'STOP_MARKET', symbol: inst.id });
  if (p['side'] === 'buy' || p['side'] === 'sell') q.set('side', p['side'].toUpperCase());
  q.set('triggerPrice', String(p['slTriggerPx']));
  const id = p['algoClOrdId'];
  if (id !== undefined) {
    if (typeof id !== 'string' || !ALGO_CL_ORD_ID.test(id)) throw okxErrors.params('algoClOrdId');
    q.set('clientAlgoId', id);
  }
  // docs: closeFraction 1 closes the whole position (reduceOnly, net mode); sz then not sent.
  if (String(p['closeFraction']) === '1') q.set('closePosition', 'true');
  else {
    if (p['sz'] === undefined) throw okxErrors.empty('sz');
    q.set('quantity', baseOfSz(p['sz'], inst));
    if (p['reduceOnly'] === true || p['reduceOnly'] === 'true') q.set('reduceOnly', 'true');
  }
  if (p['slTriggerPxType'] === 'mark') q.set('workingType', 'MARK_PRICE');
  try {
    return ctx.venue.algo.place(q, inst, ctx.venue.mark(inst), ctx.now());
  } catch (err) {
    // docs: 51280/51279 "SL trigger price must be less/greater than the last price".
    if (err instanceof BinanceError && err.code === -2021)
      throw new OkxError(p['side'] === 'sell' ? 51280 : 51279, 'SL trigger price must be less than the last price');
    throw err;
  }
}

function find(p: Params, ctx: DialectContext): AlgoRecord | undefined {
  const inst = p['instId'] !== undefined ? instrumentOf(p) : undefined;
  const symbols = inst ? [inst.id] : ctx.venue.algo.open().map((a) => a.symbol);
  for (const symbol of symbols) {
    if (p['algoId'] !== undefined && p['algoId'] !== '') {
      const found = ctx.venue.algo.find(symbol, { algoId: Number(p['algoId']) });
      if (found) return found;
    } else if (typeof p['algoClOrdId'] === 'string') {
      const found = ctx.venue.algo.find(symbol, { clientAlgoId: p['algoClOrdId'] });
      if (found) return found;
    } else throw okxErrors.empty('algoId or algoClOrdId');
  }
  return undefined;
}

/** One conditional order as OKX's algo endpoints show it. */
function shape(a: AlgoRecord, ctx: DialectContext) {
  const inst = ctx.venue.instrument(a.symbol);
  const state =
    a.algoStatus === 'NEW'
      ? 'live'
      : a.algoStatus === 'CANCELED' || a.algoStatus === 'EXPIRED'
        ? 'canceled'
        : 'effective';
  const book = a.actualOrderId !== null ? ctx.venue.find(a.symbol, { orderId: a.actualOrderId }) : undefined;
  return {
    instType: 'SWAP',
    instId: instIdOf(inst),
    ccy: '',
    ordId: a.actualOrderId !== null ? String(a.actualOrderId) : '',
    ordIdList: a.actualOrderId !== null ? [String(a.actualOrderId)] : [],
    algoId: String(a.algoId),
    clOrdId: a.clientAlgoId,
    algoClOrdId: a.clientAlgoId,
    sz: a.closePosition ? '' : szOf(a.quantity, inst),
    closeFraction: a.closePosition ? '1' : '',
    ordType: 'conditional',
    side: a.side === 'BUY' ? 'buy' : 'sell',
    posSide: 'net',
    tdMode: 'cross',
    tgtCcy: '',
    state,
    lever: '',
    tpTriggerPx: '',
    tpTriggerPxType: '',
    tpOrdPx: '',
    slTriggerPx: String(a.triggerPrice),
    slTriggerPxType: a.workingType === 'MARK_PRICE' ? 'mark' : 'last',
    slOrdPx: '-1',
    triggerPx: '',
    triggerPxType: '',
    ordPx: '',
    actualSz: book ? szOf(book.origQty, inst) : '',
    actualPx: book && book.executedQty > 0 ? String(book.cumQuote / book.executedQty) : '',
    actualSide: state === 'effective' ? 'sl' : '',
    triggerTime: a.triggerTime ? String(a.triggerTime) : '',
    reduceOnly: String(a.reduceOnly),
    failCode: '',
    tag: '',
    last: String(ctx.venue.mark(inst)),
    cTime: String(a.createTime),
    uTime: String(a.updateTime),
  };
}
