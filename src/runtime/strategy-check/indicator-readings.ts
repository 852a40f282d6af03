/**
 * The indicator half of `tcs strategy check`'s recursion check: the readings of the trackers a
 * strategy declared (seen through observer.ts, nothing asked of the author), kept per symbol per
 * bar, and where two runs first disagree. A signal may hide a biased indicator (it compares it
 * against a level it rarely reaches, or reads it only for a rationale), so the values are compared
 * themselves.
 *
 * Tolerance, the idea of compare.ts: honest smoothed indicators restarted at another bar agree to
 * about SEED_WEIGHT (a millionth) of their inputs' range, so values are equal when they differ by at
 * most `tolerance` × the range the indicator spanned in the full run (for that symbol): a scale of
 * its own, so an RSI (0–100), an EMA (the price) and a MACD histogram (near 0) are judged alike.
 */
import type { TrackerView } from '../../strategies/indicators/observer.js';

/** One value of one declared indicator (a band's or MACD's line on its own) after one bar. */
export interface Reading {
  /** Cycle of the run in which it was read. */
  cycle: number;
  symbol: string;
  /** The declared name, a line after a dot (`band.upper`), prefixed `#k ` for the k-th tracker after the first. */
  indicator: string;
  /** What was declared (`ema(50)`). */
  label: string;
  /** Open time of the bar the value is after. */
  time: number;
  value: number;
}

/** Where two runs' readings first disagree (a: the full run's value). */
export interface IndicatorDifference {
  cycle: number;
  symbol: string;
  indicator: string;
  label: string;
  time: number;
  a: number;
  b: number;
}

/**
 * Appends the readings of every tracker for `symbols` after a cycle: a value already kept for the
 * same bar is not kept again (a 15-minute indicator reads the same for 15 one-minute cycles).
 */
export function readTrackers(
  trackers: readonly TrackerView[],
  symbols: Iterable<string>,
  cycle: number,
  into: Reading[],
  last: Map<string, number>,
): void {
  for (const symbol of symbols)
    trackers.forEach((tracker, k) => {
      const r = tracker.readings(symbol);
      if (r === null) return;
      const seen = `${k}\u0000${symbol}`;
      if (last.get(seen) === r.time) return;
      last.set(seen, r.time);
      const prefix = k === 0 ? '' : `#${k + 1} `;
      for (const [name, v] of Object.entries(r.now as Record<string, unknown>)) {
        const label = tracker.labels[name] ?? name;
        if (typeof v === 'number')
          into.push({ cycle, symbol, indicator: `${prefix}${name}`, label, time: r.time, value: v });
        else if (v !== null && typeof v === 'object')
          for (const [line, x] of Object.entries(v as Record<string, unknown>))
            if (typeof x === 'number')
              into.push({ cycle, symbol, indicator: `${prefix}${name}.${line}`, label, time: r.time, value: x });
      }
    });
}

const key = (r: Reading): string => `${r.symbol}\u0000${r.indicator}\u0000${r.time}`;

/**
 * The earliest (by the other run's cycle) reading of `b` that the full run `a` has for the same
 * symbol, indicator and bar and that differs beyond the tolerance; null when none does. Bars only
 * one run read are not compared.
 */
export function firstIndicatorDifference(
  a: readonly Reading[],
  b: readonly Reading[],
  tolerance: number,
): IndicatorDifference | null {
  const full = new Map<string, number>();
  const range = new Map<string, { min: number; max: number }>();
  for (const r of a) {
    full.set(key(r), r.value);
    const series = `${r.symbol}\u0000${r.indicator}`;
    const span = range.get(series);
    if (span === undefined) range.set(series, { min: r.value, max: r.value });
    else {
      span.min = Math.min(span.min, r.value);
      span.max = Math.max(span.max, r.value);
    }
  }
  let first: IndicatorDifference | null = null;
  for (const r of b) {
    if (first !== null && r.cycle >= first.cycle) continue;
    const x = full.get(key(r));
    if (x === undefined) continue;
    const span = range.get(`${r.symbol}\u0000${r.indicator}`)!;
    // A flat series has no range: its own size is the scale.
    const scale = span.max > span.min ? span.max - span.min : Math.max(Math.abs(x), Math.abs(r.value));
    if (Object.is(x, r.value) || Math.abs(x - r.value) <= tolerance * scale) continue;
    first = {
      cycle: r.cycle,
      symbol: r.symbol,
      indicator: r.indicator,
      label: r.label,
      time: r.time,
      a: x,
      b: r.value,
    };
  }
  return first;
}

/** A value as the table shows it: `slow ema(50) 101.2345`. */
export function describeReading(indicator: string, label: string, value: number): string {
  return `${indicator} ${label} ${Number(value.toPrecision(8))}`;
}
