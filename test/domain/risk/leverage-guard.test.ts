// Leverage guard table: gross notional of all positions after the order / NAV (longs and shorts
// both count; hedges do not offset) against RISK_MAX_LEVERAGE, including the "already over but not
// increased" and reduce-only passes.
import { describe, expect, it } from 'vitest';
import type { RiskLimits } from '../../../src/domain/risk/limits.js';
import { DEFAULT_RISK_LIMITS } from '../../../src/domain/risk/limits.js';
import { evaluateOrder } from '../../../src/domain/risk/risk-engine.js';
import { account, freeMarket, order, position } from './builders.js';

// Exposure limits opened up so only leverage is being exercised.
const limits: RiskLimits = { ...DEFAULT_RISK_LIMITS, maxSymbolExposure: 100, maxTotalExposure: 100 };

describe('leverage guard', () => {
  it.each([
    { name: 'flat account, small order', positions: [], side: 'BUY', qty: 1, passed: true, code: 'OK', value: 0.01 },
    {
      name: '2.5× ETH + 40 BTC = 2.9×',
      positions: [position('ETHUSDT', 10, 2_500)],
      side: 'BUY',
      qty: 40,
      passed: true,
      code: 'OK',
      value: 2.9,
    },
    {
      name: 'exactly 3×',
      positions: [position('ETHUSDT', 10, 2_500)],
      side: 'BUY',
      qty: 50,
      passed: true,
      code: 'OK',
      value: 3,
    },
    {
      name: '3.1× breaches',
      positions: [position('ETHUSDT', 10, 2_500)],
      side: 'BUY',
      qty: 60,
      passed: false,
      code: 'LEVERAGE_LIMIT',
      value: 3.1,
    },
    {
      name: 'a short counts gross too',
      positions: [position('ETHUSDT', -10, 2_500)],
      side: 'SELL',
      qty: 60,
      passed: false,
      code: 'LEVERAGE_LIMIT',
      value: 3.1,
    },
    {
      name: 'a hedge does not offset: short ETH 2.5× + long BTC 0.6× (net −1.9×)',
      positions: [position('ETHUSDT', -10, 2_500)],
      side: 'BUY',
      qty: 60,
      passed: false,
      code: 'LEVERAGE_LIMIT',
      value: 3.1,
    },
    {
      name: 'already 3.7×, a sell that lowers it passes',
      positions: [position('ETHUSDT', 14, 2_500), position('BTCUSDT', 20, 100)],
      side: 'SELL',
      qty: 10,
      passed: true,
      code: 'OK',
      value: 3.6,
    },
    {
      name: 'already 3.7×, a buy that raises it fails',
      positions: [position('ETHUSDT', 14, 2_500), position('BTCUSDT', 20, 100)],
      side: 'BUY',
      qty: 1,
      passed: false,
      code: 'LEVERAGE_LIMIT',
      value: 3.71,
    },
  ] as const)('$name → $code', ({ positions, side, qty, passed, code, value }) => {
    const check = evaluateOrder(order({ side, qty }), {
      account: account({ positions: [...positions] }),
      market: freeMarket(),
      limits,
    }).checks[1];
    expect(check.guard).toBe('leverage');
    expect(check).toMatchObject({ passed, code, limit: 3 });
    expect(check.value).toBeCloseTo(value, 12);
  });

  it('refuses everything but reduce-only orders when NAV is not positive', () => {
    const positions = [position('BTCUSDT', 5, 100)];
    const buy = evaluateOrder(order(), { account: account({ nav: 0, positions }), market: freeMarket(), limits })
      .checks[1];
    expect(buy).toMatchObject({ passed: false, code: 'NAV_NOT_POSITIVE', value: null, limit: 3 });
    const reduce = evaluateOrder(order({ side: 'SELL', reduceOnly: true }), {
      account: account({ nav: -100, positions }),
      market: freeMarket(),
      limits,
    }).checks[1];
    expect(reduce).toMatchObject({ passed: true, code: 'OK', value: null });
  });

  it('passes a reduce-only order that shrinks a position while leverage is far over the limit', () => {
    const positions = [position('BTCUSDT', 500, 100)]; // 5×
    const check = evaluateOrder(order({ side: 'SELL', qty: 10, reduceOnly: true }), {
      account: account({ positions }),
      market: freeMarket(),
      limits,
    }).checks[1];
    expect(check).toMatchObject({ passed: true, code: 'OK' });
    expect(check.value).toBeCloseTo(4.9, 12);
  });

  it('caps a reduce-only order at the position: it can close but never flip', () => {
    const positions = [position('BTCUSDT', -300, 100)]; // short, 3×
    const decision = evaluateOrder(order({ side: 'BUY', qty: 1_000, reduceOnly: true }), {
      account: account({ positions }),
      market: freeMarket(),
      limits,
    });
    expect(decision.impact).toMatchObject({ qty: 300, positionAfter: 0, reducesPosition: true });
    expect(decision.checks[1]).toMatchObject({ passed: true, value: 0 });
  });

  it('values other symbols at their own mark and the order symbol at the market last', () => {
    const positions = [position('ETHUSDT', 1, 2_000), position('BTCUSDT', 10, 90)];
    const check = evaluateOrder(order({ qty: 5 }), {
      account: account({ positions }),
      market: freeMarket({ last: 120 }),
      limits,
    }).checks[1];
    expect(check.value).toBeCloseTo((2_000 + 15 * 120) / 10_000, 12);
    expect(check.metrics).toMatchObject({ grossBefore: 2_000 + 10 * 120 });
  });
});
