/**
 * Issue 32, item 3: "at 1 s cycles with 10 symbols, ccxt's throttle makes cycles 11.5 s long and every
 * opening is refused LIQUIDITY_STALE". The configuration check estimates the request weight a minute
 * of trading costs and warns, naming what to change, when it cannot fit the exchange's budget.
 */
import { describe, expect, it } from 'vitest';
import { requestBudget } from '../../src/domain/request-budget.js';

describe('the request weight a configuration needs', () => {
  it('fits 2 symbols at 60 s cycles with no warning', () => {
    const b = requestBudget({ symbols: 2, cycleMs: 60_000 });
    expect(b.warning).toBeNull();
    expect(b.weightPerMinute).toBeLessThan(b.budgetPerMinute);
  });

  it('warns for 10 symbols at 1 s cycles, naming the figures and the fix', () => {
    const b = requestBudget({ symbols: 10, cycleMs: 1_000 });
    expect(b.weightPerMinute).toBeGreaterThan(2_400);
    expect(b.warning).toMatch(/10 symbols at 1 s cycles need about [\d,]+ request weight a minute/);
    expect(b.warning).toMatch(/1,200 of the exchange's 2,400/);
    // The shortest cycle that fits 10 symbols is named, and fits.
    const shortest = Number(/CYCLE_SECONDS=(\d+)/.exec(b.warning!)![1]);
    expect(requestBudget({ symbols: 10, cycleMs: shortest * 1000 }).warning).toBeNull();
    expect(requestBudget({ symbols: 10, cycleMs: (shortest - 1) * 1000 }).warning).not.toBeNull();
  });

  it('grows with the symbols and shrinks with the cycle', () => {
    const small = requestBudget({ symbols: 1, cycleMs: 5_000 }).weightPerMinute;
    expect(requestBudget({ symbols: 4, cycleMs: 5_000 }).weightPerMinute).toBeGreaterThan(small);
    expect(requestBudget({ symbols: 1, cycleMs: 10_000 }).weightPerMinute).toBeLessThan(small);
  });
});
