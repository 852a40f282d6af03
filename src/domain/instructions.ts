/**
 * Instructions the control plane prepares (spec section 4): cancel instructions for the kill switch
 * and cancel-all, and the reduce-only order for deleverage. Pure: the API enqueues them as commands
 * and the trading process carries them out.
 */
import type { Instrument } from './market.js';
import { floorToLot } from './market.js';
import type { Side } from './orders.js';
import type { Position } from './portfolio.js';

export type CancelTool = 'cancel_all_orders' | 'cancel_spot_all_orders';

export interface CancelInstruction {
  tool: CancelTool;
  symbol: string;
}

/** Futures symbols use `cancel_all_orders`, spot symbols `cancel_spot_all_orders`. */
export function cancelInstructionsFor(instruments: readonly Instrument[]): CancelInstruction[] {
  return instruments.map((i) => ({
    tool: i.kind === 'spot' ? 'cancel_spot_all_orders' : 'cancel_all_orders',
    symbol: i.symbol,
  }));
}

export interface DeleverageOrder {
  symbol: string;
  side: Side;
  qty: number;
  type: 'market';
  reduce_only: true;
}

export type DeleveragePlan =
  | { kind: 'order'; order: DeleverageOrder; position_qty: number }
  | { kind: 'nothing'; position_qty: number; message: string };

/**
 * The reduce-only order that lowers exposure on `instrument` by `reducePct` of the position:
 * side opposite the position, qty = |position| × reducePct rounded down to the lot size.
 */
export function planDeleverage(
  instrument: Instrument,
  position: Pick<Position, 'qty'> | undefined,
  reducePct: number,
): DeleveragePlan {
  if (!(reducePct > 0 && reducePct <= 1)) throw new RangeError('reducePct must be in (0, 1]');
  const positionQty = position?.qty ?? 0;
  if (positionQty === 0) {
    return {
      kind: 'nothing',
      position_qty: 0,
      message: `no open position in ${instrument.symbol}: nothing to deleverage`,
    };
  }
  const qty = Math.min(floorToLot(Math.abs(positionQty) * reducePct, instrument.lotSize), Math.abs(positionQty));
  if (qty <= 0) {
    return {
      kind: 'nothing',
      position_qty: positionQty,
      message: `${reducePct} of the ${instrument.symbol} position (${positionQty}) is below one lot (${instrument.lotSize}): nothing to deleverage`,
    };
  }
  return {
    kind: 'order',
    position_qty: positionQty,
    order: {
      symbol: instrument.symbol,
      side: positionQty > 0 ? 'SELL' : 'BUY',
      qty,
      type: 'market',
      reduce_only: true,
    },
  };
}
