/**
 * The risk figures of an account as an operator reads them, computed here from the venue's account
 * snapshot alone (not with the risk engine's own code, so the same file measures the code before and
 * after issue 7): largest per-symbol exposure, net and gross exposure, initial margin used, each as a
 * multiple of NAV; the same for the worst case in which every resting order fills; and a split of a
 * cycle's change into what price moves did and what the cycle's fills did.
 */
import type { MarginTable } from '../src/domain/margin.js';
import { DEFAULT_MARGIN_TABLE, marginRatesFor } from '../src/domain/margin.js';
import type { AccountSnapshot } from '../src/domain/portfolio.js';

/** The figures that have a limit (drawdown is handled apart: it has no quantity to split). */
export const FIGURES = ['symbol', 'net', 'gross', 'margin'] as const;
export type Figure = (typeof FIGURES)[number];
export type Figures = Record<Figure, number> & { symbolName: string };

/** Signed quantities and marks by symbol, and the NAV they are divided by. */
export interface Book {
  qty: Map<string, number>;
  mark: Map<string, number>;
  perp: Set<string>;
  nav: number;
}

export function bookOf(account: AccountSnapshot): Book {
  const qty = new Map<string, number>();
  const mark = new Map<string, number>();
  const perp = new Set<string>();
  for (const p of account.positions) {
    qty.set(p.symbol, (qty.get(p.symbol) ?? 0) + p.qty);
    mark.set(p.symbol, p.markPrice);
    if (p.kind !== 'spot') perp.add(p.symbol);
  }
  return { qty, mark, perp, nav: account.nav };
}

/** The worst case: per symbol, the larger |position| of "every resting buy fills" and "every resting sell fills". */
export function worstBookOf(account: AccountSnapshot): Book {
  const book = bookOf(account);
  const side = new Map<string, { buy: number; sell: number; reduceBuy: number; reduceSell: number }>();
  for (const o of account.openOrders) {
    const remaining = o.qty - o.filledQty;
    if (o.status !== 'open' || !(remaining > 0)) continue;
    const s = side.get(o.symbol) ?? { buy: 0, sell: 0, reduceBuy: 0, reduceSell: 0 };
    const buy = o.side === 'BUY';
    if (o.reduceOnly) {
      if (buy) s.reduceBuy += remaining;
      else s.reduceSell += remaining;
    } else if (buy) s.buy += remaining;
    else s.sell += remaining;
    side.set(o.symbol, s);
    if (!book.mark.has(o.symbol) && o.limitPrice) book.mark.set(o.symbol, o.limitPrice);
    if (!book.qty.has(o.symbol)) book.perp.add(o.symbol);
  }
  for (const [symbol, s] of side) {
    const q = book.qty.get(symbol) ?? 0;
    // Reduce-only orders can only bring the position to flat.
    const up = q + (q < 0 ? Math.min(s.reduceBuy, -q) : 0) + s.buy;
    const down = q - (q > 0 ? Math.min(s.reduceSell, q) : 0) - s.sell;
    book.qty.set(symbol, Math.abs(up) >= Math.abs(down) ? up : down);
  }
  return book;
}

export function figuresOf(book: Book, margin: MarginTable = DEFAULT_MARGIN_TABLE): Figures {
  let symbol = 0;
  let symbolName = '';
  let net = 0;
  let gross = 0;
  let used = 0;
  for (const [name, q] of book.qty) {
    const notional = q * (book.mark.get(name) ?? 0);
    const abs = Math.abs(notional);
    if (abs > symbol) [symbol, symbolName] = [abs, name];
    net += notional;
    gross += abs;
    if (book.perp.has(name)) used += marginRatesFor(margin, { symbol: name }).initial * abs;
  }
  const nav = book.nav;
  return { symbol: symbol / nav, symbolName, net: Math.abs(net) / nav, gross: gross / nav, margin: used / nav };
}

/**
 * A cycle's change of each figure, split in two: `price` is the old quantities revalued at the new
 * marks and NAV (what the market did to the account), `fills` is the rest: the new quantities at the
 * new marks minus the old ones (what the cycle's fills, resting or new, added).
 * `navBeforeFills` is the NAV after the price move and before the cycle's fills, when known (the
 * account the risk engine was shown): the fee and spread the fills paid then count as the fills'
 * part, as they should — a figure an order sized to its limit lands above once the cycle's other
 * orders have paid theirs is crossed by fills, not by price. Without it the NAV after the fills is
 * used (so those costs count as price). The fills' part is split once more: `qty`, the new
 * quantities at the NAV before the fills (the exposure the orders added or removed), and `cost`, the
 * rest (every ratio rises as the fills' fees and spread lower the NAV).
 */
export function splitChange(
  before: Book,
  after: Book,
  margin?: MarginTable,
  navBeforeFills?: number | null,
): Record<Figure, { price: number; fills: number; qty: number; cost: number }> {
  const oldAtNewPrices: Book = {
    qty: before.qty,
    mark: new Map(before.mark),
    perp: new Set(before.perp),
    nav: navBeforeFills ?? after.nav,
  };
  for (const [symbol, m] of after.mark) oldAtNewPrices.mark.set(symbol, m);
  for (const symbol of after.perp) oldAtNewPrices.perp.add(symbol);
  const f0 = figuresOf(before, margin);
  const fMid = figuresOf(oldAtNewPrices, margin);
  const f1 = figuresOf(after, margin);
  const fQty = figuresOf({ ...after, nav: oldAtNewPrices.nav }, margin);
  const out = {} as Record<Figure, { price: number; fills: number; qty: number; cost: number }>;
  for (const k of FIGURES)
    out[k] = { price: fMid[k] - f0[k], fills: f1[k] - fMid[k], qty: fQty[k] - fMid[k], cost: f1[k] - fQty[k] };
  return out;
}
