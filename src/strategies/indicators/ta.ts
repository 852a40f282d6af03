/**
 * The indicators a strategy declares (`ta.ema(10)`, `ta.atr(14)`, …): each a spec saying how many
 * bars it needs and how to open a fresh incremental stream of it. The arithmetic is the
 * trading-signals library's (docs/strategies/indicators.md says why that one); this file only adapts
 * its streaming classes to candle columns and to plain result objects, so the public types do not
 * change if the library does. A stream takes one closed bar at a time (O(1) or O(period) per bar)
 * and never sees the window again: trackIndicators (tracker.ts) decides which bars it is fed.
 */
import { ATR, BollingerBands, DonchianChannels, EMA, MACD, RSI, SMA } from 'trading-signals';
import type { Bars } from '../../domain/bars.js';

/** Upper, middle and lower line of a band indicator (Bollinger, Donchian). */
export interface Band {
  readonly upper: number;
  readonly middle: number;
  readonly lower: number;
}

/** MACD line (fast EMA − slow EMA), its signal line (an EMA of it) and the histogram (their difference). */
export interface Macd {
  readonly macd: number;
  readonly signal: number;
  readonly histogram: number;
}

/** Takes bar `i` of `bars` (the next closed bar) and returns the value after it, or null while warming up. */
export type IndicatorStream<V> = (bars: Bars, i: number) => V | null;

/** What a strategy declares: made by the `ta` functions, read by trackIndicators. */
export interface IndicatorSpec<V> {
  /** For messages and rationales, e.g. `ema(10)`. */
  readonly label: string;
  /**
   * Bars after which the value no longer depends on where the stream started: the window length for
   * windowed indicators (SMA, Bollinger, Donchian); for smoothed ones (EMA, Wilder's RSI and ATR,
   * MACD) enough more that the starting value weighs less than SEED_WEIGHT.
   */
  readonly warmup: number;
  /** A fresh stream, fed one bar at a time. */
  open(): IndicatorStream<V>;
}

/**
 * How little the first bars may weigh in a smoothed value before it counts as warmed up: a millionth.
 * Two runs that start at different bars then agree to about a millionth of the price's range, so a
 * signal that compares the value against a level cannot tell them apart in practice.
 */
export const SEED_WEIGHT = 1e-6;

/** Bars until a seed smoothed by factor `alpha` per bar weighs less than SEED_WEIGHT. */
function fade(alpha: number): number {
  return alpha >= 1 ? 0 : Math.ceil(Math.log(SEED_WEIGHT) / Math.log(1 - alpha));
}

function period(name: string, what: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${name} ${what} must be a whole number ≥ 1, got ${JSON.stringify(value)}`);
  return value;
}

// The library answers `null` until it has enough inputs and keeps its own copy of what it needs.
const finite = (v: number | null): number | null => (v === null || !Number.isFinite(v) ? null : v);

/** Simple moving average of the last `n` closes (exact after `n` bars). */
function sma(n: number): IndicatorSpec<number> {
  period('sma', 'period', n);
  return {
    label: `sma(${n})`,
    warmup: n,
    open: () => {
      const s = new SMA(n);
      return (bars, i) => finite(s.add(bars.close[i]!));
    },
  };
}

/**
 * Exponential moving average of the closes, α = 2 / (n + 1), seeded with the first close (as
 * TradingView; StockCharts and TA-Lib seed with the first SMA: the two agree once the seed faded).
 * Null for the first `n − 1` bars.
 */
function ema(n: number): IndicatorSpec<number> {
  period('ema', 'period', n);
  return {
    label: `ema(${n})`,
    warmup: n + fade(2 / (n + 1)),
    open: () => {
      const s = new EMA(n);
      return (bars, i) => {
        s.add(bars.close[i]!);
        return s.isStable ? finite(s.getResult()) : null;
      };
    },
  };
}

/**
 * Wilder's relative strength index (0–100) of the closes: gains and losses smoothed by 1/n, the
 * first average their simple mean over `n` changes. 100 when the average loss is 0 (the library's
 * rule, also with no movement at all). Unlike the windowed `rsi` helper, it remembers all it was fed.
 */
function rsi(n: number): IndicatorSpec<number> {
  period('rsi', 'period', n);
  return {
    label: `rsi(${n})`,
    warmup: n + 1 + fade(1 / n),
    open: () => {
      const s = new RSI(n);
      return (bars, i) => finite(s.add(bars.close[i]!));
    },
  };
}

/** Wilder's average true range: true ranges (the first bar's is high − low) smoothed by 1/n. */
function atr(n: number): IndicatorSpec<number> {
  period('atr', 'period', n);
  return {
    label: `atr(${n})`,
    warmup: n + 1 + fade(1 / n),
    open: () => {
      const s = new ATR(n);
      return (bars, i) => finite(s.add({ high: bars.high[i]!, low: bars.low[i]!, close: bars.close[i]! }));
    },
  };
}

/** Bollinger Bands: the SMA of the last `n` closes ± `deviations` population standard deviations. */
function bollinger(n: number, deviations = 2): IndicatorSpec<Band> {
  period('bollinger', 'period', n);
  if (typeof deviations !== 'number' || !Number.isFinite(deviations) || deviations <= 0)
    throw new RangeError(`bollinger deviations must be a number > 0, got ${JSON.stringify(deviations)}`);
  return {
    label: `bollinger(${n}, ${deviations})`,
    warmup: n,
    open: () => {
      const s = new BollingerBands(n, deviations);
      return (bars, i) => band(s.add(bars.close[i]!));
    },
  };
}

/** Donchian channel: the highest high and lowest low of the last `n` bars, this one included. */
function donchian(n: number): IndicatorSpec<Band> {
  period('donchian', 'period', n);
  return {
    label: `donchian(${n})`,
    warmup: n,
    open: () => {
      const s = new DonchianChannels(n);
      return (bars, i) => band(s.add({ high: bars.high[i]!, low: bars.low[i]! }));
    },
  };
}

/**
 * MACD: EMA(`fast`) − EMA(`slow`) of the closes, its signal line the EMA(`signal`) of that line
 * from the bar the slow EMA has `slow` closes, the histogram the line minus its signal.
 */
function macd(fast = 12, slow = 26, signal = 9): IndicatorSpec<Macd> {
  period('macd', 'fast', fast);
  period('macd', 'slow', slow);
  period('macd', 'signal', signal);
  if (fast >= slow) throw new RangeError(`macd fast (${fast}) must be below slow (${slow})`);
  return {
    label: `macd(${fast}, ${slow}, ${signal})`,
    warmup: slow + fade(2 / (slow + 1)) + signal + fade(2 / (signal + 1)),
    open: () => {
      const s = new MACD(new EMA(fast), new EMA(slow), new EMA(signal));
      return (bars, i) => {
        const r = s.add(bars.close[i]!);
        if (r === null || !Number.isFinite(r.macd) || !Number.isFinite(r.signal)) return null;
        return Object.freeze({ macd: r.macd, signal: r.signal, histogram: r.histogram });
      };
    },
  };
}

function band(r: { upper: number; middle: number; lower: number } | null): Band | null {
  if (r === null || !Number.isFinite(r.upper) || !Number.isFinite(r.lower)) return null;
  return Object.freeze({ upper: r.upper, middle: r.middle, lower: r.lower });
}

/** The indicators a strategy can declare; each call makes a spec for trackIndicators. */
export const ta = Object.freeze({ sma, ema, rsi, atr, bollinger, donchian, macd });
