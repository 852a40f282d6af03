// Indicator helpers: SMA windows (including the shifted window used for crossovers), RSI and clamping.
import { describe, expect, it } from 'vitest';
import { clamp, rsi, sma } from '../../src/domain/indicators.js';

describe('sma', () => {
  it('averages the last `period` values', () => {
    expect(sma([1, 2, 3, 4, 5], 2)).toBe(4.5);
    expect(sma([1, 2, 3, 4, 5], 5)).toBe(3);
  });

  it('averages the window ending before `end`', () => {
    expect(sma([1, 2, 3, 4, 5], 2, 4)).toBe(3.5);
    expect(sma([1, 2, 3, 4, 5], 4, 4)).toBe(2.5);
  });

  it('returns null when there are not enough values', () => {
    expect(sma([1, 2], 3)).toBeNull();
    expect(sma([1, 2, 3], 3, 2)).toBeNull();
    expect(sma([], 1)).toBeNull();
  });

  it('refuses a bad period or end', () => {
    expect(() => sma([1], 0)).toThrow(RangeError);
    expect(() => sma([1], 1.5)).toThrow(RangeError);
    expect(() => sma([1], 1, 2)).toThrow(RangeError);
  });
});

describe('clamp', () => {
  it.each([
    [-1, 0],
    [0.5, 0.5],
    [2, 1],
    [Number.NaN, 0],
    [Number.POSITIVE_INFINITY, 1],
  ])('clamp(%s, 0, 1) = %s', (x, expected) => {
    expect(clamp(x, 0, 1)).toBe(expected);
  });
});

describe('rsi (simple averages of the last period changes)', () => {
  it('matches values worked by hand', () => {
    // Changes +1, +1, −1, +1: average gain 3/4, average loss 1/4, RS 3, RSI 100 − 100/4 = 75.
    expect(rsi([1, 2, 3, 2, 3], 4)).toBeCloseTo(75, 12);
    // Only the last `period` changes count: the earlier fall is outside the window.
    expect(rsi([9, 1, 2, 3, 2, 3], 4)).toBeCloseTo(75, 12);
    // Changes −2, +1: gain 1/2, loss 2/2, RS 0.5, RSI 33.33…
    expect(rsi([5, 3, 4], 2)).toBeCloseTo(100 / 3, 12);
    // `end` moves the window: the 3 changes before index 4 are +1, +1, −1 → 66.67.
    expect(rsi([1, 2, 3, 2, 3], 3, 4)).toBeCloseTo(200 / 3, 12);
  });

  it('is 100 with only gains, 0 with only losses, 50 without movement', () => {
    expect(rsi([1, 2, 3], 2)).toBe(100);
    expect(rsi([3, 2, 1], 2)).toBe(0);
    expect(rsi([2, 2, 2], 2)).toBe(50);
  });

  it('is null with fewer than period + 1 values, and refuses a bad period', () => {
    expect(rsi([1, 2, 3], 3)).toBeNull();
    expect(() => rsi([1, 2], 0)).toThrow(RangeError);
    expect(() => rsi([1, 2], 1.5)).toThrow(RangeError);
  });
});
