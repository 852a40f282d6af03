// The risk engine as a whole: all four checks always reported in order, approval only when all
// pass, unusable orders refused with INVALID_ORDER on every check.
import { describe, expect, it } from 'vitest';
import { GUARD_NAMES } from '../../../src/domain/risk/check.js';
import { evaluateOrder } from '../../../src/domain/risk/risk-engine.js';
import { account, market, order } from './builders.js';

describe('evaluateOrder', () => {
  it('approves a plain small order and reports all four checks in order', () => {
    const decision = evaluateOrder(order(), { account: account(), market: market() });
    expect(decision.approved).toBe(true);
    expect(decision.checks.map((c) => c.guard)).toEqual(GUARD_NAMES);
    expect(decision.checks.every((c) => c.passed && c.code === 'OK' && c.message.length > 0)).toBe(true);
    expect(decision.impact).toMatchObject({
      price: 100.1,
      qty: 1,
      positionBefore: 0,
      positionAfter: 1,
      reducesPosition: false,
    });
    expect(decision.impact?.notional).toBeCloseTo(100.1, 12);
  });

  it('still reports every check when several fail', () => {
    const decision = evaluateOrder(order({ qty: 400 }), { account: account({ nav: 8_000 }), market: market() });
    expect(decision.approved).toBe(false);
    expect(decision.checks.map((c) => [c.guard, c.code])).toEqual([
      ['drawdown', 'DRAWDOWN_LIMIT'],
      ['leverage', 'LEVERAGE_LIMIT'],
      ['liquidity', 'LIQUIDITY_VOLUME'],
      ['exposure', 'EXPOSURE_SYMBOL'],
    ]);
  });

  it.each([
    { name: 'symbol mismatch', o: order({ symbol: 'ETHUSDT' }), m: market() },
    { name: 'zero qty', o: order({ qty: 0 }), m: market() },
    { name: 'negative qty', o: order({ qty: -1 }), m: market() },
    { name: 'NaN qty', o: order({ qty: Number.NaN }), m: market() },
    { name: 'limit order without a price', o: order({ type: 'limit', limitPrice: null }), m: market() },
    { name: 'limit order with a zero price', o: order({ type: 'limit', limitPrice: 0 }), m: market() },
    { name: 'market BUY with no ask', o: order(), m: market({ ask: 0 }) },
    { name: 'market SELL with no bid', o: order({ side: 'SELL' }), m: market({ bid: Number.NaN }) },
    { name: 'no last price', o: order(), m: market({ last: 0 }) },
  ])('refuses an unusable order: $name', ({ o, m }) => {
    const decision = evaluateOrder(o, { account: account(), market: m });
    expect(decision.approved).toBe(false);
    expect(decision.impact).toBeNull();
    expect(decision.checks.map((c) => c.guard)).toEqual(GUARD_NAMES);
    for (const c of decision.checks)
      expect(c).toMatchObject({ passed: false, code: 'INVALID_ORDER', value: null, limit: null });
  });

  it('refuses an account with non-finite figures', () => {
    const decision = evaluateOrder(order(), { account: account({ nav: Number.NaN }), market: market() });
    expect(decision.checks[0].code).toBe('INVALID_ORDER');
  });

  it('produces audit records that survive JSON (no NaN or Infinity)', () => {
    const decision = evaluateOrder(order({ qty: 1e6 }), {
      account: account({ nav: 0, peakNav: 0 }),
      market: market({ volume: 0, asks: [] }),
    });
    expect(JSON.parse(JSON.stringify(decision))).toEqual(decision);
  });
});
