/**
 * The candle chart's data (issue 35): each symbol's candles from the decision log (every entry
 * records the bar each feed just closed: src/domain/cycle-candles.ts), and our fills from the same
 * log on them as markers at their price. A fill is decided once its bar has closed, so it happened
 * during a later bar: it is marked on the latest bar that opened at or before it (the bar that opens
 * as the cycle decides, recorded by the next entry). One bar's buys (or sells) are one marker with
 * their total quantity and average price. Pure, tested without a browser.
 */
import { money, qty } from './format.js';
import type { FillRow } from './fills.js';
import type { DecisionEntry } from './types.js';

/** One candle as lightweight-charts takes it: time in epoch seconds (UTC). */
export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** symbol → bar open time (epoch s) → candle. */
export type CandleBook = ReadonlyMap<string, ReadonlyMap<number, Candle>>;

export interface FillMarker {
  time: number;
  position: 'atPriceBottom' | 'atPriceTop';
  price: number;
  shape: 'arrowUp' | 'arrowDown';
  color: string;
  text: string;
}

const BUY_COLOUR = '#0f7b3f';
const SELL_COLOUR = '#b91c1c';

/** The page's candles with those of `entries` added; a later record of a bar replaces an earlier one. */
export function mergeCandles(book: CandleBook, entries: readonly DecisionEntry[]): CandleBook {
  const out = new Map([...book].map(([symbol, bars]) => [symbol, new Map(bars)]));
  for (const e of [...entries].sort((a, b) => a.seq - b.seq)) {
    const candles = (e.decision as { candles?: unknown }).candles;
    if (typeof candles !== 'object' || candles === null) continue;
    for (const [symbol, bar] of Object.entries(candles)) {
      if (!Array.isArray(bar) || bar.length !== 5 || !bar.every((v) => typeof v === 'number' && Number.isFinite(v)))
        continue;
      const [t, open, high, low, close] = bar as number[];
      const time = Math.floor(t! / 1000);
      let bars = out.get(symbol);
      if (!bars) out.set(symbol, (bars = new Map()));
      bars.set(time, { time, open: open!, high: high!, low: low!, close: close! });
    }
  }
  return out;
}

/** One symbol's candles in time order. */
export function candleSeries(book: CandleBook, symbol: string): Candle[] {
  return [...(book.get(symbol)?.values() ?? [])].sort((a, b) => a.time - b.time);
}

/** The symbol's fills as markers on `candles` (time order); fills before the first candle are left out. */
export function fillMarkers(fills: readonly FillRow[], symbol: string, candles: readonly Candle[]): FillMarker[] {
  const groups = new Map<
    string,
    { time: number; side: 'BUY' | 'SELL'; count: number; qty: number; notional: number }
  >();
  for (const f of fills) {
    if (f.symbol !== symbol || f.price === null || (f.side !== 'BUY' && f.side !== 'SELL')) continue;
    const bar = barAtOrBefore(candles, Date.parse(f.at) / 1000);
    if (bar === null) continue;
    const key = `${bar.time}:${f.side}`;
    const g = groups.get(key) ?? { time: bar.time, side: f.side, count: 0, qty: 0, notional: 0 };
    g.count += 1;
    g.qty += f.qty;
    g.notional += f.qty * f.price;
    groups.set(key, g);
  }
  return [...groups.values()]
    .sort((a, b) => a.time - b.time || (a.side === 'BUY' ? -1 : 1))
    .map((g) => {
      const price = g.notional / g.qty;
      const buy = g.side === 'BUY';
      return {
        time: g.time,
        position: buy ? 'atPriceBottom' : 'atPriceTop',
        price,
        shape: buy ? 'arrowUp' : 'arrowDown',
        color: buy ? BUY_COLOUR : SELL_COLOUR,
        text: `${buy ? 'Buy' : 'Sell'} ${qty(g.qty)} @ ${money(price)}${g.count > 1 ? ` (${g.count} fills)` : ''}`,
      };
    });
}

/** The latest candle that opened at or before `t` (epoch s); null before the first. */
function barAtOrBefore(candles: readonly Candle[], t: number): Candle | null {
  let lo = 0;
  let hi = candles.length - 1;
  let found: Candle | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (candles[mid]!.time <= t) {
      found = candles[mid]!;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
