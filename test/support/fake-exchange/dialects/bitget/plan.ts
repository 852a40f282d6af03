/**
 * Bitget V2's position stop-loss (Bitget API docs, "Place Tpsl Order", "Get Pending Trigger
 * Orders", "Get History Trigger Order", "Cancel Trigger Order") over the engine's stops
 * (../../algo-orders.ts): planType pos_loss on the mark price (triggerType mark_price) closes the
 * whole position at market when it triggers, in one-way mode holdSide buy (a long's) or sell (a
 * short's). They are listed under planType profit_loss; planStatus live (waiting), executed
 * (triggered: executeOrderId names the order it placed), cancelled. Assumptions of the fake, unchecked
 * on Bitget: a listed pos_loss shows `side` as the closing order's side (sell for a long's stop), and
 * the history lists it with executeOrderId; the history's startTime/endTime are not applied (ccxt
 * bounds them by the wall clock, which is not the fake's).
 */
import type { DialectContext } from '../../dialect.js';
import type { AlgoRecord } from '../../algo-orders.js';
import { BinanceError } from '../../binance-errors.js';
import { BitgetError, bitgetErrors, fromEngine } from './errors.js';
import type { Handler } from './routes.js';
import { instrumentOf, productOf } from './routes.js';

type Params = Record<string, unknown>;

/** docs: Place Tpsl Order, clientOid as for orders. */
const CLIENT_OID = /^[A-Za-z0-9_-]{1,50}$/;

export const PLAN_ROUTES: Record<string, Handler> = {
  'POST /api/v2/mix/order/place-tpsl-order': (p, ctx) => {
    const stop = place(p, ctx);
    return { orderId: String(stop.algoId), clientOid: stop.clientAlgoId };
  },
  'GET /api/v2/mix/order/orders-plan-pending': (p, ctx) => {
    productOf(p);
    if (p['planType'] !== 'profit_loss') return { entrustedList: null, endId: null }; // the fake's only kind
    const only = p['symbol'] !== undefined ? instrumentOf(p).id : undefined;
    const list = ctx.venue.algo.open(only).map((a) => shape(a));
    return { entrustedList: list.length > 0 ? list : null, endId: list.at(-1)?.orderId ?? null };
  },
  'GET /api/v2/mix/order/orders-plan-history': (p, ctx) => {
    productOf(p);
    if (p['planType'] !== 'profit_loss') return { entrustedList: null, endId: null };
    const inst = instrumentOf(p);
    const open = new Set(ctx.venue.algo.open(inst.id).map((a) => a.algoId));
    // Every stop the engine has had on the symbol that no longer rests, newest first.
    const list = historyOf(ctx, inst.id)
      .filter((a) => !open.has(a.algoId))
      .map((a) => shape(a));
    return { entrustedList: list.length > 0 ? list : null, endId: list.at(-1)?.orderId ?? null };
  },
  // docs: Cancel Trigger Order: orderIdList of {orderId | clientOid}; each answered in successList or failureList.
  'POST /api/v2/mix/order/cancel-plan-order': (p, ctx) => {
    productOf(p);
    const inst = instrumentOf(p);
    if (!Array.isArray(p['orderIdList'])) throw bitgetErrors.empty('orderIdList');
    const successList: Array<{ orderId: string; clientOid: string }> = [];
    const failureList: Array<{ orderId: string; clientOid: string; errorMsg: string; errorCode: string }> = [];
    for (const one of p['orderIdList'] as Params[]) {
      const ref =
        one['orderId'] !== undefined ? { algoId: Number(one['orderId']) } : { clientAlgoId: String(one['clientOid']) };
      try {
        const gone = ctx.venue.algo.cancel(inst.id, ref, ctx.now());
        successList.push({ orderId: String(gone.algoId), clientOid: gone.clientAlgoId });
      } catch (err) {
        const e = err instanceof BinanceError ? bitgetErrors.planNotFound() : fromEngine(err);
        failureList.push({
          orderId: String(one['orderId'] ?? ''),
          clientOid: String(one['clientOid'] ?? ''),
          errorMsg: e.message,
          errorCode: String(e.code),
        });
      }
    }
    // A single order that could not be cancelled is refused as a whole (the fake's reading).
    if (successList.length === 0 && failureList.length > 0) throw bitgetErrors.planNotFound();
    return { successList, failureList };
  },
};

