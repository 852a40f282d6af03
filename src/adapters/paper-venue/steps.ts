/**
 * Lot and tick arithmetic for the venue: checks that a number is a whole multiple of a step and
 * rounds sums back onto the step grid, so positions built from 0.1 + 0.2 stay exactly 0.3.
 */

function decimalsOf(step: number): number {
  return Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
}

/** True when `value` is a whole multiple of `step`, allowing for binary floating-point residue. */
export function isMultipleOf(value: number, step: number): boolean {
  const units = value / step;
  return Math.abs(units - Math.round(units)) < 1e-6;
}

/** `value` rounded to the nearest multiple of `step`. */
export function roundToStep(value: number, step: number): number {
  return Number((Math.round(value / step) * step).toFixed(decimalsOf(step)));
}

/** `value` rounded down to a multiple of `step` (never more than was asked for). */
export function floorToStep(value: number, step: number): number {
  return Number((Math.floor(value / step + 1e-9) * step).toFixed(decimalsOf(step)));
}

/** `value` rounded up to a multiple of `step`. */
export function ceilToStep(value: number, step: number): number {
  return Number((Math.ceil(value / step - 1e-9) * step).toFixed(decimalsOf(step)));
}
