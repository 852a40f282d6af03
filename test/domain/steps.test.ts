// Lot, tick and quote rounding (src/domain/steps.ts) on the values that used to print float noise:
// the exact expected doubles, their printed form, the residue guard, negatives and bad steps.
import { describe, expect, it } from 'vitest';
import { floorToLot } from '../../src/domain/market.js';
import {
  ceilToStep,
  floorToStep,
  fromSteps,
  isOnStep,
  QUOTE_STEP,
  roundQuote,
  roundToStep,
  stepDecimals,
} from '../../src/domain/steps.js';
import { printedDecimals } from './printed-decimals.js';

describe('rounding to a step', () => {
  // [x, step, nearest, floor, ceil]; each expected value is written as the decimal a reader should see.
  const cases: Array<[string, number, number, number, number, number]> = [
    ['tick noise from the event lines', 59763.69999999999, 0.1, 59763.7, 59763.7, 59763.7],
    ['0.1 + 0.2 on a 0.1 grid', 0.1 + 0.2, 0.1, 0.3, 0.3, 0.3],
    ['0.1 + 0.2 on a 0.01 lot', 0.1 + 0.2, 0.01, 0.3, 0.3, 0.3],
    ['0.3 / 0.1 is 2.9999999999999996 in binary: floor must still give 0.3', 0.3, 0.1, 0.3, 0.3, 0.3],
    ['a price between ticks', 59763.74, 0.1, 59763.7, 59763.7, 59763.8],
    ['a large price on a 0.1 tick', 123_456_789.15000001, 0.1, 123_456_789.2, 123_456_789.1, 123_456_789.2],
    ['a large price on a 0.001 tick', 9_876_543.2104, 0.001, 9_876_543.21, 9_876_543.21, 9_876_543.211],
    ['a fee with float noise on the 1e-8 quote grid', 1.9711774499999999, 1e-8, 1.97117745, 1.97117745, 1.97117745],
    ['a sub-1e-6 amount prints in exponent form', 3.0000000000000004e-8, 1e-8, 3e-8, 3e-8, 3e-8],
    ['a value between 1e-8 steps', 0.123456784, 1e-8, 0.12345678, 0.12345678, 0.12345679],
    ['negative quantity with residue', -(0.1 + 0.2), 0.1, -0.3, -0.3, -0.3],
    ['negative quantity between lots: floor goes towards −∞', -0.156, 0.01, -0.16, -0.16, -0.15],
    ['a 0.5 step', 7.3, 0.5, 7.5, 7, 7.5],
    ['a 0.25 step', 1.1, 0.25, 1, 1, 1.25],
    ['a 2.5 step', 7.4, 2.5, 7.5, 5, 7.5],
    ['a 0.00025 step', 0.0013, 0.00025, 0.00125, 0.00125, 0.0015],
    ['an integer step', 1234.5678, 5, 1235, 1230, 1235],
    ['zero', 0, 0.01, 0, 0, 0],
  ];
  for (const [name, x, step, nearest, floor, ceil] of cases) {
    it(name, () => {
      const results = [roundToStep(x, step), floorToStep(x, step), ceilToStep(x, step)];
      expect(results).toEqual([nearest, floor, ceil]);
      for (const result of results) expect(printedDecimals(result)).toBeLessThanOrEqual(stepDecimals(step));
    });
  }

  it('prints the decimals a reader expects, never float noise', () => {
    expect(String(roundToStep(59763.69999999999, 0.1))).toBe('59763.7');
    expect(String(roundToStep(0.1 + 0.2, 0.01))).toBe('0.3');
    expect(String(roundQuote(1.9711774499999999))).toBe('1.97117745');
    expect(JSON.stringify({ price: floorToStep(0.7 * 3, 0.1), qty: ceilToStep(0.1 * 3, 0.001) })).toBe(
      '{"price":2.1,"qty":0.3}',
    );
  });

  it('rounds halves away from zero, so negatives mirror positives', () => {
    expect(roundToStep(2.5, 1)).toBe(3);
    expect(roundToStep(-2.5, 1)).toBe(-3);
    expect(roundToStep(0.25, 0.5)).toBe(0.5);
    expect(roundToStep(-0.25, 0.5)).toBe(-0.5);
  });

  it('never returns −0', () => {
    expect(Object.is(roundToStep(-0.001, 0.1), 0)).toBe(true);
    expect(Object.is(ceilToStep(-0.05, 0.1), 0)).toBe(true);
    expect(Object.is(fromSteps(-0, 0.01), 0)).toBe(true);
  });

  it('forgives float residue only within the guard', () => {
    // 1e-10 of a step below the grid point is residue; 1e-6 of a step is a real difference.
    expect(floorToStep(3 - 1e-10, 1)).toBe(3);
    expect(floorToStep(3 - 1e-6, 1)).toBe(2);
    expect(ceilToStep(3 + 1e-10, 1)).toBe(3);
    expect(ceilToStep(3 + 1e-6, 1)).toBe(4);
  });

  it('turns whole step counts into clean numbers', () => {
    expect(fromSteps(597_637, 0.1)).toBe(59763.7);
    expect(fromSteps(3, 0.1)).toBe(0.3);
    expect(fromSteps(197_117_745, 1e-8)).toBe(1.97117745);
    expect(fromSteps(-29, 0.25)).toBe(-7.25);
    expect(fromSteps(3, 2.5)).toBe(7.5);
  });

  it('tells grid values from off-grid ones, allowing float residue', () => {
    expect(isOnStep(0.1 + 0.2, 0.1)).toBe(true);
    expect(isOnStep(59763.69999999999, 0.1)).toBe(true);
    expect(isOnStep(-0.30000000000000004, 0.01)).toBe(true);
    expect(isOnStep(0.015, 0.01)).toBe(false);
    expect(isOnStep(98.005, 0.01)).toBe(false);
    expect(isOnStep(7.5, 2.5)).toBe(true);
    expect(isOnStep(7.4, 2.5)).toBe(false);
  });

  it('knows how many decimals a step prints with', () => {
    expect([0.1, 0.001, 1e-8, 2.5, 0.00025, 5, 100].map(stepDecimals)).toEqual([1, 3, 8, 1, 5, 0, 0]);
    expect(stepDecimals(QUOTE_STEP)).toBe(8);
  });

  it('refuses steps that are not positive finite numbers', () => {
    for (const step of [0, -0.1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => roundToStep(1, step)).toThrow(RangeError);
      expect(() => fromSteps(1, step)).toThrow(/step must be a positive finite number/);
    }
    expect(() => floorToLot(1, 0)).toThrow('lotSize must be positive');
  });

  it('floorToLot floors onto the lot grid without residue', () => {
    expect(floorToLot(0.1 + 0.2, 0.1)).toBe(0.3);
    expect(floorToLot(10_000 / 30_000, 0.001)).toBe(0.333);
    expect(floorToLot(0.0299999, 0.01)).toBe(0.02);
  });
});