function place(p: Params, ctx: DialectContext): AlgoRecord {
  const inst = instrumentOf(p);
  productOf(p);
  if (p['marginCoin'] !== 'USDT') throw bitgetErrors.empty('marginCoin');
  if (p['planType'] !== 'pos_loss') throw bitgetErrors.params('planType: only pos_loss is modelled');
  if (p['executePrice'] !== undefined && Number(p['executePrice']) !== 0)
    throw bitgetErrors.params('executePrice: only market stops are modelled');
  // docs: holdSide in one-way mode buy (the long position) / sell (the short); the stop sells or buys it back.
  const holdSide = p['holdSide'];
  if (holdSide !== 'buy' && holdSide !== 'sell') throw bitgetErrors.params('holdSide');
  const q = new URLSearchParams({
    algoType: 'CONDITIONAL',
    type: 'STOP_MARKET',
    symbol: inst.id,
    side: holdSide === 'buy' ? 'SELL' : 'BUY',
  });
  q.set('triggerPrice', String(p['triggerPrice']));
  const id = p['clientOid'];
  if (id !== undefined) {
    if (typeof id !== 'string' || !CLIENT_OID.test(id)) throw bitgetErrors.params('clientOid');
    q.set('clientAlgoId', id);
  }
  // pos_loss closes the whole position, whatever its size then: `size` is not read.
  q.set('closePosition', 'true');
  if (p['triggerType'] === 'mark_price') q.set('workingType', 'MARK_PRICE');
  try {
    return ctx.venue.algo.place(q, inst, ctx.venue.mark(inst), ctx.now());
  } catch (err) {
    // ccxt: 40917 "Stop price for long positions please < mark price", 45122 the short's.
    if (err instanceof BinanceError && err.code === -2021)
      throw holdSide === 'buy'
        ? new BitgetError(40917, `Stop price for long positions please < mark price ${ctx.venue.mark(inst)}`)
        : new BitgetError(45122, `Short position stop loss price please > mark price ${ctx.venue.mark(inst)}`);
    throw err;
  }
}

/**
 * The engine's stops on `symbol`, newest first. The engine lists only the open ones (its other
 * dialects read a past stop by its id); Bitget's history lists them all, so its records are read here.
 */
function historyOf(ctx: DialectContext, symbol: string): AlgoRecord[] {
  const records = (ctx.venue.algo as unknown as { records: AlgoRecord[] }).records;
  return records.filter((a) => a.symbol === symbol).reverse();
}

/** One pos_loss as Bitget's plan listings show it. */
function shape(a: AlgoRecord) {
  const status =
    a.algoStatus === 'NEW'
      ? 'live'
      : a.algoStatus === 'CANCELED'
        ? 'cancelled'
        : a.actualOrderId !== null
          ? 'executed'
          : 'fail_trigger';
  return {
    planType: 'pos_loss',
    symbol: a.symbol,
    size: '',
    orderId: String(a.algoId),
    clientOid: a.clientAlgoId,
    price: '',
    executePrice: '0',
    callbackRatio: '',
    triggerPrice: String(a.triggerPrice),
    triggerType: a.workingType === 'MARK_PRICE' ? 'mark_price' : 'fill_price',
    planStatus: status,
    side: a.side === 'BUY' ? 'buy' : 'sell',
    posSide: 'net',
    marginCoin: 'USDT',
    marginMode: 'crossed',
    enterPointSource: 'API',
    tradeSide: 'close',
    posMode: 'one_way_mode',
    orderType: 'market',
    orderSource: 'pos_loss_market',
    executeOrderId: a.actualOrderId !== null ? String(a.actualOrderId) : '',
    stopSurplusTriggerPrice: '',
    stopSurplusExecutePrice: '',
    stopSurplusTriggerType: '',
    stopLossTriggerPrice: '',
    stopLossExecutePrice: '',
    stopLossTriggerType: '',
    cTime: String(a.createTime),
    uTime: String(a.updateTime),
  };
}
