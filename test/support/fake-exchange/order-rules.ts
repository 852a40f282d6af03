/**
 * What POST /fapi/v1/order accepts, checked as Binance does and refused with Binance's codes: the
 * parameters a type needs (and none it must not have), the client order id's alphabet and length
 * (^[.A-Z:/a-z0-9_-]{1,36}$), and the symbol's filters from exchangeInfo — LOT_SIZE and
 * MARKET_LOT_SIZE (step, max; the minimum is one step), PRICE_FILTER (tick), PERCENT_PRICE (±5 % of the mark) and
 * MIN_NOTIONAL (limit price or, for a market order, the mark; reduce-only orders are exempt).
 * Checks that need the account (duplicates, reduce-only, margin, post-only) are the venue's.
 */
import { errors } from './binance-errors.js';
import { decimalsIn, onStep } from './decimals.js';
import type { FakeInstrument } from './market-data.js';

export type Side = 'BUY' | 'SELL';
export type OrderType = 'MARKET' | 'LIMIT';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK' | 'GTX';

export interface NewOrder {
  symbol: string;
  side: Side;
  type: OrderType;
  /** Null for a market order. */
  timeInForce: TimeInForce | null;
  qty: number;
  /** Null for a market order. */
  price: number | null;
  reduceOnly: boolean;
  /** Null when none was sent (the venue makes one up, as Binance does). */
  clientOrderId: string | null;
}

/** Filter values the fake's exchangeInfo publishes (server.ts) and this module enforces. */
export const LIMIT_MAX_QTY = 1000;
export const MARKET_MAX_QTY = 120;
export const PERCENT_PRICE = { up: 1.05, down: 0.95 };
const CLIENT_ORDER_ID = /^[.A-Z:/a-z0-9_-]{1,36}$/;

export function parseNewOrder(q: URLSearchParams, inst: FakeInstrument, mark: number): NewOrder {
  const side = q.get('side');
  if (side !== 'BUY' && side !== 'SELL') throw side ? errors.invalidSide() : errors.mandatory('side');
  const type = q.get('type');
  if (!type) throw errors.mandatory('type');
  if (type !== 'MARKET' && type !== 'LIMIT') throw errors.invalidOrderType();
  const clientOrderId = q.get('newClientOrderId');
  if (clientOrderId !== null && !CLIENT_ORDER_ID.test(clientOrderId)) throw errors.clientOrderIdInvalid();
  const reduceOnly = q.get('reduceOnly') === 'true';

  const qtyText = q.get('quantity');
  if (!qtyText || Number.isNaN(Number(qtyText))) throw errors.mandatory('quantity');
  const qty = Number(qtyText);
  if (qty <= 0) throw errors.qtyNotPositive();
  if (decimalsIn(qtyText) > inst.quantityPrecision) throw errors.badPrecision();
  if (!onStep(qty, inst.stepSize)) throw errors.qtyNotOnStep();
  if (qty > (type === 'MARKET' ? MARKET_MAX_QTY : LIMIT_MAX_QTY)) throw errors.qtyAboveMax();

  let price: number | null = null;
  let timeInForce: TimeInForce | null = null;
  if (type === 'MARKET') {
    if (q.has('timeInForce')) throw errors.notRequired('timeInForce');
    if (q.has('price')) throw errors.notRequired('price');
  } else {
    const tif = q.get('timeInForce');
    if (!tif) throw errors.mandatory('timeInForce');
    if (tif !== 'GTC' && tif !== 'IOC' && tif !== 'FOK' && tif !== 'GTX') throw errors.invalidTimeInForce();
    timeInForce = tif;
    const priceText = q.get('price');
    if (!priceText || Number.isNaN(Number(priceText))) throw errors.mandatory('price');
    price = Number(priceText);
    if (price <= 0) throw errors.priceNotPositive();
    if (decimalsIn(priceText) > inst.pricePrecision) throw errors.badPrecision();
    if (!onStep(price, inst.tickSize)) throw errors.priceNotOnTick();
    if (side === 'BUY' && price > mark * PERCENT_PRICE.up) throw errors.priceAboveCap();
    if (side === 'SELL' && price < mark * PERCENT_PRICE.down) throw errors.priceBelowFloor();
  }

  if (!reduceOnly && qty * (price ?? mark) < Number(inst.minNotional)) throw errors.minNotional(inst.minNotional);
  return { symbol: inst.id, side, type, timeInForce, qty, price, reduceOnly, clientOrderId };
}
