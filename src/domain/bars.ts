/**
 * Candles as strategies read them: one typed array per field, oldest first, the last bar the one
 * that just closed. A feed keeps its window in a `BarWindow`, which hands out views (subarrays) of
 * its own storage, so a cycle copies nothing however long the window is. A view is valid for the
 * cycle it was handed out in: the next push writes into the same memory, so a strategy that wants to
 * keep bars across cycles copies them (`Array.from(bars.close)`).
 */

export interface Bars {
  /** Number of bars (every array has exactly this length). */
  readonly length: number;
  /** Open time of each bar, epoch ms. */
  readonly time: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  /** Base units traded in the bar. */
  readonly volume: Float64Array;
}

/** One candle as a row: open time (epoch ms), open, high, low, close, volume (base units). */
export interface Bar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

const FIELDS = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;

function barsOf(n: number): Bars {
  return {
    length: n,
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
}

/** Bars from plain rows (tests, live fetches): one copy, at the edge. */
export function barsFromRows(rows: readonly Bar[]): Bars {
  const out = barsOf(rows.length);
  rows.forEach((row, i) => {
    for (const f of FIELDS) out[f][i] = row[f];
  });
  return out;
}

/**
 * Bars that are only closes (open = previous close, high/low = the body, volume `volumePerBar`), one
 * every `stepMs` from `start`: for tests and for feeds that know nothing more.
 */
export function barsFromCloses(closes: ArrayLike<number>, stepMs = 60_000, start = 0, volumePerBar = 0): Bars {
  const rows: Bar[] = [];
  for (let i = 0; i < closes.length; i++) {
    const close = closes[i]!;
    const open = i === 0 ? close : closes[i - 1]!;
    rows.push({
      time: start + i * stepMs,
      open,
      high: Math.max(open, close),
      low: Math.min(open, close),
      close,
      volume: volumePerBar,
    });
  }
  return barsFromRows(rows);
}

/**
 * A fixed-capacity window of bars whose view is always one contiguous subarray: every bar is written
 * twice, at slot i and i + capacity, so the newest `capacity` bars always sit in
 * [head, head + capacity) of a buffer twice that long. A push writes 12 numbers; a view allocates
 * six subarray headers and copies no data.
 */
export class BarWindow {
  private readonly store: Record<(typeof FIELDS)[number], Float64Array>;
  private head = 0;
  private filled = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('a bar window holds at least one bar');
    this.store = {
      time: new Float64Array(2 * capacity),
      open: new Float64Array(2 * capacity),
      high: new Float64Array(2 * capacity),
      low: new Float64Array(2 * capacity),
      close: new Float64Array(2 * capacity),
      volume: new Float64Array(2 * capacity),
    };
  }

  get length(): number {
    return this.filled;
  }

  push(bar: Bar): void {
    this.pushValues(bar.time, bar.open, bar.high, bar.low, bar.close, bar.volume);
  }

  /** As `push`, from the values themselves: a replay pushes a bar a symbol a cycle, with no row object. */
  pushValues(time: number, open: number, high: number, low: number, close: number, volume: number): void {
    const slot = this.head;
    const twin = slot + this.capacity;
    const s = this.store;
    s.time[slot] = s.time[twin] = time;
    s.open[slot] = s.open[twin] = open;
    s.high[slot] = s.high[twin] = high;
    s.low[slot] = s.low[twin] = low;
    s.close[slot] = s.close[twin] = close;
    s.volume[slot] = s.volume[twin] = volume;
    this.head = slot + 1 === this.capacity ? 0 : slot + 1;
    if (this.filled < this.capacity) this.filled += 1;
  }

  /** The newest bar, or undefined when empty. */
  last(): Bar | undefined {
    if (this.filled === 0) return undefined;
    const i = (this.head - 1 + this.capacity) % this.capacity;
    const s = this.store;
    return {
      time: s.time[i]!,
      open: s.open[i]!,
      high: s.high[i]!,
      low: s.low[i]!,
      close: s.close[i]!,
      volume: s.volume[i]!,
    };
  }

  /** Every bar held, oldest first, as views of this window's memory (valid until the next push). */
  view(): Bars {
    // Once full, the newest `capacity` bars are [head, head + capacity); before that, [0, filled).
    const from = this.filled === this.capacity ? this.head : 0;
    const to = from + this.filled;
    const s = this.store;
    return {
      length: this.filled,
      time: s.time.subarray(from, to),
      open: s.open.subarray(from, to),
      high: s.high.subarray(from, to),
      low: s.low.subarray(from, to),
      close: s.close.subarray(from, to),
      volume: s.volume.subarray(from, to),
    };
  }
}

/**
 * The completed bars of timeframe `tfMs` built from `base` bars of `baseMs`, oldest first: a bucket
 * is the base bars whose open time falls in [k·tfMs, (k+1)·tfMs) (UTC-aligned, as exchanges align
 * them), and it is complete when its last base bar is present. The bucket still forming is left
 * out, so a strategy never sees a higher-timeframe bar before it has closed, and so is a first bucket
 * the window begins inside of (its opening bars are gone). A bucket with a gap inside (fewer base bars
 * than it spans) still counts once its last base bar is in.
 */
export function resample(base: Bars, baseMs: number, tfMs: number): Bars {
  if (!(tfMs > 0 && baseMs > 0) || tfMs % baseMs !== 0)
    throw new RangeError(`a ${tfMs} ms timeframe is not a whole number of ${baseMs} ms bars`);
  if (tfMs === baseMs) return base;
  const rows: Bar[] = [];
  let current: Bar | null = null;
  let bucket = NaN;
  // The window's first bucket counts only if the window begins at its start (else it lacks its open).
  let keep = base.length > 0 && base.time[0]! % tfMs === 0;
  for (let i = 0; i < base.length; i++) {
    const t = base.time[i]!;
    const k = Math.floor(t / tfMs);
    if (current === null || k !== bucket) {
      if (current !== null) {
        if (keep) rows.push(current);
        keep = true;
      }
      bucket = k;
      current = {
        time: k * tfMs,
        open: base.open[i]!,
        high: base.high[i]!,
        low: base.low[i]!,
        close: base.close[i]!,
        volume: base.volume[i]!,
      };
    } else {
      current.high = Math.max(current.high, base.high[i]!);
      current.low = Math.min(current.low, base.low[i]!);
      current.close = base.close[i]!;
      current.volume += base.volume[i]!;
    }
  }
  // The last bucket counts only once its final base bar (opening at bucket end − baseMs) is in.
  if (current !== null && keep && base.time[base.length - 1]! >= (bucket + 1) * tfMs - baseMs) rows.push(current);
  return barsFromRows(rows);
}

/** Base bars needed so that `lookback` completed bars of `tfMs` exist whatever the alignment. */
export function baseBarsFor(lookback: number, baseMs: number, tfMs: number): number {
  const per = tfMs / baseMs;
  return per === 1 ? lookback : lookback * per + per - 1;
}
