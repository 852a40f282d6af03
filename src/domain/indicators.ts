/**
 * Small numeric helpers the strategies share: moving averages, RSI and clamping. Pure and allocation-free
 * so a strategy can call them every cycle on every symbol without thinking about cost.
 */

/**
 * Simple moving average of the `period` values ending just before index `end` (default: the whole
 * series, so the latest `period` values). Returns null when fewer than `period` values are available,
 * so callers must handle "not enough data" explicitly instead of averaging a short window.
 */
export function sma(values: ArrayLike<number>, period: number, end: number = values.length): number | null {
  if (!Number.isInteger(period) || period < 1)
    throw new RangeError(`sma period must be a positive integer, got ${period}`);
  if (!Number.isInteger(end) || end > values.length)
    throw new RangeError(`sma end must be an integer ≤ ${values.length}, got ${end}`);
  const start = end - period;
  if (start < 0) return null;
  let total = 0;
  for (let i = start; i < end; i++) total += values[i] ?? Number.NaN;
  return total / period;
}

/**
 * Relative strength index (0–100) of the `period` changes between the `period + 1` values ending just
 * before `end` (default: the latest), from the simple averages of their gains and losses (Cutler's
 * RSI). Wilder's version smooths over all the history it is given, so its value depends on how much
 * that is; this one depends on the window alone, the same in a replay, a sweep and live. 100 with
 * only gains, 0 with only losses, 50 without movement; null with fewer than `period + 1` values.
 */
export function rsi(values: ArrayLike<number>, period: number, end: number = values.length): number | null {
  if (!Number.isInteger(period) || period < 1)
    throw new RangeError(`rsi period must be a positive integer, got ${period}`);
  if (!Number.isInteger(end) || end > values.length)
    throw new RangeError(`rsi end must be an integer ≤ ${values.length}, got ${end}`);
  const start = end - period - 1;
  if (start < 0) return null;
  let gains = 0;
  let losses = 0;
  for (let i = start + 1; i < end; i++) {
    const change = (values[i] ?? Number.NaN) - (values[i - 1] ?? Number.NaN);
    if (change > 0) gains += change;
    else if (change < 0) losses -= change;
    else if (Number.isNaN(change)) return Number.NaN;
  }
  if (gains === 0 && losses === 0) return 50;
  return (100 * gains) / (gains + losses);
}

/** Limits `value` to [lo, hi]; NaN becomes `lo` so a bad input can never produce a large result. */
export function clamp(value: number, lo: number, hi: number): number {
  if (Number.isNaN(value)) return lo;
  return Math.min(hi, Math.max(lo, value));
}
