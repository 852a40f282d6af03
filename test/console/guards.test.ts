/**
 * The decision view's guard rows (console/lib/guards.ts): each guard's value and limit in the unit
 * an operator reads it in (drawdown and exposure as percentages, leverage as ×, the liquidity
 * guard's notional or quantity, its staleness in ms) and how much of the limit the value uses.
 */
import { describe, expect, it } from 'vitest';
import { guardFigures } from '../../console/lib/guards.js';

const row = (guard: string, value: number | null, limit: number | null, code = 'OK') => ({
  guard,
  passed: true,
  code,
  value,
  limit,
});

describe('guard figures', () => {
  it('reads drawdown and exposure as percentages and leverage as ×, each beside its limit', () => {
    expect(guardFigures(row('drawdown', 0.0004, 0.1))).toEqual({ value: '0.04 %', limit: '10.00 %', used: '0.4 %' });
    expect(guardFigures(row('leverage', 0.62, 3))).toEqual({ value: '0.62×', limit: '3.00×', used: '21 %' });
    expect(guardFigures(row('exposure', 0.31, 0.5))).toEqual({
      value: '31.00 % of NAV',
      limit: '50.00 % of NAV',
      used: '62 %',
    });
  });

  it('reads the liquidity guard as an amount, or an age in ms when the data was stale', () => {
    expect(guardFigures(row('liquidity', 3_100, 50_000))).toEqual({ value: '3,100', limit: '50,000', used: '6.2 %' });
    expect(guardFigures(row('liquidity', 0.012345678, 1.5))).toEqual({
      value: '0.0123',
      limit: '1.5',
      used: '0.8 %',
    });
    expect(guardFigures(row('liquidity', 12_000, 5_000, 'LIQUIDITY_STALE'))).toEqual({
      value: '12,000 ms',
      limit: '5,000 ms',
      used: '240 %',
    });
  });

  it('says — where a figure is missing and when a limit cannot be shared out', () => {
    expect(guardFigures(row('exposure', null, 0.5, 'NAV_NOT_POSITIVE'))).toEqual({
      value: '—',
      limit: '50.00 % of NAV',
      used: '—',
    });
    expect(guardFigures(row('liquidity', 10, 0))).toEqual({ value: '10', limit: '0', used: '—' });
    // A guard this console does not know keeps its plain numbers.
    expect(guardFigures(row('custom', 0.123456, 2))).toEqual({ value: '0.1235', limit: '2', used: '6.2 %' });
  });
});
