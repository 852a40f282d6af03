/**
 * The fill rules of one replayed bar (MarketSnapshot.execution), for the paper venue only.
 *
 * Time: a decision is made at the end of bar t, which is the start of bar t+1, so the first price an
 * order can meet is bar t+1's open. Under FILL_MODEL=next_open a taker fills against the book bar t
 * implies (its spread and depth: ./derived-book.ts) moved to bar t+1's open; nothing of bar t+1 but
 * its open is used, and only here, never in a signal. Under `close` the taker book is the snapshot's
 * own (bar t's close: the fill the strategy saw, as before). On the last candle of the data there is
 * no next open, and next_open has no price: the venue refuses the taker (NO_NEXT_BAR).
 *
 * Resting limits fill against the range of the bar just replayed (high, low) up to a share of its
 * volume: the venue applies that (paper-venue/execution.ts), from the fields given here.
 */
import type { BarExecution, FillModel, Instrument, Quotes } from '../../../domain/market.js';
import { deriveBook } from './derived-book.js';
import type { DerivedBookShape } from './derived-book.js';
import type { CandleRows } from './candle-rows.js';
import { Float64ArrayIntrinsic } from '../../../domain/intrinsics.js';

/** Bar t: what its snapshot and fills use. */
export interface ReplayedBar {
  high: number;
  low: number;
  close: number;
  volume: number;
}

// The state behind `taker()` is in #private fields: not enumerable, so a snapshot that is logged or
// serialized shows the bar's high, low and volume, never the candle rows or the next open. The next
// open is read only when taker() is first asked, after the strategies have decided on bar t: until
// then the process holds nothing of bar t+1 (a streamed CSV replay reads it from the file then).
export class ReplayBarExecution implements BarExecution {
  readonly high: number;
  readonly low: number;
  readonly volume: number;
  readonly #rows: CandleRows;
  readonly #close: number;
  /** Index of the bar just replayed. */
  readonly #i: number;
  /** The candle length (the derived book's depth is per minute of it). */
  readonly #stepMs: number;
  readonly #instrument: Instrument;
  readonly #shape: DerivedBookShape;
  /** FILL_MODEL=close: bar t's own book, which the taker takes; null under next_open. */
  readonly #own: Quotes | null;
  /** undefined until first asked: most bars see no order, and deriving a book costs. */
  #book: Quotes | null | undefined;

  constructor(
    rows: CandleRows,
    bar: ReplayedBar,
    i: number,
    stepMs: number,
    own: Quotes,
    model: FillModel,
    instrument: Instrument,
    shape: DerivedBookShape,
  ) {
    this.high = bar.high;
    this.low = bar.low;
    this.volume = bar.volume;
    this.#close = bar.close;
    this.#rows = rows;
    this.#i = i;
    this.#stepMs = stepMs;
    this.#instrument = instrument;
    this.#shape = shape;
    this.#own = model === 'close' ? own : null;
  }

  /** The taker's book, with the price it was placed around as `last` (MARK_PRICE=close marks a fill there). */
  taker(): Quotes | null {
    if (this.#book !== undefined) return this.#book;
    if (this.#own !== null) {
      this.#book = { ...this.#own, last: this.#close };
      return this.#book;
    }
    const next = this.#i + 1;
    if (next >= this.#rows.count) {
      this.#book = null;
      return null;
    }
    const row = new Float64ArrayIntrinsic(5);
    this.#rows.read(next, row);
    const open = row[0]!;
    // Bar t's range and volume (known at the decision) shape the book; bar t+1's open places it.
    const bar = { high: this.high, low: this.low, volume: this.volume, stepMs: this.#stepMs };
    this.#book = { ...deriveBook({ ...bar, close: open }, this.#instrument, this.#shape), last: open };
    return this.#book;
  }
}
