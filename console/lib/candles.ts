/**
 * The candle chart's data (issue 35): each symbol's candles from the decision log (every entry
 * records the bar each feed just closed: src/domain/cycle-candles.ts), and our fills from the same
 * log on them as markers at their price, each on the bar its own decision entry recorded (the bar
 * the cycle decided on). One bar's buys (or sells) are one marker with their total quantity and
 * average price. Pure, tested without a browser.
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

/**
 * Each symbol's candles (bar open time in epoch s → candle), and which bar each decision entry
 * recorded for it (entry seq → bar time): a fill is marked on its own entry's bar.
 */
export interface CandleBook {
  bars: ReadonlyMap<string, ReadonlyMap<number, Candle>>;
  recordedBy: ReadonlyMap<string, ReadonlyMap<number, number>>;
}

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
/** Bars kept per symbol: a tab left open for days at short cycles does not grow without end. */
const MAX_BARS = 5_000;

export const NO_CANDLES: CandleBook = { bars: new Map(), recordedBy: new Map() };

const isCandle = (bar: unknown): bar is [number, number, number, number, number] =>
  Array.isArray(bar) && bar.length === 5 && bar.every((v) => typeof v === 'number' && Number.isFinite(v));

/** The page's candles with those of `entries` added; a later record of a bar replaces an earlier one. */
export function mergeCandles(book: CandleBook, entries: readonly DecisionEntry[]): CandleBook {
  const bars = new Map([...book.bars].map(([symbol, m]) => [symbol, new Map(m)]));
  const recordedBy = new Map([...book.recordedBy].map(([symbol, m]) => [symbol, new Map(m)]));
  for (const e of [...entries].sort((a, b) => a.seq - b.seq)) {
    const candles = (e.decision as { candles?: unknown }).candles;
    if (typeof candles !== 'object' || candles === null) continue;
    for (const [symbol, bar] of Object.entries(candles)) {
      if (!isCandle(bar)) continue;
      const [t, open, high, low, close] = bar;
      const time = Math.floor(t / 1000);
      let series = bars.get(symbol);
      if (!series) bars.set(symbol, (series = new Map()));
      series.set(time, { time, open, high, low, close });
      let seqs = recordedBy.get(symbol);
      if (!seqs) recordedBy.set(symbol, (seqs = new Map()));
      seqs.set(e.seq, time);
    }
  }
  for (const [symbol, series] of bars) {
    if (series.size <= MAX_BARS) continue;
    const keep = [...series.keys()].sort((a, b) => a - b).slice(-MAX_BARS);
    bars.set(symbol, new Map(keep.map((t) => [t, series.get(t)!])));
    const first = keep[0]!;
    const seqs = recordedBy.get(symbol)!;
    for (const [seq, time] of seqs) if (time < first) seqs.delete(seq);
  }
  return { bars, recordedBy };
}

/** One symbol's candles in time order. */
export function candleSeries(book: CandleBook, symbol: string): Candle[] {
  return [...(book.bars.get(symbol)?.values() ?? [])].sort((a, b) => a.time - b.time);
}

/**
 * The symbol's fills as markers (time order), each on the bar its decision entry recorded: the
 * bar the cycle decided on, whatever clock the feed's bars run on (the synthetic market's is not
 * the wall clock the entries are stamped with). A fill between cycles (an `order_filled` entry: a
 * resting order, an exchange stop) is recorded as the cycle's market advances, before that cycle's
 * decision: it goes on the bar of the next decision entry. A fill with no such bar is left out.
 */
export function fillMarkers(fills: readonly FillRow[], symbol: string, book: CandleBook): FillMarker[] {
  const seqs = book.recordedBy.get(symbol);
  const recorded = seqs ? [...seqs.keys()].sort((a, b) => a - b) : [];
  /** The bar of the first decision entry at or after `seq` (binary search). */
  const barFrom = (seq: number): number | undefined => {
    let lo = 0;
    let hi = recorded.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (recorded[mid]! < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo < recorded.length ? seqs!.get(recorded[lo]!) : undefined;
  };
  const groups = new Map<
    string,
    { time: number; side: 'BUY' | 'SELL'; count: number; qty: number; notional: number }
  >();
  for (const f of fills) {
    if (f.symbol !== symbol || f.price === null || (f.side !== 'BUY' && f.side !== 'SELL')) continue;
    const time = f.cycle === null ? barFrom(f.seq) : seqs?.get(f.seq);
    if (time === undefined) continue;
    const key = `${time}:${f.side}`;
    const g = groups.get(key) ?? { time, side: f.side, count: 0, qty: 0, notional: 0 };
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
