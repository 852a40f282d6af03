// Properties of src/domain/steps.ts over random values and the step sizes venues use: results are
// exact decimal multiples of the step (checked with BigInt on the printed form), floor ≤ x ≤ ceil
// up to the documented guard, rounding is idempotent and mirrors for negatives, and nothing prints
// more decimals than the step has.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ceilToStep, floorToStep, fromSteps, isOnStep, roundToStep, stepDecimals } from '../../src/domain/steps.js';
import { decimalString, printedDecimals, printedUnits } from './printed-decimals.js';

// Lot, tick and quote steps seen on venues, plus the awkward ones (0.25, 2.5, 0.00025) that are not 1/10^k.
const STEPS = [1e-8, 1e-6, 0.00001, 0.0001, 0.00025, 0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const step = fc.constantFrom(...STEPS);

/**
 * Values up to 1e7 in size and below 2^49 steps (the documented range of floor and ceil), plus
 * values a few float operations away from a grid point (the residue case).
 */
function valueFor(s: number): fc.Arbitrary<number> {
  const max = Math.min(1e7, 2 ** 49 * s);
  const plain = fc.double({ min: -max, max, noNaN: true });
  const nearGrid = fc
    .tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.constantFrom(0, 1, 2, 3), fc.constantFrom(-1, 1))
    .map(([n, op, sign]) => {
      const base = n * s;
      // Sums, products and quotients leave the residue float arithmetic really produces.
      if (op === 0) return base;
      if (op === 1) return base + sign * s * 0.1 - sign * s * 0.1;
      if (op === 2) return ((n * 3) / 7) * s * (7 / 3);
      return (base * 1.1) / 1.1;
    })
    .filter((x) => Math.abs(x) <= max);
  return fc.oneof(plain, nearGrid);
}

const stepAndValue = step.chain((s) => fc.tuple(fc.constant(s), valueFor(s)));

/** Whole multiples of the step as BigInt units of 10^-decimals; null when the printed form has too many decimals. */
function multipleOfStep(result: number, s: number): boolean {
  const decimals = stepDecimals(s);
  const units = printedUnits(result, decimals);
  const stepUnits = printedUnits(s, decimals);
  return units !== null && stepUnits !== null && units % stepUnits === 0n;
}

/** The guard the module documents (1e-9 of a step plus 1e-14 of the value), plus an ulp for comparing. */
function guard(x: number, s: number): number {
  return 1e-9 * s + 1e-14 * Math.abs(x) + Number.EPSILON * Math.abs(x);
}

const runs = { numRuns: 2_000 };

describe('rounding to a step: properties', () => {
  it('every result is an exact decimal multiple of the step and prints no more decimals than the step', () => {
    fc.assert(
      fc.property(stepAndValue, ([s, x]) => {
        for (const result of [roundToStep(x, s), floorToStep(x, s), ceilToStep(x, s)]) {
          expect(printedDecimals(result)).toBeLessThanOrEqual(stepDecimals(s));
          expect(multipleOfStep(result, s)).toBe(true);
          // And within 1e-9 relative of a multiple when measured in floating point too.
          const q = result / s;
          expect(Math.abs(q - Math.round(q))).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(q)));
        }
      }),
      runs,
    );
  });

  it('floor ≤ x ≤ ceil up to the guard, floor ≤ nearest ≤ ceil, and ceil − floor is 0 or one step', () => {
    fc.assert(
      fc.property(stepAndValue, ([s, x]) => {
        const floor = floorToStep(x, s);
        const ceil = ceilToStep(x, s);
        const nearest = roundToStep(x, s);
        expect(floor).toBeLessThanOrEqual(x + guard(x, s));
        expect(ceil).toBeGreaterThanOrEqual(x - guard(x, s));
        expect(floor).toBeLessThanOrEqual(nearest);
        expect(nearest).toBeLessThanOrEqual(ceil);
        expect(Math.abs(nearest - x)).toBeLessThanOrEqual(s / 2 + guard(x, s));
        const gap = Math.round((ceil - floor) / s);
        expect([0, 1]).toContain(gap);
        expect(gap === 0).toBe(isOnStep(x, s));
      }),
      runs,
    );
  });

  it('is idempotent: a rounded value rounds to itself in every direction', () => {
    fc.assert(
      fc.property(stepAndValue, ([s, x]) => {
        for (const result of [roundToStep(x, s), floorToStep(x, s), ceilToStep(x, s)]) {
          expect(roundToStep(result, s)).toBe(result);
          expect(floorToStep(result, s)).toBe(result);
          expect(ceilToStep(result, s)).toBe(result);
          expect(isOnStep(result, s)).toBe(true);
        }
      }),
      runs,
    );
  });

  it('mirrors for negative values: nearest is odd, floor(−x) = −ceil(x)', () => {
    fc.assert(
      fc.property(stepAndValue, ([s, x]) => {
        expect(roundToStep(-x, s)).toBe(-roundToStep(x, s) + 0);
        expect(floorToStep(-x, s)).toBe(-ceilToStep(x, s) + 0);
      }),
      runs,
    );
  });

  it('n steps become the double nearest the exact decimal n × step (what parsing its digits gives)', () => {
    fc.assert(
      fc.property(step, fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), (s, n) => {
        const decimals = stepDecimals(s);
        const stepUnits = printedUnits(s, decimals) as bigint;
        const exact = decimalString(BigInt(n) * stepUnits, decimals);
        expect(fromSteps(n, s)).toBe(Number(exact));
      }),
      runs,
    );
  });
});
