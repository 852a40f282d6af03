/**
 * Historical replay: the MarketFeed of `MARKET_DATA=file:<dir>`. Each `next(now)` replays one
 * candle of every symbol (all on the same candle time) and stamps the snapshots `now`. The replay
 * is shifted in time by now − (candle close time), and funding times by the same amount, so it is
 * consistent under any clock; in `tcs simulate` the clock is the candle close time and the shift is
 * zero. When the last candle has been replayed, `next` throws FeedExhaustedError: a simulator
 * stops there, and a trading process fails loudly instead of trading on repeated data.
 *
 * The feed holds no candle it has not replayed: a CSV file is indexed when the feed opens (every row
 * validated, only where each row starts kept) and each candle is read from the file when its cycle
 * comes, the next one's open only when the venue asks for a fill (./candle-rows.ts, ./bar-execution.ts).
 *
 * Snapshot fields: last = close; bars = the last `historyLength` candles up to this one, copied into
 * a window of the feed's own; the first replayed candle is the first with that much history
 * before it (see replay-window.ts: a replay starts after its warm-up); volume = base volume over the
 * last VOLUME_WINDOW_BARS candles; the book derived from the candle
 * (./derived-book.ts); fundingRate, nextFundingTs and settledFunding (the settlements the paper venue
 * pays, each at its own rate) from ./funding-schedule.ts, null for spot; execution, where the paper venue
 * fills against this bar (./bar-execution.ts, FILL_MODEL).
 */
import { BarWindow } from '../../../domain/bars.js';
import { VOLUME_WINDOW_BARS } from '../../../domain/market.js';
import type { FillModel, Instrument, MarketSnapshot, MarketView } from '../../../domain/market.js';
import type { MarketFeed } from '../../../ports/market-feed.js';
import { ReplayBarExecution } from './bar-execution.js';
import { indexDataDir } from './data-dir.js';
import type { DataDirectory } from './data-dir.js';
import type { CandleRows } from './candle-rows.js';
import { iso } from './data-errors.js';
import { DERIVED_BOOK_SHAPE, deriveBook } from './derived-book.js';
import type { DerivedBookShape } from './derived-book.js';
import { createFundingSchedule } from './funding-schedule.js';
import type { FundingPolicy, FundingSchedule, Settlement } from './funding-schedule.js';
import { perpetualFunding } from './perp-funding.js';
import { replayWindow } from './replay-window.js';
import { Float64ArrayIntrinsic } from '../../../domain/intrinsics.js';

export interface FileFeedOptions {
  dir: string;
  /**
   * The directory already indexed (indexDataDir(dir, the instruments' symbols)): `tcs simulate`
   * indexes it before any strategy module is imported, so no module's patched globals see the rows
   * go by. Indexed here when absent.
   */
  data?: DataDirectory<CandleRows>;
  instruments: readonly Instrument[];
  /** Epoch ms: replay from the first candle opening at or after it (default: the data's start). */
  from?: number;
  /** Epoch ms, exclusive: replay candles opening before it (default: to the data's end). */
  to?: number;
  /**
   * Candles of history every snapshot carries (the strategies' lookback; the trading process and
   * `tcs simulate` pass theirs, DEFAULT_HISTORY_BARS or more); default 1, no warm-up. A function is
   * given the data's candle length once it is loaded (a lookback in bars depends on it).
   */
  historyLength?: number | ((stepMs: number) => number);
  /**
   * Candles the first replayed snapshot must hold (the longest lookback the strategies declared; at
   * most historyLength): the replay starts after them. Default 1, no warm-up. Number or function as above.
   */
  warmUp?: number | ((stepMs: number) => number);
  /** How the announced funding rate is chosen; default 'last-settled' (no look-ahead). */
  funding?: FundingPolicy;
  book?: Partial<DerivedBookShape>;
  /** Where takers fill (./bar-execution.ts); default 'next_open', the next bar's open. */
  fillModel?: FillModel;
}

export interface FileFeed extends MarketFeed {
  /** Closes the data files (a CSV replay reads each candle from its file when its cycle comes). */
  close(): Promise<void>;
  /** Open times of the first and last replayed candle, and the timeframe. */
  readonly range: { first: number; last: number; stepMs: number; timeframe: string };
  /** Candles before the first replayed one that serve as history, and the start asked for if that moved it. */
  readonly warmUp: { bars: number; movedFrom: number | null };
  /** Candles left to replay; 0 once exhausted. */
  readonly remaining: number;
  /** Open time of the candle the next `next()` replays; null once exhausted. */
  readonly nextCandleTime: number | null;
}

export class FeedExhaustedError extends Error {
  override readonly name = 'FeedExhaustedError';
  readonly code = 'FEED_EXHAUSTED';
}

interface Track {
  instrument: Instrument;
  rows: CandleRows;
  /** The candle just read: open, high, low, close, volume. */
  row: Float64Array;
  /** The volumes of the last VOLUME_WINDOW_BARS candles read, oldest at `volumeHead` once full. */
  volumes: Float64Array;
  volumeHead: number;
  offset: number;
  funding: FundingSchedule | null;
  /**
   * The bars strategies get: the newest `historyLength` candles copied into a window of their own.
   * Views into a store of the whole file would hand a strategy the future through their `.buffer`.
   */
  window: BarWindow;
  /** The last candle index copied into `window` (-1: none yet). */
  copied: number;
}

