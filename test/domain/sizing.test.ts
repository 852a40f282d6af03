// Target-position sizing: the target from direction × confidence × riskFraction × NAV, the expected
// position once resting orders fill, and scaling an increase down to the limit that binds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Instrument } from '../../src/domain/market.js';
import { DEFAULT_RISK_LIMITS } from '../../src/domain/risk/limits.js';
import { projectAccount } from '../../src/domain/risk/projection.js';
import { evaluateOrder } from '../../src/domain/risk/risk-engine.js';
import { expectedPosition, fitToLimits, targetQty } from '../../src/domain/sizing.js';
import { account, market, order, position } from './risk/builders.js';

const BTC: Instrument = { symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 5 };

describe('targetQty', () => {
  it.each([
    { direction: 1, confidence: 0.8, nav: 10_000, price: 100, expected: 8 },
    { direction: -1, confidence: 0.5, nav: 10_000, price: 100, expected: -5 },
    { direction: 0, confidence: 1, nav: 10_000, price: 100, expected: 0 },
    { direction: 1, confidence: 1, nav: -5, price: 100, expected: 0 },
  ])(
    '$direction × $confidence × 0.1 × $nav / $price = $expected',
    ({ direction, confidence, nav, price, expected }) => {
      expect(targetQty(direction, confidence, 0.1, nav, price)).toBeCloseTo(expected, 12);
    },
  );
});

describe('expectedPosition', () => {
  it('adds resting buys, subtracts sells, and caps reduce-only orders at flat', () => {
    const resting = (side: 'BUY' | 'SELL', qty: number, reduceOnly = false) => ({
      ...order({ side, qty, reduceOnly, type: 'limit', limitPrice: 100 }),
      status: 'open' as const,
      filledQty: 0,
      avgFillPrice: null,
      createdAt: 0,
      updatedAt: 0,
    });
    const projection = projectAccount(
      account({
        positions: [position('BTCUSDT', 5, 100)],
        openOrders: [resting('BUY', 2), resting('SELL', 1), resting('SELL', 9, true)],
      }),
    );
    // 5 + 2 − 1 − min(9, 5) = 1
    expect(expectedPosition(projection.books.get('BTCUSDT'))).toBe(1);
  });
});

describe('fitToLimits', () => {
  const fit = (wanted: number, nav = 10_000, positions = [position('BTCUSDT', 0, 100)], peakNav = nav) =>
    fitToLimits(wanted, 'BUY', {
      projection: projectAccount(account({ nav, peakNav, positions })),
      market: market(),
      instrument: BTC,
      price: 100.1,
      limits: DEFAULT_RISK_LIMITS,
    });

  it.each([
    { name: 'fits whole', wanted: 10, qty: 10, by: null },
    // depth: 25 % of 100 visible asks
    { name: 'depth binds', wanted: 40, qty: 24.999, by: 'liquidity_depth' },
  ])('$name', ({ wanted, qty, by }) => {
    expect(fit(wanted)).toEqual({ ok: true, qty, limitedBy: by });
  });

  it('scales to the symbol limit given what is held: long 45 BTC leaves 5 under 0.5× NAV, less what crossing costs', () => {
    // q × 100 ≤ 0.5 × (10 000 − q × 0.1): the 0.1 a unit pays from last to the ask comes off the NAV.
    expect(fit(20, 10_000, [position('BTCUSDT', 45, 100)])).toEqual({
      ok: true,
      qty: 4.997,
      limitedBy: 'symbol_exposure',
    });
  });

  it('adds nothing in a drawdown breach', () => {
    expect(fit(1, 8_000, [], 10_000)).toMatchObject({ ok: false, code: 'DRAWDOWN_BREACH' });
  });

  it('property: a fitted buy is always approved by the risk engine', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 60, noNaN: true }),
        fc.double({ min: 0.01, max: 200, noNaN: true }),
        fc.double({ min: 1_000, max: 1e8, noNaN: true }),
        (held, wanted, nav) => {
          const acct = account({ nav, peakNav: nav, positions: [position('BTCUSDT', held, 100)] });
          const m = market({ volume: 1e9 });
          const result = fitToLimits(wanted, 'BUY', {
            projection: projectAccount(acct),
            market: m,
            instrument: BTC,
            price: m.ask,
            limits: DEFAULT_RISK_LIMITS,
          });
          if (!result.ok) return;
          expect(result.qty).toBeLessThanOrEqual(wanted);
          expect(evaluateOrder(order({ qty: result.qty }), { account: acct, market: m }).approved).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
