// Exposure guard table: per-symbol |position notional| / NAV and net directional exposure
// |Σ signed notional| / NAV after the order, against RISK_MAX_SYMBOL_EXPOSURE and
// RISK_MAX_TOTAL_EXPOSURE; and how the net figure differs from leverage's gross one.
import { describe, expect, it } from 'vitest';
import type { Position } from '../../../src/domain/portfolio.js';
import type { RiskLimits } from '../../../src/domain/risk/limits.js';
import { DEFAULT_RISK_LIMITS } from '../../../src/domain/risk/limits.js';
import { evaluateOrder } from '../../../src/domain/risk/risk-engine.js';
import { account, freeMarket, order, position } from './builders.js';

// NAV 10 000, BTC at 100: 1 BTC = 0.01× NAV, 1 ETH at 2 000 = 0.2×, 1 SOL at 100 = 0.01×.
describe('exposure guard', () => {
  it.each<{
    name: string;
    positions: Position[];
    side: 'BUY' | 'SELL';
    qty: number;
    reduceOnly?: boolean;
    passed: boolean;
    code: string;
    value: number;
    limit: number;
  }>([
    { name: 'flat, 0.49×', positions: [], side: 'BUY', qty: 49, passed: true, code: 'OK', value: 0.49, limit: 0.5 },
    {
      name: 'flat, exactly 0.5×',
      positions: [],
      side: 'BUY',
      qty: 50,
      passed: true,
      code: 'OK',
      value: 0.5,
      limit: 0.5,
    },
    {
      name: 'flat, 0.51×',
      positions: [],
      side: 'BUY',
      qty: 51,
      passed: false,
      code: 'EXPOSURE_SYMBOL',
      value: 0.51,
      limit: 0.5,
    },
    {
      name: 'adds to a long past 0.5×',
      positions: [position('BTCUSDT', 40, 100)],
      side: 'BUY',
      qty: 11,
      passed: false,
      code: 'EXPOSURE_SYMBOL',
      value: 0.51,
      limit: 0.5,
    },
    {
      name: 'buying against a short shrinks it',
      positions: [position('BTCUSDT', -40, 100)],
      side: 'BUY',
      qty: 11,
      passed: true,
      code: 'OK',
      value: 0.29,
      limit: 0.5,
    },
    {
      name: 'flip long 40 → short 50',
      positions: [position('BTCUSDT', 40, 100)],
      side: 'SELL',
      qty: 90,
      passed: true,
      code: 'OK',
      value: 0.5,
      limit: 0.5,
    },
    {
      name: 'flip long 40 → short 51',
      positions: [position('BTCUSDT', 40, 100)],
      side: 'SELL',
      qty: 91,
      passed: false,
      code: 'EXPOSURE_SYMBOL',
      value: 0.51,
      limit: 0.5,
    },
    {
      name: 'over 0.5× already, a partial sell passes',
      positions: [position('BTCUSDT', 80, 100)],
      side: 'SELL',
      qty: 10,
      passed: true,
      code: 'OK',
      value: 0.7,
      limit: 0.5,
    },
    {
      name: 'over 0.5× already, a reduce-only sell passes',
      positions: [position('BTCUSDT', 80, 100)],
      side: 'SELL',
      qty: 10,
      reduceOnly: true,
      passed: true,
      code: 'OK',
      value: 0.7,
      limit: 0.5,
    },
    {
      name: 'all long: net 1.4× + 0.11× = 1.51×',
      positions: [position('ETHUSDT', 5, 2_000), position('SOLUSDT', 40, 100)],
      side: 'BUY',
      qty: 11,
      passed: false,
      code: 'EXPOSURE_TOTAL',
      value: 1.51,
      limit: 1.5,
    },
    {
      name: 'all long: net 1.4× + 0.1× = exactly 1.5×',
      positions: [position('ETHUSDT', 5, 2_000), position('SOLUSDT', 40, 100)],
      side: 'BUY',
      qty: 10,
      passed: true,
      code: 'OK',
      value: 1.5,
      limit: 1.5,
    },
    {
      name: 'all short: net −1.45× − 0.06× = |−1.51×|',
      positions: [position('ETHUSDT', -6, 2_000), position('SOLUSDT', -25, 100)],
      side: 'SELL',
      qty: 6,
      passed: false,
      code: 'EXPOSURE_TOTAL',
      value: 1.51,
      limit: 1.5,
    },
    {
      name: 'mixed: gross 2.01× but net 1.6× − 0.3× + 0.11× = 1.41×',
      positions: [position('ETHUSDT', 8, 2_000), position('SOLUSDT', -30, 100)],
      side: 'BUY',
      qty: 11,
      passed: true,
      code: 'OK',
      value: 1.41,
      limit: 1.5,
    },
    {
      name: 'net over already (1.7×), a short elsewhere lowers it to 1.6× and passes although gross grows',
      positions: [position('ETHUSDT', 6, 2_000), position('SOLUSDT', 50, 100)],
      side: 'SELL',
      qty: 10,
      passed: true,
      code: 'OK',
      value: 1.6,
      limit: 1.5,
    },
    {
      name: 'net over already (1.7×), a buy that raises it fails',
      positions: [position('ETHUSDT', 6, 2_000), position('SOLUSDT', 50, 100)],
      side: 'BUY',
      qty: 1,
      passed: false,
      code: 'EXPOSURE_TOTAL',
      value: 1.71,
      limit: 1.5,
    },
    {
      name: 'net 2.1×: covering part of a BTC short lowers gross but raises net to 2.2×',
      positions: [position('ETHUSDT', 12, 2_000), position('BTCUSDT', -30, 100)],
      side: 'BUY',
      qty: 10,
      passed: false,
      code: 'EXPOSURE_TOTAL',
      value: 2.2,
      limit: 1.5,
    },
    {
      name: 'net 2.1×: the same cover sent reduce-only is exempt',
      positions: [position('ETHUSDT', 12, 2_000), position('BTCUSDT', -30, 100)],
      side: 'BUY',
      qty: 10,
      reduceOnly: true,
      passed: true,
      code: 'OK',
      value: 2.2,
      limit: 1.5,
    },
  ])('$name → $code', ({ positions, side, qty, reduceOnly = false, passed, code, value, limit }) => {
    const check = evaluateOrder(order({ side, qty, reduceOnly }), {
      account: account({ positions }),
      market: freeMarket(),
    }).checks[3];
    expect(check.guard).toBe('exposure');
    expect(check).toMatchObject({ passed, code, limit });
    expect(check.value).toBeCloseTo(value, 12);
  });

  it('reports the symbol, net and signed figures in metrics', () => {
    // Short ETH 1×, buy 0.1× BTC: the net moves from −1× to −0.9×, so |net| falls.
    const check = evaluateOrder(order({ qty: 10 }), {
      account: account({ positions: [position('ETHUSDT', -5, 2_000)] }),
      market: freeMarket(),
    }).checks[3];
    expect(check.metrics.symbolExposureAfter).toBeCloseTo(0.1, 12);
    expect(check.metrics.totalExposureBefore).toBeCloseTo(1, 12);
    expect(check.metrics.totalExposureAfter).toBeCloseTo(0.9, 12);
    expect(check.metrics.netNotionalBefore).toBeCloseTo(-10_000, 9);
    expect(check.metrics.netNotionalAfter).toBeCloseTo(-9_000, 9);
    expect(check.message).toMatch(/net 0\.9/);
  });

  it('refuses non-reduce-only orders when NAV is not positive', () => {
    const check = evaluateOrder(order(), { account: account({ nav: -1 }), market: freeMarket() }).checks[3];
    expect(check).toMatchObject({ passed: false, code: 'NAV_NOT_POSITIVE', value: null });
  });
});

