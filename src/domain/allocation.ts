/**
 * The allocator's rule: turn each selected signal into an order request sized from NAV and
 * confidence (src/domain/sizing.ts), priced on the side it would take, with a deterministic client
 * order id. Spot sells need holdings (spot cannot go short), so those signals are skipped here.
 */
import type { AccountSnapshot } from './portfolio.js';
import type { Instrument, MarketView } from './market.js';
import type { OrderRequest } from './orders.js';
import type { Signal } from './signal.js';
import { sizeOrder } from './sizing.js';
import { newClientOrderId } from './client-order-id.js';

export type OrderStyle = 'market' | 'passive';
export const ORDER_STYLES: readonly OrderStyle[] = ['market', 'passive'];

export interface AllocationSettings {
  riskFraction: number;
  /** market: take liquidity now; passive: a limit order joining the best quote on its own side. */
  orderStyle: OrderStyle;
  sessionId: string;
}

export interface Proposal {
  signal: Signal;
  /** The sized order, or null with the reason it could not be sized. */
  order: OrderRequest | null;
  skipped: { code: string; message: string } | null;
}

export function allocate(
  selected: readonly Signal[],
  ctx: { account: AccountSnapshot; market: MarketView; instruments: ReadonlyMap<string, Instrument>; cycle: number },
  settings: AllocationSettings,
): Proposal[] {
  return selected.map((signal, seq) => {
    const instrument = ctx.instruments.get(signal.symbol);
    const snapshot = ctx.market.get(signal.symbol);
    if (!instrument || !snapshot) return skip(signal, 'NO_MARKET', `no instrument or market data for ${signal.symbol}`);
    if (instrument.kind === 'spot' && signal.direction < 0) {
      const held = ctx.account.positions.find((p) => p.symbol === signal.symbol)?.qty ?? 0;
      if (held <= 0)
        return skip(
          signal,
          'SPOT_NOTHING_TO_SELL',
          `spot ${signal.symbol}: nothing held to sell (spot cannot go short)`,
        );
    }
    const buying = signal.direction > 0;
    const price = buying ? snapshot.ask : snapshot.bid;
    const sized = sizeOrder(signal, { nav: ctx.account.nav, price, instrument, riskFraction: settings.riskFraction });
    if (!sized.ok) return skip(signal, sized.code, sized.message);
    const passive = settings.orderStyle === 'passive';
    const order: OrderRequest = {
      clientOrderId: newClientOrderId(settings.sessionId, ctx.cycle, signal.symbol, seq),
      symbol: signal.symbol,
      side: sized.side,
      qty: sized.qty,
      type: passive ? 'limit' : 'market',
      // Passive orders join their own side of the book, so they rest until the market comes to them.
      limitPrice: passive ? (buying ? snapshot.bid : snapshot.ask) : null,
      reduceOnly: false,
    };
    return { signal, order, skipped: null };
  });
}

function skip(signal: Signal, code: string, message: string): Proposal {
  return { signal, order: null, skipped: { code, message } };
}