/** Loads and validates the data (throws a DataFileError naming file and line), then replays it. */
export async function createFileFeed(options: FileFeedOptions): Promise<FileFeed> {
  if (options.instruments.length === 0) throw new RangeError('a file feed needs at least one instrument');
  const shape: DerivedBookShape = { ...DERIVED_BOOK_SHAPE, ...options.book };
  const fillModel = options.fillModel ?? 'next_open';
  const instruments = options.instruments.map((i) => ({ ...i }));
  const data =
    options.data ??
    (await indexDataDir(
      options.dir,
      instruments.map((i) => i.symbol),
    ));
  const wanted = options.historyLength ?? 1;
  const historyLength = typeof wanted === 'function' ? wanted(data.stepMs) : wanted;
  if (!Number.isInteger(historyLength) || historyLength < 1)
    throw new RangeError('historyLength must be a positive integer');
  const warmUpWanted = options.warmUp ?? 1;
  const warmUp = Math.min(historyLength, typeof warmUpWanted === 'function' ? warmUpWanted(data.stepMs) : warmUpWanted);
  // What the data lacks (a perpetual's funding) is reported before what the window cannot fit.
  const fundings = data.symbols.map((s, k): FundingSchedule | null =>
    instruments[k]!.kind === 'perp'
      ? createFundingSchedule(perpetualFunding(s), options.funding ?? 'last-settled')
      : null,
  );
  const window = replayWindow(data.symbols, data.stepMs, options.from, options.to, warmUp);
  const tracks: Track[] = data.symbols.map((s, k) => {
    const instrument = instruments[k]!;
    const funding = fundings[k]!;
    return {
      instrument,
      rows: s.candles,
      row: new Float64ArrayIntrinsic(5),
      volumes: new Float64ArrayIntrinsic(VOLUME_WINDOW_BARS),
      volumeHead: 0,
      offset: window.offsets[k]!,
      funding,
      window: new BarWindow(historyLength),
      copied: -1,
    };
  });
  // The first snapshot reads the history before it: the window's, and the volume window's.
  const readBack = Math.max(historyLength, VOLUME_WINDOW_BARS);
  const total = (window.last - window.first) / window.stepMs + 1;
  const stepMs = window.stepMs;
  let cursor = 0; // candles replayed so far

  return {
    instruments,
    barMs: stepMs,
    range: { first: window.first, last: window.last, stepMs, timeframe: data.timeframe },
    warmUp: window.warmUp,
    get remaining() {
      return total - cursor;
    },
    get nextCandleTime() {
      return cursor < total ? window.first + cursor * stepMs : null;
    },
    async next(now: number): Promise<MarketView> {
      if (cursor >= total) {
        throw new FeedExhaustedError(
          `market data exhausted: the last candle of ${options.dir} (open ${iso(window.last)}) has been replayed`,
        );
      }
      const closeTime = window.first + cursor * stepMs + stepMs;
      const shift = now - closeTime;
      const view = new Map<string, MarketSnapshot>();
      for (const track of tracks)
        view.set(track.instrument.symbol, snapshot(track, track.offset + cursor, now, closeTime, shift));
      cursor += 1;
      return view;
    },
    async close() {
      for (const track of tracks) track.rows.close();
    },
  };

  function snapshot(track: Track, i: number, now: number, closeTime: number, shift: number): MarketSnapshot {
    const { rows, row, volumes, instrument } = track;
    for (let j = Math.max(0, i - readBack + 1, track.copied + 1); j <= i; j++) {
      rows.read(j, row);
      volumes[track.volumeHead] = row[4]!;
      track.volumeHead = (track.volumeHead + 1) % VOLUME_WINDOW_BARS;
      if (j > i - historyLength)
        track.window.pushValues(rows.start + j * stepMs, row[0]!, row[1]!, row[2]!, row[3]!, row[4]!);
    }
    track.copied = i;
    const bars = track.window.view();
    // Summed oldest first over the candles read (fewer than the window at the file's start), as ever.
    const held = Math.min(i + 1, VOLUME_WINDOW_BARS);
    let volume = 0;
    // Oldest first: from `held` slots behind the head to the end of the ring, then from its start.
    const oldest = track.volumeHead - held;
    if (oldest < 0) for (let k = oldest + VOLUME_WINDOW_BARS; k < VOLUME_WINDOW_BARS; k++) volume += volumes[k]!;
    for (let k = Math.max(0, oldest); k < track.volumeHead; k++) volume += volumes[k]!;
    const bar = { high: row[1]!, low: row[2]!, close: row[3]!, volume: row[4]! };
    const close = bar.close;
    const book = deriveBook({ high: bar.high, low: bar.low, close, volume: bar.volume, stepMs }, instrument, shape);
    const funding = track.funding?.at(closeTime);
    // The book's fields by name, in the order the spread of `book` gave them (a snapshot's keys are its JSON's).
    return {
      symbol: instrument.symbol,
      ts: now,
      last: close,
      bid: book.bid,
      ask: book.ask,
      bids: book.bids,
      asks: book.asks,
      bars,
      volume,
      fundingRate: funding ? funding.rate : null,
      nextFundingTs: funding ? funding.nextTs + shift : null,
      ...(funding ? { settledFunding: shiftSettlements(funding.settled, shift) } : {}),
      execution: new ReplayBarExecution(rows, bar, i, stepMs, book, fillModel, instrument, shape),
    };
  }
}

/** Settlements on the caller's clock; the schedule's own list when the clock is the candles' (tcs simulate). */
function shiftSettlements(settled: readonly Settlement[], shift: number): readonly Settlement[] {
  if (shift === 0 || settled.length === 0) return settled;
  return settled.map((s) => ({ ts: s.ts + shift, rate: s.rate }));
}
