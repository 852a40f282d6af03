/**
 * The fake's signed (TRADE / USER_DATA) endpoints: the ones ccxt 4's binanceusdm calls for
 * trading, by method and path, each reading Binance's parameters and answering in Binance's shapes
 * (binance-shapes.ts). Which ccxt method calls which (ccxt 4.5.84):
 *   loadMarkets (with keys) → GET /sapi/v1/capital/config/getall, /sapi/v1/margin/allPairs
 *   fetchBalance → GET /fapi/v3/account
 *   fetchPositions → GET /fapi/v1/leverageBracket (once), /fapi/v3/positionRisk
 *   createOrder → POST /fapi/v1/order      fetchOrder → GET /fapi/v1/order      cancelOrder → DELETE /fapi/v1/order
 *   fetchOpenOrders → GET /fapi/v1/openOrders      cancelAllOrders → DELETE /fapi/v1/allOpenOrders
 *   fetchMyTrades → GET /fapi/v1/userTrades      fapiPrivatePostCountdownCancelAll → POST /fapi/v1/countdownCancelAll
 *   fetchPositionMode → GET /fapi/v1/positionSide/dual      fapiPrivateGetIncome → GET /fapi/v1/income
 *   fapiPrivateGetMultiAssetsMargin → GET /fapi/v1/multiAssetsMargin    fapiPrivateGetSymbolConfig → GET /fapi/v1/symbolConfig
 *   setLeverage → POST /fapi/v1/leverage      setMarginMode → POST /fapi/v1/marginType
 *   createOrder with a triggerPrice/stopLossPrice → POST /fapi/v1/algoOrder (algo-orders.ts)
 *   fetchOpenOrders/cancelOrder with {trigger: true} → GET /fapi/v1/openAlgoOrders, DELETE /fapi/v1/algoOrder
 */
import { errors } from './binance-errors.js';
import {
  accountV3,
  algoCancelled,
  algoOrder,
  coinList,
  incomeLine,
  leverageBrackets,
  marginPairs,
  orderQuery,
  orderResult,
  positionRisk,
  symbolConfig,
  userTrade,
} from './binance-shapes.js';
import type { Faults } from './faults.js';
import { FAKE_INSTRUMENTS } from './market-data.js';
import { parseNewOrder } from './order-rules.js';
import type { Venue } from './venue.js';

type Handler = (q: URLSearchParams, venue: Venue, faults: Faults) => unknown;

const ROUTES: Record<string, Handler> = {
  'GET /sapi/v1/capital/config/getall': () => coinList(),
  'GET /sapi/v1/margin/allPairs': () => marginPairs(),
  'GET /fapi/v3/account': (_q, venue) => accountV3(venue.account(), venue.ledger.walletUpdateTime),
  'GET /fapi/v3/positionRisk': positions,
  'GET /fapi/v1/leverageBracket': (q, venue) => leverageBrackets(q.has('symbol') ? symbolOf(q, venue) : null),
  'GET /fapi/v1/positionSide/dual': (_q, venue) => ({ dualSidePosition: venue.settings.dualSidePosition }),
  'GET /fapi/v1/multiAssetsMargin': (_q, venue) => ({ multiAssetsMargin: venue.settings.multiAssetsMargin }),
  'GET /fapi/v1/symbolConfig': (q, venue) =>
    (q.has('symbol') ? [symbolOf(q, venue)] : FAKE_INSTRUMENTS.map((i) => i.id)).map((symbol) =>
      symbolConfig(symbol, venue.settings.of(symbol)),
    ),
  'POST /fapi/v1/leverage': (q, venue) => {
    const symbol = symbolOf(q, venue);
    const { leverage } = venue.settings.changeLeverage(symbol, Number(q.get('leverage')));
    return { symbol, leverage, maxNotionalValue: '1000000' };
  },
  'POST /fapi/v1/marginType': (q, venue) => {
    const symbol = symbolOf(q, venue);
    venue.settings.changeMarginType(symbol, q.get('marginType') ?? '', venue.ledger.position(symbol).qty !== 0);
    return { code: 200, msg: 'success' };
  },
  'GET /fapi/v1/openOrders': (q, venue) => venue.open(q.has('symbol') ? symbolOf(q, venue) : undefined).map(orderQuery),
  'GET /fapi/v1/order': (q, venue, faults) => {
    const symbol = symbolOf(q, venue);
    const order = venue.find(symbol, orderRef(q));
    if (!order || faults.forgetLookup()) throw errors.noSuchOrder();
    return orderQuery(order);
  },
  'POST /fapi/v1/order': (q, venue, faults) => {
    checkPositionSide(q, venue);
    faults.refuseOrder();
    const inst = venue.instrument(symbolOf(q, venue));
    return orderResult(venue.place(parseNewOrder(q, inst, venue.mark(inst))));
  },
  'DELETE /fapi/v1/order': (q, venue) => orderResult(venue.cancel(symbolOf(q, venue), orderRef(q))),
  'DELETE /fapi/v1/allOpenOrders': (q, venue) => {
    venue.cancelAll(symbolOf(q, venue));
    return { code: 200, msg: 'The operation of cancel all open order is done.' };
  },
  'POST /fapi/v1/countdownCancelAll': (q, venue) => {
    const symbol = symbolOf(q, venue);
    const ms = Number(q.get('countdownTime'));
    if (!q.get('countdownTime') || !Number.isInteger(ms) || ms < 0) throw errors.mandatory('countdownTime');
    venue.countdowns.arm(symbol, ms, venue.now());
    return { symbol, countdownTime: String(ms) };
  },
  'POST /fapi/v1/algoOrder': (q, venue) => {
    checkPositionSide(q, venue);
    const inst = venue.instrument(symbolOf(q, venue));
    return algoOrder(venue.algo.place(q, inst, venue.mark(inst), venue.now()));
  },
  'GET /fapi/v1/openAlgoOrders': (q, venue) =>
    venue.algo.open(q.has('symbol') ? symbolOf(q, venue) : undefined).map(algoOrder),
  'GET /fapi/v1/algoOrder': (q, venue) => {
    const order = venue.algo.find(symbolOf(q, venue), algoRef(q));
    if (!order) throw errors.noSuchOrder();
    return algoOrder(order);
  },
  'DELETE /fapi/v1/algoOrder': (q, venue) =>
    algoCancelled(venue.algo.cancel(symbolOf(q, venue), algoRef(q), venue.now())),
  'GET /fapi/v1/userTrades': trades,
  'GET /fapi/v1/income': income,
};

