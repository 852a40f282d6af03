/**
 * Column stores for one symbol's candles and funding, and the builders that validate rows as the
 * readers push them. Validation lives here once, so a CSV file and a Parquet file with the same
 * rows give the same errors (only "line N" becomes "row N").
 *
 * Candles are kept as typed arrays, not objects: a year of minutes is 525,600 rows per symbol, and
 * ten symbols of objects would cost gigabytes. Timestamps are not stored at all once validated:
 * every row is exactly one timeframe after the previous one, so row i opens at start + i × step.
 */
import { DataFileError, showTs } from './data-errors.js';
import { TIMEFRAME_LIST, timeframeName } from '../../../domain/timeframes.js';
import { Float64ArrayIntrinsic } from '../../../domain/intrinsics.js';

export interface CandleSeries extends CandleSpan {
  /** Open time of the first candle, epoch ms. */
  start: number;
  /** The timeframe in ms; 0 when the file holds a single candle and nothing says the timeframe. */
  stepMs: number;
  count: number;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  /** Base units. */
  volume: Float64Array;
}

export interface FundingSeries {
  count: number;
  /** Settlement times, epoch ms, strictly ascending. */
  ts: Float64Array;
  /** Rate per funding interval as a fraction, positive = longs pay shorts. */
  rate: Float64Array;
}

/** Says where a row is: "line 12" for CSV, "row 11" for Parquet. */
export type Locate = (at: number) => string;

/** A Float64Array that doubles when full; `take()` returns exactly the rows pushed. */
class Column {
  private data: Float64Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Float64ArrayIntrinsic(Math.max(16, capacity));
  }
  push(x: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64ArrayIntrinsic(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = x;
  }
  take(): Float64Array {
    return this.length === this.data.length ? this.data : this.data.slice(0, this.length);
  }
}

/** A timestamp must be a whole, non-negative number of milliseconds that a Date can hold. */
function checkTimestamp(file: string, where: string, ts: number): void {
  if (!Number.isInteger(ts) || ts < 0 || ts > 8.64e15) {
    throw new DataFileError(file, `${where}: timestamp ${ts} is not whole epoch milliseconds`);
  }
}

const CANDLE_VALUE_NAMES = ['open', 'high', 'low', 'close', 'volume'];

/** Where a symbol's candles are in time: the first open, the timeframe and how many there are. */
export interface CandleSpan {
  start: number;
  /** 0 while a single candle leaves the timeframe unknown; the data directory sets it. */
  stepMs: number;
  count: number;
}

export class CandleBuilder {
  private readonly cols: Column[];
  private start = 0;
  private prev = NaN;
  private step: number;
  private rows = 0;

  constructor(
    private readonly file: string,
    private readonly locate: Locate,
    /** The timeframe from the manifest; inferred from the first two rows when undefined. */
    stepMs: number | undefined,
    capacity = 1024,
    /** false: validate only, keep no values (a streamed replay reads them again as it goes). */
    private readonly keep = true,
  ) {
    this.step = stepMs ?? 0;
    this.cols = keep ? Array.from({ length: 5 }, () => new Column(capacity)) : [];
  }

  get count(): number {
    return this.rows;
  }

  push(at: number, ts: number, open: number, high: number, low: number, close: number, volume: number): void {
    // The common row (valid, one timeframe after the last) passes the same checks as below without a
    // message, a closure or an array made for it: a replay's files are indexed row by row at start.
    if (
      this.rows > 0 &&
      this.step > 0 &&
      ts === this.prev + this.step &&
      Number.isInteger(ts) &&
      ts >= 0 &&
      ts <= 8.64e15 &&
      open > 0 &&
      high > 0 &&
      low > 0 &&
      close > 0 &&
      volume >= 0 &&
      Number.isFinite(open) &&
      Number.isFinite(high) &&
      Number.isFinite(low) &&
      Number.isFinite(close) &&
      Number.isFinite(volume) &&
      high >= Math.max(open, close) &&
      low <= Math.min(open, close)
    ) {
      this.prev = ts;
      this.keepRow(open, high, low, close, volume);
      return;
    }
    this.pushChecked(at, ts, open, high, low, close, volume);
  }