describe('net exposure and gross leverage are different figures', () => {
  it('a long BTC / short ETH book: leverage fails while exposure passes', () => {
    // A wide per-symbol limit so the two legs can be large; leverage 3× and net 1.5× as by default.
    const limits: RiskLimits = { ...DEFAULT_RISK_LIMITS, maxSymbolExposure: 2 };
    const positions = [position('BTCUSDT', 140, 100), position('ETHUSDT', -8, 2_000)]; // +1.4×, −1.6×
    const decision = evaluateOrder(order({ qty: 20 }), {
      account: account({ positions }),
      market: freeMarket(),
      limits,
    });
    const [, lev, , exp] = decision.checks;
    expect(lev).toMatchObject({ passed: false, code: 'LEVERAGE_LIMIT', limit: 3 });
    expect(lev.value).toBeCloseTo(3.2, 12); // 1.6× + 1.6× gross
    expect(exp).toMatchObject({ passed: true, code: 'OK' });
    expect(exp.metrics.totalExposureAfter).toBeCloseTo(0, 12); // +1.6× − 1.6× net
    expect(decision.approved).toBe(false);
  });

  it('a one-directional book: exposure fails while leverage passes', () => {
    const positions = [position('ETHUSDT', 5, 2_000), position('SOLUSDT', 45, 100)]; // +1×, +0.45×
    const decision = evaluateOrder(order({ qty: 10 }), { account: account({ positions }), market: freeMarket() });
    const [, lev, , exp] = decision.checks;
    expect(lev).toMatchObject({ passed: true, code: 'OK', limit: 3 });
    expect(lev.value).toBeCloseTo(1.55, 12);
    expect(exp).toMatchObject({ passed: false, code: 'EXPOSURE_TOTAL', limit: 1.5 });
    expect(exp.value).toBeCloseTo(1.55, 12);
    expect(decision.approved).toBe(false);
  });
});
