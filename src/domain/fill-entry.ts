/**
 * The audit entry of a fill the cycle's own submissions do not hold (issue 35): a resting order that
 * filled in a later cycle, an exchange stop that triggered, or an order that filled on its way to
 * being cancelled. A decision entry records what filled at submission; these fills happen between
 * cycles, so each gets an `order_filled` entry of its own, and the audit trail (what the notifier,
 * the console and `tcs audit export` read) holds every fill. Pure.
 */
import { isExchangeStopId } from './exchange-stops.js';
import type { Fill } from './orders.js';

export const FILL_ENTRY_KIND = 'order_filled';

/**
 * How the fill came about: `resting` (a limit order filled after its cycle), `exchange_stop` (our
 * stop on the exchange closed a position), `cancel` (found by a cancel: it filled before the cancel
 * reached it).
 */
export type FillSource = 'resting' | 'exchange_stop' | 'cancel';

export interface FillEntryBody {
  client_order_id: string;
  symbol: string;
  side: Fill['side'];
  qty: number;
  price: number;
  /** Quote currency; negative is a rebate. */
  fee: number;
  liquidity: Fill['liquidity'];
  /** When the venue filled it (the entry's `at` is when it was recorded). */
  filled_at: string;
  source: FillSource;
  spread_cost?: number;
  slippage_cost?: number;
}

/** The entry's body; a fill under our exchange stop's id is told as that, whatever found it. */
export function fillEntryBody(fill: Fill, found: 'market' | 'cancel'): FillEntryBody {
  const source: FillSource = isExchangeStopId(fill.clientOrderId)
    ? 'exchange_stop'
    : found === 'cancel'
      ? 'cancel'
      : 'resting';
  return {
    client_order_id: fill.clientOrderId,
    symbol: fill.symbol,
    side: fill.side,
    qty: fill.qty,
    price: fill.price,
    fee: fill.fee,
    liquidity: fill.liquidity,
    filled_at: new Date(fill.ts).toISOString(),
    source,
    ...(fill.costs !== undefined && { spread_cost: fill.costs.spread, slippage_cost: fill.costs.slippage }),
  };
}
