/**
 * Binance USDⓈ-M's conditional orders, which since 2025-12-09 live in the exchange's Algo Service
 * apart from the order book (POST /fapi/v1/order answers -4120 for them): POST /fapi/v1/algoOrder
 * (algoType CONDITIONAL), GET /fapi/v1/openAlgoOrders, DELETE /fapi/v1/algoOrder, in the shapes of
 * ccxt 4.5's binance parser comments (algoId, clientAlgoId, orderType, triggerPrice, algoStatus, …).
 * Only STOP_MARKET is modelled: it triggers when the mark crosses its trigger price and becomes a
 * reduce-only market order in the book (closePosition: the whole position, whatever its size then).
 *
 * Whether Binance's countdownCancelAll also cancels algo orders is not documented; the fake takes the
 * pessimistic reading (it does, venue.ts settle), so a design that survives the fake survives either.
 */
import { errors } from './binance-errors.js';
import { BinanceError } from './binance-errors.js';
import { decimalsIn, onStep } from './decimals.js';
import type { FakeInstrument } from './market-data.js';
import type { Side } from './order-rules.js';

type AlgoStatus = 'NEW' | 'CANCELED' | 'TRIGGERED' | 'FINISHED' | 'EXPIRED';

export interface AlgoRecord {
  algoId: number;
  clientAlgoId: string;
  symbol: string;
  side: Side;
  triggerPrice: number;
  /** 0 with closePosition. */
  quantity: number;
  closePosition: boolean;
  reduceOnly: boolean;
  workingType: 'MARK_PRICE' | 'CONTRACT_PRICE';
  algoStatus: AlgoStatus;
  createTime: number;
  updateTime: number;
  triggerTime: number;
  /** The book order it became when triggered. */
  actualOrderId: number | null;
}

const CLIENT_ALGO_ID = /^[.A-Z:/a-z0-9_-]{1,36}$/;

/** -2021 as Binance answers a stop whose trigger is already crossed. */
const wouldTrigger = () => new BinanceError(400, -2021, 'Order would immediately trigger.');
/** -4130: one close-position stop per symbol and direction (a move is a cancel, then a new one). */
const closeStopExists = () =>
  new BinanceError(
    400,
    -4130,
    'An open stop or take profit order with GTE and closePosition in the direction is existing.',
  );

export class AlgoOrders {
  private readonly records: AlgoRecord[] = [];
  private nextAlgoId = 5_000_000_001;

  /** POST /fapi/v1/algoOrder's checks, then the new order (NEW). */
  place(q: URLSearchParams, inst: FakeInstrument, mark: number, now: number): AlgoRecord {
    if (q.get('algoType') !== 'CONDITIONAL') throw errors.mandatory('algoType');
    const side = q.get('side');
    if (side !== 'BUY' && side !== 'SELL') throw side ? errors.invalidSide() : errors.mandatory('side');
    if (q.get('type') !== 'STOP_MARKET') throw errors.invalidOrderType();
    const clientAlgoId = q.get('clientAlgoId') ?? `algo_${this.nextAlgoId}`;
    if (!CLIENT_ALGO_ID.test(clientAlgoId)) throw errors.clientOrderIdInvalid();
    if (this.open(inst.id).some((o) => o.clientAlgoId === clientAlgoId)) throw errors.duplicateClientOrderId();
    const triggerText = q.get('triggerPrice');
    if (!triggerText || Number.isNaN(Number(triggerText))) throw errors.mandatory('triggerPrice');
    const triggerPrice = Number(triggerText);
    if (triggerPrice <= 0) throw errors.priceNotPositive();
    if (decimalsIn(triggerText) > inst.pricePrecision) throw errors.badPrecision();
    if (!onStep(triggerPrice, inst.tickSize)) throw errors.priceNotOnTick();
    const closePosition = q.get('closePosition') === 'true';
    if (closePosition && q.has('quantity')) throw errors.notRequired('quantity');
    if (closePosition && q.has('reduceOnly')) throw errors.notRequired('reduceOnly');
    if (!closePosition && !q.get('quantity')) throw errors.mandatory('quantity');
    const workingType = q.get('workingType') === 'MARK_PRICE' ? 'MARK_PRICE' : 'CONTRACT_PRICE';
    if (crossed(side, triggerPrice, mark)) throw wouldTrigger();
    if (closePosition && this.open(inst.id).some((o) => o.closePosition && o.side === side)) throw closeStopExists();
    const record: AlgoRecord = {
      algoId: this.nextAlgoId++,
      clientAlgoId,
      symbol: inst.id,
      side,
      triggerPrice,
      quantity: closePosition ? 0 : Number(q.get('quantity')),
      closePosition,
      reduceOnly: closePosition || q.get('reduceOnly') === 'true',
      workingType,
      algoStatus: 'NEW',
      createTime: now,
      updateTime: now,
      triggerTime: 0,
      actualOrderId: null,
    };
    this.records.push(record);
    return record;
  }

  open(symbol?: string): AlgoRecord[] {
    return this.records.filter((o) => o.algoStatus === 'NEW' && (symbol === undefined || o.symbol === symbol));
  }

  find(symbol: string, ref: { algoId?: number; clientAlgoId?: string }): AlgoRecord | undefined {
    const mine = this.records.filter((o) => o.symbol === symbol);
    if (ref.algoId !== undefined) return mine.find((o) => o.algoId === ref.algoId);
    return mine.reverse().find((o) => o.clientAlgoId === ref.clientAlgoId);
  }

  cancel(symbol: string, ref: { algoId?: number; clientAlgoId?: string }, now: number): AlgoRecord {
    const order = this.find(symbol, ref);
    if (!order || order.algoStatus !== 'NEW') throw errors.unknownOrderSent();
    order.algoStatus = 'CANCELED';
    order.updateTime = now;
    return order;
  }

  cancelAll(symbol: string, now: number): void {
    for (const order of this.open(symbol)) {
      order.algoStatus = 'CANCELED';
      order.updateTime = now;
    }
  }

  /**
   * The stops the mark has crossed, marked triggered; `close` sends each to the book as a reduce-only
   * market order of `qty` and returns its order id, or null when there is nothing to close (expired).
   */
  trigger(
    markOf: (symbol: string) => number,
    positionOf: (symbol: string) => number,
    close: (o: AlgoRecord, qty: number) => number,
    now: number,
  ): void {
    for (const order of this.open()) {
      if (!crossed(order.side, order.triggerPrice, markOf(order.symbol))) continue;
      const position = positionOf(order.symbol);
      const closable = (order.side === 'SELL') === position > 0 ? Math.abs(position) : 0;
      const qty = order.closePosition ? closable : Math.min(order.quantity, closable);
      order.triggerTime = now;
      order.updateTime = now;
      if (qty === 0) {
        order.algoStatus = 'EXPIRED';
        continue;
      }
      // TRIGGERED before the book order is sent: placing it settles the venue, which must not trigger it again.
      order.algoStatus = 'TRIGGERED';
      order.actualOrderId = close(order, qty);
      order.algoStatus = 'FINISHED';
    }
  }
}

/** A SELL stop (a long's) triggers at or below its price; a BUY stop at or above. */
function crossed(side: Side, triggerPrice: number, mark: number): boolean {
  return side === 'SELL' ? mark <= triggerPrice : mark >= triggerPrice;
}
