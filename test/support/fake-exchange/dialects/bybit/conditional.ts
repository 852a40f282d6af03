/**
 * Bybit v5's conditional orders (docs: Place Order with triggerPrice; enums: orderStatus) over the
 * engine's stops (../../algo-orders.ts): a reduce-only, close-on-trigger market order with qty 0
 * closes the whole position when the mark crosses its trigger (docs: "qty=0 … reduceOnly=true and
 * closeOnTrigger=true"). It keeps its orderId when it triggers; the engine's book order it became is
 * shown under that id (its status, its fills).
 */
import type { DialectContext } from '../../dialect.js';
import type { AlgoRecord } from '../../algo-orders.js';
import type { FakeInstrument } from '../../market-data.js';
import { BinanceError } from '../../binance-errors.js';
import { BybitError, bybitErrors } from './errors.js';

type Params = Record<string, unknown>;

/** POST /v5/order/create with a triggerPrice. */
export function placeConditional(p: Params, ctx: DialectContext, inst: FakeInstrument): AlgoRecord {
  const q = new URLSearchParams({ algoType: 'CONDITIONAL', type: 'STOP_MARKET', symbol: inst.id });
  if (p['side'] === 'Buy' || p['side'] === 'Sell') q.set('side', p['side'].toUpperCase());
  if (p['orderType'] !== 'Market') throw bybitErrors.params('only conditional market orders are modelled');
  q.set('triggerPrice', String(p['triggerPrice']));
  if (typeof p['orderLinkId'] === 'string') q.set('clientAlgoId', p['orderLinkId']);
  if (p['qty'] === undefined || p['qty'] === '' || Number.isNaN(Number(p['qty']))) throw bybitErrors.params('qty');
  const closeAll = Number(p['qty']) === 0 && truthy(p['reduceOnly']) && truthy(p['closeOnTrigger']);
  if (closeAll) q.set('closePosition', 'true');
  else {
    q.set('quantity', String(p['qty']));
    if (truthy(p['reduceOnly'])) q.set('reduceOnly', 'true');
  }
  if (p['triggerBy'] === 'MarkPrice') q.set('workingType', 'MARK_PRICE');
  try {
    return ctx.venue.algo.place(q, inst, ctx.venue.mark(inst), ctx.now());
  } catch (err) {
    // docs: 110092/110093 the trigger price is on the wrong side of the current price.
    if (err instanceof BinanceError && err.code === -2021)
      throw new BybitError(110092, 'expect Rising, but trigger_price[x] <= current[y]');
    throw err;
  }
}

/** A conditional order as /v5/order/realtime shows it (the book order's figures once triggered). */
export function conditionalShape(a: AlgoRecord, ctx: DialectContext) {
  const book = a.actualOrderId !== null ? ctx.venue.find(a.symbol, { orderId: a.actualOrderId }) : undefined;
  const status =
    a.algoStatus === 'NEW'
      ? 'Untriggered'
      : a.algoStatus === 'CANCELED' || a.algoStatus === 'EXPIRED'
        ? 'Deactivated'
        : book?.status === 'FILLED'
          ? 'Filled'
          : 'Triggered';
  const filled = book?.executedQty ?? 0;
  return {
    orderId: String(a.algoId),
    orderLinkId: a.clientAlgoId,
    symbol: a.symbol,
    price: '0',
    qty: String(book?.origQty ?? a.quantity),
    side: a.side === 'BUY' ? 'Buy' : 'Sell',
    positionIdx: 0,
    orderStatus: status,
    avgPrice: filled > 0 && book ? String(book.cumQuote / filled) : '',
    leavesQty: '0',
    cumExecQty: String(filled),
    cumExecValue: String(book?.cumQuote ?? 0),
    cumExecFee: '0',
    timeInForce: 'IOC',
    orderType: 'Market',
    stopOrderType: 'Stop',
    triggerPrice: String(a.triggerPrice),
    triggerDirection: a.side === 'SELL' ? 2 : 1,
    triggerBy: a.workingType === 'MARK_PRICE' ? 'MarkPrice' : 'LastPrice',
    reduceOnly: a.reduceOnly,
    closeOnTrigger: a.closePosition,
    rejectReason: 'EC_NoError',
    createdTime: String(a.createTime),
    updatedTime: String(a.updateTime),
  };
}

/** The conditional order with this id or orderLinkId on a symbol, any status. */
export function findConditional(
  ctx: DialectContext,
  symbol: string,
  id?: string,
  link?: string,
): AlgoRecord | undefined {
  if (id !== undefined) return ctx.venue.algo.find(symbol, { algoId: Number(id) });
  if (link !== undefined) return ctx.venue.algo.find(symbol, { clientAlgoId: link });
  return undefined;
}

function truthy(v: unknown): boolean {
  return v === true || v === 'true';
}
