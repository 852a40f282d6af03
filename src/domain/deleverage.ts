/**
 * The reduce-only order a deleverage command asks for: |position| × reduce_pct, rounded down to the
 * lot size and never more than the position, on the side that reduces it. Pure; the caller supplies
 * the live position (the API prepared the command from a snapshot that may be older). The payload
 * was validated when the queue decoded it (src/domain/commands.ts): reduce_pct is in (0, 1].
 */
import type { CommandPayload } from './commands.js';
import type { Instrument } from './market.js';
import { floorToLot } from './market.js';
import type { OrderRequest } from './orders.js';

export type DeleverageOrder =
  | { kind: 'order'; order: OrderRequest }
  | { kind: 'nothing'; message: string; positionQty: number }
  | { kind: 'invalid'; message: string };

export function deleverageOrder(
  commandId: string,
  payload: Readonly<CommandPayload<'deleverage'>>,
  instrument: Instrument | undefined,
  positionQty: number,
): DeleverageOrder {
  const { symbol, reduce_pct: reducePct } = payload;
  // A symbol this trading process does not trade (its whitelist changed since the API queued it).
  if (!instrument) return { kind: 'invalid', message: `${symbol} is not an instrument of this trading process` };
  const qty = Math.min(floorToLot(Math.abs(positionQty) * reducePct, instrument.lotSize), Math.abs(positionQty));
  if (qty <= 0) {
    const message =
      positionQty === 0 ? `no open position in ${symbol}` : `reduction below one lot (${instrument.lotSize})`;
    return { kind: 'nothing', message, positionQty };
  }
  return {
    kind: 'order',
    order: {
      clientOrderId: `dlv-${commandId}`,
      symbol,
      side: positionQty > 0 ? 'SELL' : 'BUY',
      qty,
      type: 'market',
      limitPrice: null,
      reduceOnly: true,
    },
  };
}
