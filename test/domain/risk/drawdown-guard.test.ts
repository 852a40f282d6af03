// Drawdown guard table: trailing drawdown from peak NAV against RISK_MAX_DRAWDOWN, and the
// reduce-only exemption that lets a breached account still wind down.
import { describe, expect, it } from 'vitest';
import { drawdown } from '../../../src/domain/risk/drawdown-guard.js';
import { evaluateOrder } from '../../../src/domain/risk/risk-engine.js';
import { account, freeMarket, market, order, position } from './builders.js';

describe('drawdown guard', () => {
  it.each([
    { name: 'at the peak', nav: 10_000, peakNav: 10_000, passed: true, code: 'OK', value: 0 },
    { name: 'exactly at the limit', nav: 9_000, peakNav: 10_000, passed: true, code: 'OK', value: 0.1 },
    { name: 'just past the limit', nav: 8_999, peakNav: 10_000, passed: false, code: 'DRAWDOWN_LIMIT', value: 0.1001 },
    {
      name: 'stale peak below NAV counts as no drawdown',
      nav: 10_000,
      peakNav: 9_000,
      passed: true,
      code: 'OK',
      value: 0,
    },
    { name: 'nothing left', nav: 0, peakNav: 0, passed: false, code: 'DRAWDOWN_LIMIT', value: 1 },
    { name: 'negative NAV', nav: -500, peakNav: 10_000, passed: false, code: 'DRAWDOWN_LIMIT', value: 1.05 },
  ])('$name → $code', ({ nav, peakNav, passed, code, value }) => {
    // A book with no spread: the table is about the drawdown's arithmetic; what an order's costs add is
    // in limit-crossings.test.ts.
    const decision = evaluateOrder(order(), { account: account({ nav, peakNav }), market: freeMarket() });
    const check = decision.checks[0];
    expect(check.guard).toBe('drawdown');
    expect(check.passed).toBe(passed);
    expect(check.code).toBe(code);
    expect(check.value).toBeCloseTo(value, 12);
    expect(check.limit).toBe(0.1);
    if (!passed) expect(decision.approved).toBe(false);
  });

  it('honours a custom limit', () => {
    const limits = {
      maxDrawdown: 0.2,
      maxLeverage: 3,
      maxVolumeFraction: 0.05,
      maxDepthFraction: 0.25,
      maxSymbolExposure: 0.5,
      maxTotalExposure: 2,
    };
    const check = evaluateOrder(order(), { account: account({ nav: 8_500 }), market: market(), limits }).checks[0];
    expect(check).toMatchObject({ passed: true, code: 'OK', limit: 0.2 });
  });

  it('passes a reduce-only order that shrinks the position even in a breach', () => {
    const decision = evaluateOrder(order({ side: 'SELL', qty: 1, reduceOnly: true }), {
      account: account({ nav: 5_000, peakNav: 10_000, positions: [position('BTCUSDT', 2, 100)] }),
      market: market(),
    });
    expect(decision.checks[0]).toMatchObject({ guard: 'drawdown', passed: true, code: 'OK', value: 0.5 });
    expect(decision.approved).toBe(true);
  });

  it('gives no exemption to a reduce-only flag that reduces nothing (no position)', () => {
    const check = evaluateOrder(order({ side: 'SELL', reduceOnly: true }), {
      account: account({ nav: 5_000 }),
      market: market(),
    }).checks[0];
    expect(check).toMatchObject({ passed: false, code: 'DRAWDOWN_LIMIT' });
  });

  it('blocks a risk-reducing order that is not flagged reduce-only', () => {
    const check = evaluateOrder(order({ side: 'SELL' }), {
      account: account({ nav: 5_000, positions: [position('BTCUSDT', 2, 100)] }),
      market: market(),
    }).checks[0];
    expect(check).toMatchObject({ passed: false, code: 'DRAWDOWN_LIMIT' });
  });

  it('drawdown() is the fraction below the peak', () => {
    expect(drawdown(7_500, 10_000)).toBe(0.25);
    expect(drawdown(12_000, 10_000)).toBe(0);
  });
});
