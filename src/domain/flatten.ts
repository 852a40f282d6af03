/**
 * The reduce-only market orders a flatten sends in one round: one per open position of the chosen
 * symbols (null: every position), each for the whole position rounded down to the lot size, on the
 * side that closes it. Pure; the caller supplies the live positions (the API queued the command from
 * a snapshot that may be older), so a flatten of what is already flat has nothing to send, and a
 * repeated or retried flatten can never overshoot. What cannot be closed (less than a lot, a symbol
 * this process does not trade) is reported, never sent.
 */
import type { Instrument } from './market.js';
import { floorToLot } from './market.js';
import type { OrderRequest } from './orders.js';
import type { Position } from './portfolio.js';

/** A position the round cannot close, and why. */
export interface FlattenLeftover {
  symbol: string;
  position_qty: number;
  why: string;
}

export interface FlattenRound {
  orders: OrderRequest[];
  left: FlattenLeftover[];
}

export interface FlattenRoundInput {
  commandId: string;
  /** The command's claim (attempt) and the round within it: together they make each order id unique. */
  claim: number;
  round: number;
  symbols: readonly string[] | null;
  instruments: ReadonlyMap<string, Instrument>;
  positions: readonly Pick<Position, 'symbol' | 'qty'>[];
}

export function flattenRound(input: FlattenRoundInput): FlattenRound {
  const wanted = input.symbols === null ? null : new Set(input.symbols);
  const orders: OrderRequest[] = [];
  const left: FlattenLeftover[] = [];
  for (const { symbol, qty: positionQty } of input.positions) {
    if (positionQty === 0 || (wanted !== null && !wanted.has(symbol))) continue;
    const instrument = input.instruments.get(symbol);
    if (!instrument) {
      left.push({ symbol, position_qty: positionQty, why: `${symbol} is not an instrument of this trading process` });
      continue;
    }
    const qty = Math.min(floorToLot(Math.abs(positionQty), instrument.lotSize), Math.abs(positionQty));
    if (qty <= 0) {
      left.push({ symbol, position_qty: positionQty, why: `below one lot (${instrument.lotSize})` });
      continue;
    }
    orders.push({
      clientOrderId: `flt-${input.commandId}-${input.claim}-${input.round}-${symbol}`,
      symbol,
      side: positionQty > 0 ? 'SELL' : 'BUY',
      qty,
      type: 'market',
      limitPrice: null,
      reduceOnly: true,
    });
  }
  return { orders, left };
}
