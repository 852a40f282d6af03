/**
 * A spot account read as the system reads an account (issue 33, item 5): on an exchange whose
 * profile says `market: 'spot'` there are no positions to fetch, only balances. Here:
 *  - a "position" is the base asset held (the balance's total, free and locked), never short;
 *  - the NAV is the quote asset (USDT) plus each traded base asset at its mark (the book's mid);
 *    assets not traded here (BNB kept for fees, dust) are not counted;
 *  - the exchange keeps no entry price for a balance: the cost of what our own fills bought
 *    (average cost; a sell realizes against it) gives it, and a holding our fills do not explain
 *    (adopted at start, bought by hand) is valued at the mark it was first seen at.
 * Nothing here calls the exchange: the live venue reads the balance and marks and hands them in.
 */
import type { Balances } from 'ccxt';
import type { Fill } from '../../domain/orders.js';
import type { Position } from '../../domain/portfolio.js';

/** Our symbol's base and quote assets (ccxt's market `base` / `quote`). */
export interface SpotPair {
  symbol: string;
  base: string;
  quote: string;
}

/** What the account is worth now. */
export interface SpotValue {
  positions: Position[];
  nav: number;
  /** The quote asset held (free and locked). */
  cash: number;
}

interface Basis {
  qty: number;
  cost: number;
  realized: number;
}

/** Below this a balance is nothing held (ccxt's totals carry float noise). */
const DUST = 1e-12;

export class SpotHoldings {
  private readonly basis = new Map<string, Basis>();

  constructor(private readonly pairs: readonly SpotPair[]) {
    const quotes = new Set(pairs.map((p) => p.quote));
    // One quote asset: the NAV is counted in it, and a second one would need its own price.
    if (quotes.size > 1) throw new Error(`spot pairs must share one quote asset, got ${[...quotes].join(', ')}`);
    const bases = pairs.map((p) => p.base);
    // Two pairs on one base would both claim the same balance as their position.
    if (new Set(bases).size !== bases.length)
      throw new Error(`spot pairs must have distinct base assets: ${bases.join(', ')}`);
  }

  /** The base asset held for `symbol` (free and locked), from a ccxt balance. */
  held(balance: Balances, symbol: string): number {
    return total(balance, this.pair(symbol).base);
  }

  /** The base asset free to sell for `symbol` (what open sells do not lock). */
  free(balance: Balances, symbol: string): number {
    const entry = balance[this.pair(symbol).base] as { free?: number | string | null } | undefined;
    const free = Number(entry?.free ?? 0);
    return Number.isFinite(free) ? free : 0;
  }

  /** Counts one fill of ours into the symbol's cost basis. */
  record(fill: Fill): void {
    const b = this.basis.get(fill.symbol) ?? { qty: 0, cost: 0, realized: 0 };
    if (fill.side === 'BUY') {
      b.qty += fill.qty;
      b.cost += fill.qty * fill.price;
    } else {
      const sold = Math.min(fill.qty, b.qty);
      const average = b.qty > DUST ? b.cost / b.qty : fill.price;
      b.realized += sold * (fill.price - average);
      b.cost -= sold * average;
      b.qty -= sold;
    }
    this.basis.set(fill.symbol, b);
  }

  /**
   * The positions, the NAV and the cash from a balance and each symbol's mark. A symbol without a
   * mark cannot be valued: an error, never a NAV that leaves its holding out.
   */
  value(balance: Balances, marks: ReadonlyMap<string, number>): SpotValue {
    const quote = this.pairs[0]?.quote ?? 'USDT';
    const cash = total(balance, quote);
    let nav = cash;
    const positions: Position[] = [];
    for (const { symbol } of this.pairs) {
      const qty = this.held(balance, symbol);
      const basis = this.basis.get(symbol);
      if (qty <= DUST) {
        // Sold out (by us or by hand): what it cost is over; the realized stays.
        if (basis) Object.assign(basis, { qty: 0, cost: 0 });
        continue;
      }
      const mark = marks.get(symbol);
      if (mark === undefined || !Number.isFinite(mark) || mark <= 0)
        throw new Error(`no mark for ${symbol}: cannot value the ${this.pair(symbol).base} held`);
      nav += qty * mark;
      // What our fills bought at their cost, anything more at the mark (no cost known for it).
      const known = basis?.qty ?? 0;
      const entryPrice = ((basis?.cost ?? 0) + Math.max(0, qty - known) * mark) / Math.max(qty, known);
      positions.push({
        symbol,
        kind: 'spot',
        qty,
        entryPrice,
        markPrice: mark,
        unrealizedPnl: qty * (mark - entryPrice),
        realizedPnl: basis?.realized ?? 0,
      });
    }
    return { positions, nav, cash };
  }

  private pair(symbol: string): SpotPair {
    const pair = this.pairs.find((p) => p.symbol === symbol);
    if (!pair) throw new Error(`${symbol} is not a spot pair this venue trades`);
    return pair;
  }
}

function total(balance: Balances, asset: string): number {
  const entry = balance[asset] as { total?: number | string | null } | undefined;
  const value = Number(entry?.total ?? 0);
  return Number.isFinite(value) ? value : 0;
}
