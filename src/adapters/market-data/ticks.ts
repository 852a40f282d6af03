/**
 * Exact tick and lot arithmetic for the feed: prices are kept as whole tick counts and turned into
 * numbers only at the edge, so every published price is a clean multiple of the tick size
 * (no 0.30000000000000004).
 */

/** Decimal places needed to print multiples of `step` exactly (0.001 → 3, 5 → 0). */
export function decimalsOf(step: number): number {
  return Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
}

const scales = new Map<number, number>();

/**
 * `units` whole steps as a number, rounded to the step's decimals. Dividing a whole number by a
 * power of ten gives the double nearest the decimal value, the same as parsing its printed form,
 * without the string round trip (this runs for every book level of every symbol, every cycle).
 */
export function fromUnits(units: number, step: number): number {
  let scale = scales.get(step);
  if (scale === undefined) {
    scale = 10 ** decimalsOf(step);
    scales.set(step, scale);
  }
  return Math.round(units * step * scale) / scale;
}
