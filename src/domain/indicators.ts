/**
 * Small numeric helpers the strategies share: moving averages and clamping. Pure and allocation-free
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

/** Limits `value` to [lo, hi]; NaN becomes `lo` so a bad input can never produce a large result. */
export function clamp(value: number, lo: number, hi: number): number {
  if (Number.isNaN(value)) return lo;
  return Math.min(hi, Math.max(lo, value));
}
