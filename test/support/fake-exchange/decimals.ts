/**
 * Decimal arithmetic for the fake's books: quantities and prices are kept as numbers rounded to
 * the instrument's step or tick after every operation, so 0.1 + 0.2 never leaves a residue that
 * would turn a full fill into a partial one or fail a lot-size check.
 */

/** How many decimals a step like "0.001" or "1" carries. */
export function decimalsOf(step: string): number {
  return step.includes('.') ? step.split('.')[1]!.replace(/0+$/, '').length : 0;
}

export function round(value: number, decimals: number): number {
  return Number(value.toFixed(decimals));
}

/** How many decimals a number as sent ("0.0015") carries. */
export function decimalsIn(text: string): number {
  return text.includes('.') ? text.split('.')[1]!.replace(/0+$/, '').length : 0;
}

/** Whether `value` is a whole number of `step`s (both already within their decimals). */
export function onStep(value: number, step: string): boolean {
  const units = value / Number(step);
  return Math.abs(units - Math.round(units)) < 1e-9;
}

/** Rounds down to a whole number of `step`s. */
export function floorToStep(value: number, step: string): number {
  const s = Number(step);
  return round(Math.floor(value / s + 1e-9) * s, decimalsOf(step));
}
