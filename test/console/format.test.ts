/** How the console writes figures and times (console/lib/format.ts): missing values are a dash, never 0. */
import { describe, expect, it } from 'vitest';
import { NONE, money, num, pct, qty, ratio, signedMoney, utc, utcInputToIso } from '../../console/lib/format.js';

describe('console formatting', () => {
  it('writes amounts, signs, percentages, ratios and quantities', () => {
    expect(money(100234.5)).toBe('100,234.50');
    expect(signedMoney(12.3)).toBe('+12.30');
    expect(signedMoney(-4)).toBe('−4.00');
    expect(signedMoney(0)).toBe('0.00');
    expect(pct(0.0123)).toBe('1.23 %');
    expect(ratio(1.234)).toBe('1.23×');
    expect(qty(0.001)).toBe('0.001');
    expect(qty(-0.016)).toBe('-0.016');
    expect(qty(0)).toBe('0');
    expect(num(8.903312)).toBe('8.9033');
    expect(num(50)).toBe('50');
  });

  it('shows a dash for a missing figure, never 0', () => {
    for (const f of [money, signedMoney, pct, ratio, qty, num]) {
      expect(f(null)).toBe(NONE);
      expect(f(undefined)).toBe(NONE);
      expect(f(Number.NaN)).toBe(NONE);
    }
    expect(utc(null)).toBe(NONE);
    expect(utc('not a time')).toBe(NONE);
  });

  it('writes times in UTC, and reads the UTC time filters', () => {
    expect(utc('2026-01-05T12:00:00.000Z')).toBe('2026-01-05 12:00:00 UTC');
    expect(utc('2026-01-05T13:00:00+01:00')).toBe('2026-01-05 12:00:00 UTC');
    expect(utcInputToIso('2026-01-05T12:00')).toBe('2026-01-05T12:00:00.000Z');
    expect(utcInputToIso('2026-01-05T12:00:30')).toBe('2026-01-05T12:00:30.000Z');
    expect(utcInputToIso('')).toBeUndefined();
    expect(utcInputToIso('2026-13-45T99:00')).toBeUndefined();
  });
});
