// Indicator helpers: SMA windows (including the shifted window used for crossovers) and clamping.
import { describe, expect, it } from 'vitest';
import { clamp, sma } from '../../src/domain/indicators.js';

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
