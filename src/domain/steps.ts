/**
 * The one place numbers are rounded onto a grid: quantities to the lot size, prices to the tick
 * size, money to QUOTE_STEP. Every result is the double nearest the exact decimal multiple of the
 * step, so it prints as that decimal (59763.7, never 59763.69999999999) and `String(result)` has
 * no more fractional digits than the step.
 *
 * How: a step is read once as the exact fraction m / 10^d of its shortest decimal form (0.1 = 1/10,
 * 2.5 = 25/10, 1e-8 = 1/10^8) and cached. A value becomes a whole count n of steps, and n steps
 * become `(n × m) / 10^d`: an exact integer divided by an exact power of ten, which IEEE division
 * rounds to the nearest double. No strings and no toFixed, because the feed calls this for every
 * book level of every symbol, every cycle. Exact while |n × m| < 2^53 (e.g. prices below 9e7 on a
 * 1e-8 grid, or below 9e14 on a 0.1 grid); beyond that the result is still the nearest double to
 * n steps computed in floating point.
 *
 * Floor and ceil forgive float residue: 0.3 / 0.1 is 2.9999999999999996 in binary, and flooring
 * it must give 3, not 2. A value within the guard of a grid point counts as on it: 1e-9 of a step
 * plus one part in 1e14 of the value (about 45 units in the last place, where a few float
 * operations leave one or two), never more than a quarter step. So floor(x) may exceed x, and
 * ceil(x) fall short of it, by at most that much. The relative part has to stay this small: with
 * a 1e-8 step, one part in 1e12 of 8 000 would already be most of a step and floor would jump a
 * whole step. Floor and ceil are idempotent while |x / step| < 2^49 (5.6e14: 5.6 million on a 1e-8
 * grid).
 */

/** Precision of quote-currency (USDT) amounts: fees, funding payments, cash. 8 decimals, as venues report them. */
export const QUOTE_STEP = 1e-8;

/** Absolute part of the residue guard, in steps. */
const GUARD_STEPS = 1e-9;
/** Relative part of the residue guard, as a fraction of the value. */
const GUARD_RELATIVE = 1e-14;
/** Far below a whole step, or floor would pass ceil and both would move values already on the grid. */
const GUARD_MAX_STEPS = 0.25;

interface Grid {
  /** step = m / s exactly, in decimal. */
  m: number;
  /** 10^decimals. */
  s: number;
  decimals: number;
}

/** One entry per distinct step: a handful (each lot and tick size, QUOTE_STEP, the funding quantum). */
const grids = new Map<number, Grid>();

function gridOf(step: number): Grid {
  let grid = grids.get(step);
  if (grid === undefined) {
    grid = readGrid(step);
    grids.set(step, grid);
  }
  return grid;
}

/** Reads a step's shortest decimal form ("0.001", "2.5", "1e-8") as m / 10^decimals. Once per step. */
function readGrid(step: number): Grid {
  if (typeof step !== 'number' || !Number.isFinite(step) || step <= 0)
    throw new RangeError(`step must be a positive finite number, got ${String(step)}`);
  const [mantissa = '', exponent = '0'] = String(step).split('e');
  const fraction = mantissa.split('.')[1] ?? '';
  const decimals = Math.max(0, fraction.length - Number(exponent));
  // Beyond 10^22 powers of ten stop being exact doubles; no real lot, tick or currency is that fine.
  if (decimals > 22) throw new RangeError(`step ${step} has more than 22 decimals`);
  const s = 10 ** decimals;
  return { m: Math.round(step * s), s, decimals };
}

/** Decimals of the step's shortest form: the most any result on its grid prints (0.001 → 3, 2.5 → 1, 5 → 0). */
export function stepDecimals(step: number): number {
  return gridOf(step).decimals;
}

/** `x / step` computed against the step's exact decimal value (0.3 / 0.1 gives 3, not 2.9999999999999996). */
function stepsIn(x: number, grid: Grid): number {
  return grid.m === 1 ? x * grid.s : (x * grid.s) / grid.m;
}

function guard(q: number): number {
  return Math.min(GUARD_MAX_STEPS, GUARD_STEPS + GUARD_RELATIVE * Math.abs(q));
}

/** `n` whole steps as the double nearest the exact decimal n × step (the feed keeps prices as tick counts). */
export function fromSteps(n: number, step: number): number {
  const { m, s } = gridOf(step);
  // + 0 turns -0 (from a negative count that rounded to nothing) into 0.
  return (n * m) / s + 0;
}

/** The whole number of steps nearest `x`; halves round away from zero, so negative values mirror positive ones. */
export function nearestSteps(x: number, step: number): number {
  const q = stepsIn(x, gridOf(step));
  return q < 0 ? -Math.round(-q) : Math.round(q);
}

/** The most whole steps not above `x` (within the guard). */
export function floorSteps(x: number, step: number): number {
  const q = stepsIn(x, gridOf(step));
  return Math.floor(q + guard(q));
}

/** The fewest whole steps not below `x` (within the guard). */
export function ceilSteps(x: number, step: number): number {
  const q = stepsIn(x, gridOf(step));
  return Math.ceil(q - guard(q));
}

/** `x` rounded to the nearest multiple of `step` (halves away from zero). */
export function roundToStep(x: number, step: number): number {
  return fromSteps(nearestSteps(x, step), step);
}

/** `x` rounded down (towards −∞) to a multiple of `step`: never more than was asked for, beyond the guard. */
export function floorToStep(x: number, step: number): number {
  return fromSteps(floorSteps(x, step), step);
}

/** `x` rounded up (towards +∞) to a multiple of `step`. */
export function ceilToStep(x: number, step: number): number {
  return fromSteps(ceilSteps(x, step), step);
}

/** True when `x` is a whole multiple of `step` up to float residue (the same guard floor and ceil use). */
export function isOnStep(x: number, step: number): boolean {
  const q = stepsIn(x, gridOf(step));
  return Math.abs(q - Math.round(q)) <= guard(q);
}

/** A quote-currency amount (fee, funding payment, cash) rounded to QUOTE_STEP. */
export function roundQuote(x: number): number {
  return roundToStep(x, QUOTE_STEP);
}
