/**
 * Historical replay: the MarketFeed of `MARKET_DATA=file:<dir>`. Each `next(now)` replays one
 * candle of every symbol (all on the same candle time) and stamps the snapshots `now`. The replay
 * is shifted in time by now − (candle close time), and funding times by the same amount, so it is
 * consistent under any clock; in `tcs simulate` the clock is the candle close time and the shift is
 * zero. When the last candle has been replayed, `next` throws FeedExhaustedError: a simulator
 * stops there, and a trading process fails loudly instead of trading on repeated data.
 *
 * Snapshot fields: last = close; closes = the last `historyLength` closes up to this candle
 * (taken from candles before `from` when the file has them, fewer at the very start of a file);
 * volume = base volume over those same candles; the book derived from the candle
 * (./derived-book.ts); fundingRate and nextFundingTs from ./funding-schedule.ts, null for spot.
 */
import type { Instrument, MarketSnapshot, MarketView } from '../../../domain/market.js';
import type { MarketFeed } from '../../../ports/market-feed.js';
import { loadDataDir } from './data-dir.js';
import { iso } from './data-errors.js';
import { DERIVED_BOOK_SHAPE, deriveBook } from './derived-book.js';
import type { DerivedBookShape } from './derived-book.js';
import { createFundingSchedule } from './funding-schedule.js';
import type { FundingPolicy, FundingSchedule } from './funding-schedule.js';
import { perpetualFunding } from './perp-funding.js';
import { replayWindow } from './replay-window.js';
import type { CandleSeries } from './series.js';

export interface FileFeedOptions {
  dir: string;
  instruments: readonly Instrument[];
  /** Epoch ms: replay from the first candle opening at or after it (default: the data's start). */
  from?: number;
  /** Epoch ms, exclusive: replay candles opening before it (default: to the data's end). */
  to?: number;
  /** Closes kept per symbol (and the volume window); default 60. */
  historyLength?: number;
  /** How the announced funding rate is chosen; default 'last-settled' (no look-ahead). */
  funding?: FundingPolicy;
  book?: Partial<DerivedBookShape>;
}

export interface FileFeed extends MarketFeed {
  /** Open times of the first and last replayed candle, and the timeframe. */
  readonly range: { first: number; last: number; stepMs: number; timeframe: string };
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
  candles: CandleSeries;
  offset: number;
  funding: FundingSchedule | null;
}

/** Loads and validates the data (throws a DataFileError naming file and line), then replays it. */
export async function createFileFeed(options: FileFeedOptions): Promise<FileFeed> {
  const historyLength = options.historyLength ?? 60;
  if (!Number.isInteger(historyLength) || historyLength < 1)
    throw new RangeError('historyLength must be a positive integer');
  if (options.instruments.length === 0) throw new RangeError('a file feed needs at least one instrument');
  const shape: DerivedBookShape = { ...DERIVED_BOOK_SHAPE, ...options.book };
  const instruments = options.instruments.map((i) => ({ ...i }));
  const data = await loadDataDir(
    options.dir,
    instruments.map((i) => i.symbol),
  );
  const window = replayWindow(data.symbols, data.stepMs, options.from, options.to);
  const tracks: Track[] = data.symbols.map((s, k) => {
    const instrument = instruments[k]!;
    let funding: FundingSchedule | null = null;
    if (instrument.kind === 'perp') {
      funding = createFundingSchedule(perpetualFunding(s), options.funding ?? 'last-settled');
    }
    return { instrument, candles: s.candles, offset: window.offsets[k]!, funding };
  });
  const total = (window.last - window.first) / window.stepMs + 1;
  const stepMs = window.stepMs;
  let cursor = 0; // candles replayed so far

  return {
    instruments,
    range: { first: window.first, last: window.last, stepMs, timeframe: data.timeframe },
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
  };

  function snapshot(track: Track, i: number, now: number, closeTime: number, shift: number): MarketSnapshot {
    const { candles, instrument } = track;
    const from = Math.max(0, i - historyLength + 1);
    const closes = Array.from(candles.close.subarray(from, i + 1));
    let volume = 0;
    for (let j = from; j <= i; j++) volume += candles.volume[j]!;
    const close = candles.close[i]!;
    const book = deriveBook(
      { high: candles.high[i]!, low: candles.low[i]!, close, volume: candles.volume[i]!, stepMs },
      instrument,
      shape,
    );
    const funding = track.funding?.at(closeTime);
    return {
      symbol: instrument.symbol,
      ts: now,
      last: close,
      ...book,
      closes,
      volume,
      fundingRate: funding ? funding.rate : null,
      nextFundingTs: funding ? funding.nextTs + shift : null,
    };
  }
}
