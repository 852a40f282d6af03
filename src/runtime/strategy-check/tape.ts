/**
 * The market of a strategy check, recorded once from the real feed (the file replay or the seeded
 * synthetic market, opened as `tcs simulate` opens them) so that every replay of the check reads
 * the same bars: per symbol the candle columns, the history before the first cycle included, and per
 * cycle what the snapshot said besides its candles (book, funding, volume). `truncate` makes the tape
 * of a run that ended at a cycle: columns copied up to that cycle's bar, so a replay of it holds no
 * later bar anywhere in memory it hands out.
 */
import type { Bars } from '../../domain/bars.js';
import { Float64ArrayIntrinsic } from '../../domain/intrinsics.js';
import type { BookLevel, Instrument, MarketSnapshot, MarketView } from '../../domain/market.js';
import type { MarketFeed } from '../../ports/market-feed.js';

/** Book levels kept per cycle: strategies read the top of the book; a deep copy per cycle is memory for nothing. */
const BOOK_LEVELS = 5;

const FIELDS = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;

/** What a cycle's snapshot said of one symbol, its candles aside. */
interface CycleQuote {
  /** Index in the columns of the cycle's last (just closed) bar. */
  end: number;
  ts: number;
  last: number;
  bid: number;
  ask: number;
  bids: BookLevel[];
  asks: BookLevel[];
  volume: number;
  fundingRate: number | null;
  nextFundingTs: number | null;
}

export interface TapeSymbol {
  columns: Bars;
  /** One per cycle; null when the feed had no snapshot of the symbol in that cycle. */
  quotes: (CycleQuote | null)[];
}

export interface Tape {
  instruments: readonly Instrument[];
  stepMs: number;
  cycles: number;
  symbols: ReadonlyMap<string, TapeSymbol>;
}

/** Reads `cycles` cycles of `feed`, the first at `start`, one step apart. */
export async function recordTape(feed: MarketFeed, start: number, stepMs: number, cycles: number): Promise<Tape> {
  const rows = new Map<string, { columns: Record<(typeof FIELDS)[number], number[]>; quotes: (CycleQuote | null)[] }>();
  for (const instrument of feed.instruments)
    rows.set(instrument.symbol, {
      columns: { time: [], open: [], high: [], low: [], close: [], volume: [] },
      quotes: [],
    });
  for (let cycle = 0; cycle < cycles; cycle++) {
    const view: MarketView = await feed.next(start + cycle * stepMs);
    for (const [symbol, row] of rows) {
      const snapshot = view.get(symbol);
      row.quotes.push(snapshot === undefined ? null : append(row.columns, snapshot));
    }
  }
  await feed.close?.();
  const symbols = new Map<string, TapeSymbol>();
  for (const [symbol, row] of rows) symbols.set(symbol, { columns: toBars(row.columns), quotes: row.quotes });
  return { instruments: feed.instruments, stepMs, cycles, symbols };
}

/** Adds the snapshot's bars not yet recorded (all of them at the first cycle: the history) and its quote. */
function append(columns: Record<(typeof FIELDS)[number], number[]>, s: MarketSnapshot): CycleQuote {
  const last = columns.time.length === 0 ? Number.NEGATIVE_INFINITY : columns.time[columns.time.length - 1]!;
  let from = s.bars.length;
  while (from > 0 && s.bars.time[from - 1]! > last) from--;
  for (let i = from; i < s.bars.length; i++) for (const f of FIELDS) columns[f].push(s.bars[f][i]!);
  return {
    end: columns.time.length - 1,
    ts: s.ts,
    last: s.last,
    bid: s.bid,
    ask: s.ask,
    bids: s.bids.slice(0, BOOK_LEVELS).map((l) => ({ price: l.price, qty: l.qty })),
    asks: s.asks.slice(0, BOOK_LEVELS).map((l) => ({ price: l.price, qty: l.qty })),
    volume: s.volume,
    fundingRate: s.fundingRate,
    nextFundingTs: s.nextFundingTs,
  };
}

function toBars(columns: Record<(typeof FIELDS)[number], number[]>): Bars {
  const of = (f: (typeof FIELDS)[number]) => Float64ArrayIntrinsic.from(columns[f]);
  return {
    length: columns.time.length,
    time: of('time'),
    open: of('open'),
    high: of('high'),
    low: of('low'),
    close: of('close'),
    volume: of('volume'),
  };
}

/** The tape of a run that ended with cycle `cut`: every column copied up to that cycle's bars, nothing later. */
export function truncate(tape: Tape, cut: number): Tape {
  const symbols = new Map<string, TapeSymbol>();
  for (const [symbol, t] of tape.symbols) {
    const quotes = t.quotes.slice(0, cut + 1);
    let end = -1;
    for (const q of quotes) if (q !== null) end = q.end;
    const n = end + 1;
    const c = t.columns;
    symbols.set(symbol, {
      quotes,
      columns: {
        length: n,
        time: c.time.slice(0, n),
        open: c.open.slice(0, n),
        high: c.high.slice(0, n),
        low: c.low.slice(0, n),
        close: c.close.slice(0, n),
        volume: c.volume.slice(0, n),
      },
    });
  }
  return { ...tape, cycles: cut + 1, symbols };
}

/** The market a cycle's snapshot showed, with a window of at most `window` bars ending at its bar. */
export function cycleView(tape: Tape, cycle: number, window: number): MarketView {
  const view = new Map<string, MarketSnapshot>();
  for (const [symbol, t] of tape.symbols) {
    const q = t.quotes[cycle];
    if (q === undefined || q === null) continue;
    const from = Math.max(0, q.end - window + 1);
    const c = t.columns;
    const to = q.end + 1;
    view.set(symbol, {
      symbol,
      ts: q.ts,
      last: q.last,
      bid: q.bid,
      ask: q.ask,
      bids: q.bids,
      asks: q.asks,
      bars: {
        length: to - from,
        time: c.time.subarray(from, to),
        open: c.open.subarray(from, to),
        high: c.high.subarray(from, to),
        low: c.low.subarray(from, to),
        close: c.close.subarray(from, to),
        volume: c.volume.subarray(from, to),
      },
      volume: q.volume,
      fundingRate: q.fundingRate,
      nextFundingTs: q.nextFundingTs,
    });
  }
  return view;
}
