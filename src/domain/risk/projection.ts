/**
 * The account as the risk engine (and the allocator, which sizes to fit it) sees it: positions plus
 * everything that can still fill — resting orders at the venue and orders approved earlier in the
 * same cycle that the venue has not acknowledged yet. Nothing here assumes an order will not fill:
 * per symbol, the worst case on a side is every order on that side filling in full, because a venue
 * fills resting orders whenever the market crosses them, long after the guards have looked.
 *
 * Reduce-only orders can only move a position toward zero (the venue caps their fill at what is
 * held), so on a side they count at most up to the position they reduce, and never beyond flat.
 */
import type { InstrumentKind } from '../market.js';
import type { OrderRequest, Side, VenueOrder } from '../orders.js';
import { sideSign } from '../orders.js';
import type { AccountSnapshot } from '../portfolio.js';

/** An order approved in this cycle and not yet acknowledged, with the price it is valued at. */
export interface PendingOrder {
  order: OrderRequest;
  /** The expected fill price (./expected-fill.ts). */
  price: number;
  /** Its expected fee and cost of crossing the spread, which the NAV after the cycle's orders loses. */
  cost?: number;
}

export interface SymbolBook {
  symbol: string;
  kind: InstrumentKind | null;
  /** Signed position held now. */
  position: number;
  /** Price the symbol is valued at: the position's mark, else the price of an order on it. */
  mark: number;
  /** Quantity that can still fill, by side; reduce-only kept apart (it never grows |position|). */
  open: Record<Side, number>;
  reduceOnly: Record<Side, number>;
  /** Resting and pending orders counted for this symbol. */
  orders: number;
}

export interface Projection {
  nav: number;
  peakNav: number;
  books: Map<string, SymbolBook>;
  /** Resting orders (at the venue) and pending orders (this cycle) counted, over all symbols. */
  resting: number;
  pending: number;
  /** Σ expected cost of the pending orders: NAV once they fill is nav − pendingCost. */
  pendingCost: number;
}

/**
 * Builds the projection; orders that are not open or have nothing left to fill are ignored. `marks`
 * (this cycle's marks, ../market.ts valuationPrice) value every symbol they cover, so all symbols are valued alike; others
 * keep their position's mark, or the price of an order on them.
 */
export function projectAccount(
  account: AccountSnapshot,
  pending: readonly PendingOrder[] = [],
  marks?: ReadonlyMap<string, number>,
): Projection {
  const books = new Map<string, SymbolBook>();
  const bookOf = (symbol: string): SymbolBook => {
    let book = books.get(symbol);
    if (!book) {
      book = {
        symbol,
        kind: null,
        position: 0,
        mark: 0,
        open: { BUY: 0, SELL: 0 },
        reduceOnly: { BUY: 0, SELL: 0 },
        orders: 0,
      };
      books.set(symbol, book);
    }
    return book;
  };
  for (const p of account.positions) {
    const book = bookOf(p.symbol);
    book.kind = p.kind;
    book.position += p.qty;
    book.mark = p.markPrice;
  }
  let resting = 0;
  for (const o of account.openOrders) {
    if (!countsAsResting(o)) continue;
    addOrder(bookOf(o.symbol), o, o.qty - o.filledQty, o.limitPrice ?? 0);
    resting += 1;
  }
  let pendingCost = 0;
  for (const p of pending) {
    addOrder(bookOf(p.order.symbol), p.order, p.order.qty, p.price);
    if (p.cost !== undefined && Number.isFinite(p.cost) && p.cost > 0) pendingCost += p.cost;
  }
  for (const book of books.values()) {
    const mark = marks?.get(book.symbol);
    if (mark !== undefined && Number.isFinite(mark) && mark > 0) book.mark = mark;
  }
  return { nav: account.nav, peakNav: account.peakNav, books, resting, pending: pending.length, pendingCost };
}

function countsAsResting(o: VenueOrder): boolean {
  return o.status === 'open' && Number.isFinite(o.qty - o.filledQty) && o.qty - o.filledQty > 0;
}

function addOrder(book: SymbolBook, order: OrderRequest, remaining: number, price: number): void {
  if (!(remaining > 0)) return;
  if (order.reduceOnly) book.reduceOnly[order.side] += remaining;
  else book.open[order.side] += remaining;
  if (!(book.mark > 0) && price > 0) book.mark = price;
  book.orders += 1;
}

/**
 * The signed position if every order on `side` fills (the reduce-only ones first, capped at flat),
 * plus `extra` more on that side.
 */
export function worstPosition(book: SymbolBook, side: Side, extra = 0): number {
  const sign = sideSign(side);
  const reducible = Math.sign(book.position) === -sign ? Math.min(book.reduceOnly[side], Math.abs(book.position)) : 0;
  return book.position + sign * (reducible + book.open[side] + extra);
}

/** max over both sides of |worst position|: the most this symbol can come to hold. */
export function worstAbsPosition(book: SymbolBook, side: Side | null = null, extra = 0): number {
  const buy = Math.abs(worstPosition(book, 'BUY', side === 'BUY' ? extra : 0));
  const sell = Math.abs(worstPosition(book, 'SELL', side === 'SELL' ? extra : 0));
  return Math.max(buy, sell);
}