  /** Any row, each check in turn, failing with the first that does not hold. */
  private pushChecked(at: number, ts: number, open: number, high: number, low: number, close: number, volume: number) {
    const where = this.locate(at);
    const fail = (what: string): never => {
      throw new DataFileError(this.file, `${where}: ${what}`);
    };
    checkTimestamp(this.file, where, ts);
    if (this.count === 0) this.start = ts;
    else this.checkOrder(ts, fail);
    this.prev = ts;
    const values = [open, high, low, close, volume];
    const bad = values.findIndex((x) => !Number.isFinite(x));
    if (bad !== -1) fail(`non-numeric ${CANDLE_VALUE_NAMES[bad]!}: ${values[bad]}`);
    if (!(open > 0) || !(high > 0) || !(low > 0) || !(close > 0)) {
      const [name, value] = (
        [
          ['open', open],
          ['high', high],
          ['low', low],
          ['close', close],
        ] as const
      ).find(([, v]) => !(v > 0))!;
      fail(`price <= 0: ${name} is ${value}`);
    }
    if (high < Math.max(open, close)) fail(`high < max(open, close): high ${high}, open ${open}, close ${close}`);
    if (low > Math.min(open, close)) fail(`low > min(open, close): low ${low}, open ${open}, close ${close}`);
    if (!(volume >= 0)) fail(`volume < 0: ${volume}`);
    this.keepRow(open, high, low, close, volume);
  }

  private keepRow(open: number, high: number, low: number, close: number, volume: number): void {
    this.rows += 1;
    if (!this.keep) return;
    const [o, h, l, c, v] = this.cols as [Column, Column, Column, Column, Column];
    o.push(open);
    h.push(high);
    l.push(low);
    c.push(close);
    v.push(volume);
  }

  private checkOrder(ts: number, fail: (what: string) => never): void {
    const prev = this.prev;
    if (ts === prev) fail(`duplicate: timestamp ${showTs(ts)} repeats the previous row`);
    if (ts < prev) fail(`unsorted: timestamp ${showTs(ts)} is before the previous row's ${showTs(prev)}`);
    if (this.step === 0) {
      const delta = ts - prev;
      if (timeframeName(delta) === undefined) {
        fail(
          `the first two rows are ${delta} ms apart, which is not a timeframe (${TIMEFRAME_LIST}; ` +
            'timestamps are epoch milliseconds of the candle open)',
        );
      }
      this.step = delta;
      return;
    }
    const expected = prev + this.step;
    if (ts === expected) return;
    const got = `expected timestamp ${showTs(expected)}, got ${showTs(ts)}`;
    if ((ts - prev) % this.step !== 0)
      fail(`misaligned: ${got} (not a whole number of timeframes after the previous row)`);
    const missing = (ts - prev) / this.step - 1;
    fail(`gap: ${got} (${missing} candle${missing === 1 ? '' : 's'} missing)`);
  }

  /** The span of the rows pushed (all that a builder that keeps no values can give). */
  span(): CandleSpan {
    if (this.count === 0) throw new DataFileError(this.file, 'no candles (the file has only its header)');
    return { start: this.start, stepMs: this.step, count: this.count };
  }

  finish(): CandleSeries {
    if (this.count === 0) throw new DataFileError(this.file, 'no candles (the file has only its header)');
    const [open, high, low, close, volume] = this.cols.map((c) => c.take()) as [
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
    ];
    return { start: this.start, stepMs: this.step, count: this.count, open, high, low, close, volume };
  }
}

export class FundingBuilder {
  private readonly ts = new Column(256);
  private readonly rate = new Column(256);
  private prev = NaN;

  constructor(
    private readonly file: string,
    private readonly locate: Locate,
  ) {}

  push(at: number, ts: number, rate: number): void {
    const where = this.locate(at);
    checkTimestamp(this.file, where, ts);
    const prev = this.prev;
    if (ts === prev)
      throw new DataFileError(this.file, `${where}: duplicate: timestamp ${showTs(ts)} repeats the previous row`);
    if (ts < prev) {
      throw new DataFileError(
        this.file,
        `${where}: unsorted: timestamp ${showTs(ts)} is before the previous row's ${showTs(prev)}`,
      );
    }
    if (!Number.isFinite(rate)) throw new DataFileError(this.file, `${where}: non-numeric rate: ${rate}`);
    if (!(Math.abs(rate) < 1)) {
      throw new DataFileError(this.file, `${where}: rate ${rate} is not a fraction per interval (0.0001 = 0.01 %)`);
    }
    this.prev = ts;
    this.ts.push(ts);
    this.rate.push(rate);
  }

  finish(): FundingSeries {
    return { count: this.ts.length, ts: this.ts.take(), rate: this.rate.take() };
  }
}