/** The handler for a signed endpoint, or undefined when `method path` is not one. */
export function privateRoute(method: string, pathname: string): Handler | undefined {
  return ROUTES[`${method} ${pathname}`];
}

function symbolOf(q: URLSearchParams, venue: Venue): string {
  const symbol = q.get('symbol');
  if (!symbol) throw errors.mandatory('symbol');
  return venue.instrument(symbol).id;
}

/**
 * -4061 as Binance answers it: one-way mode takes no side or BOTH; hedge mode needs LONG or SHORT.
 * The fake keeps one net position per symbol, so hedge-mode legs themselves are not modelled.
 */
function checkPositionSide(q: URLSearchParams, venue: Venue): void {
  const side = q.get('positionSide') ?? 'BOTH';
  if (venue.settings.dualSidePosition !== (side === 'LONG' || side === 'SHORT')) throw errors.positionSideMismatch();
  if (venue.settings.dualSidePosition) throw new Error('the fake does not model hedge-mode legs');
}

function orderRef(q: URLSearchParams): { orderId?: number; clientOrderId?: string } {
  if (q.get('orderId')) return { orderId: Number(q.get('orderId')) };
  if (q.get('origClientOrderId')) return { clientOrderId: q.get('origClientOrderId')! };
  throw errors.eitherOf('orderId', 'origClientOrderId');
}

function algoRef(q: URLSearchParams): { algoId?: number; clientAlgoId?: string } {
  if (q.get('algoId')) return { algoId: Number(q.get('algoId')) };
  if (q.get('clientAlgoId')) return { clientAlgoId: q.get('clientAlgoId')! };
  throw errors.eitherOf('algoId', 'clientAlgoId');
}

/** v3: only symbols with a position or open orders are listed. */
function positions(q: URLSearchParams, venue: Venue) {
  const only = q.has('symbol') ? symbolOf(q, venue) : undefined;
  const figures = venue.account();
  const listed = new Map(figures.positions.map((p) => [p.symbol, p]));
  for (const order of venue.open()) {
    if (listed.has(order.symbol)) continue;
    const mark = venue.mark(venue.instrument(order.symbol));
    listed.set(order.symbol, { ...venue.ledger.position(order.symbol), mark, unrealized: 0, notional: 0, margin: 0 });
  }
  return [...listed.values()]
    .filter((p) => only === undefined || p.symbol === only)
    .map((p) => positionRisk(p, figures.wallet));
}

/**
 * symbol/incomeType/startTime/endTime filters, oldest first, the first `limit` (default 100, at most
 * 1000); with neither time given, the last 7 days (as Binance does).
 */
function income(q: URLSearchParams, venue: Venue) {
  const num = (name: string) => (q.has(name) ? Number(q.get(name)) : undefined);
  const [start, end] = [num('startTime'), num('endTime')];
  const from = start ?? (end === undefined ? venue.now() - 7 * 86_400_000 : undefined);
  const limit = Math.min(num('limit') ?? 100, 1000);
  return venue
    .incomeHistory()
    .filter((r) => !q.has('symbol') || r.symbol === q.get('symbol'))
    .filter((r) => !q.has('incomeType') || r.incomeType === q.get('incomeType'))
    .filter((r) => (from === undefined || r.time >= from) && (end === undefined || r.time <= end))
    .slice(0, limit)
    .map(incomeLine);
}

/** startTime/endTime/fromId/orderId filters; the latest `limit` (default 500, at most 1000), oldest first. */
function trades(q: URLSearchParams, venue: Venue) {
  const symbol = symbolOf(q, venue);
  const num = (name: string) => (q.has(name) ? Number(q.get(name)) : undefined);
  const [orderId, from, start, end] = [num('orderId'), num('fromId'), num('startTime'), num('endTime')];
  const limit = Math.min(num('limit') ?? 500, 1000);
  const seen = venue.now() - venue.tradeHistoryLagMs;
  const rows = venue
    .trades(symbol)
    .filter((t) => t.time <= seen)
    .filter((t) => orderId === undefined || t.orderId === orderId)
    .filter((t) => from === undefined || t.id >= from)
    .filter((t) => (start === undefined || t.time >= start) && (end === undefined || t.time <= end));
  return (from === undefined ? rows.slice(-limit) : rows.slice(0, limit)).map(userTrade);
}
