// Exposure guard table: per-symbol |position notional| / NAV and gross total / NAV after the order,
// against RISK_MAX_SYMBOL_EXPOSURE and RISK_MAX_TOTAL_EXPOSURE.
import { describe, expect, it } from 'vitest';
import type { Position } from '../../../src/domain/portfolio.js';
import { evaluateOrder } from '../../../src/domain/risk/risk-engine.js';
import { account, market, order, position } from './builders.js';

describe('exposure guard', () => {
  it.each<{ name: string; positions: Position[]; side: 'BUY' | 'SELL'; qty: number; reduceOnly?: boolean; passed: boolean; code: string; value: number; limit: number }>([
    { name: 'flat, 0.49×', positions: [], side: 'BUY', qty: 49, passed: true, code: 'OK', value: 0.49, limit: 0.5 },
    { name: 'flat, exactly 0.5×', positions: [], side: 'BUY', qty: 50, passed: true, code: 'OK', value: 0.5, limit: 0.5 },
    { name: 'flat, 0.51×', positions: [], side: 'BUY', qty: 51, passed: false, code: 'EXPOSURE_SYMBOL', value: 0.51, limit: 0.5 },
    { name: 'adds to a long past 0.5×', positions: [position('BTCUSDT', 40, 100)], side: 'BUY', qty: 11, passed: false, code: 'EXPOSURE_SYMBOL', value: 0.51, limit: 0.5 },
    { name: 'buying against a short shrinks it', positions: [position('BTCUSDT', -40, 100)], side: 'BUY', qty: 11, passed: true, code: 'OK', value: 0.29, limit: 0.5 },
    { name: 'flip long 40 → short 50', positions: [position('BTCUSDT', 40, 100)], side: 'SELL', qty: 90, passed: true, code: 'OK', value: 0.5, limit: 0.5 },
    { name: 'flip long 40 → short 51', positions: [position('BTCUSDT', 40, 100)], side: 'SELL', qty: 91, passed: false, code: 'EXPOSURE_SYMBOL', value: 0.51, limit: 0.5 },
    { name: 'over 0.5× already, a partial sell passes', positions: [position('BTCUSDT', 80, 100)], side: 'SELL', qty: 10, passed: true, code: 'OK', value: 0.7, limit: 0.5 },
    { name: 'over 0.5× already, a reduce-only sell passes', positions: [position('BTCUSDT', 80, 100)], side: 'SELL', qty: 10, reduceOnly: true, passed: true, code: 'OK', value: 0.7, limit: 0.5 },
    {
      name: 'gross 1.9× + 0.11× = 2.01× total',
      positions: [position('ETHUSDT', 8, 2_000), position('SOLUSDT', 30, 100)],
      side: 'BUY', qty: 11, passed: false, code: 'EXPOSURE_TOTAL', value: 2.01, limit: 2,
    },
    {
      name: 'gross 1.9× + 0.1× = exactly 2×',
      positions: [position('ETHUSDT', 8, 2_000), position('SOLUSDT', 30, 100)],
      side: 'BUY', qty: 10, passed: true, code: 'OK', value: 2, limit: 2,
    },
    {
      name: 'total over already, an order elsewhere that lowers it passes',
      positions: [position('ETHUSDT', 12, 2_000), position('BTCUSDT', -30, 100)],
      side: 'BUY', qty: 10, passed: true, code: 'OK', value: 2.6, limit: 2,
    },
  ])('$name → $code', ({ positions, side, qty, reduceOnly = false, passed, code, value, limit }) => {
    const check = evaluateOrder(order({ side, qty, reduceOnly }), { account: account({ positions }), market: market() }).checks[3];
    expect(check.guard).toBe('exposure');
    expect(check).toMatchObject({ passed, code, limit });
    expect(check.value).toBeCloseTo(value, 12);
  });

  it('reports both figures in metrics', () => {
    const check = evaluateOrder(order({ qty: 10 }), { account: account({ positions: [position('ETHUSDT', 5, 2_000)] }), market: market() }).checks[3];
    expect(check.metrics.symbolExposureAfter).toBeCloseTo(0.1, 12);
    expect(check.metrics.totalExposureAfter).toBeCloseTo(1.1, 12);
    expect(check.metrics.totalExposureBefore).toBeCloseTo(1, 12);
  });

  it('refuses non-reduce-only orders when NAV is not positive', () => {
    const check = evaluateOrder(order(), { account: account({ nav: -1 }), market: market() }).checks[3];
    expect(check).toMatchObject({ passed: false, code: 'NAV_NOT_POSITIVE', value: null });
  });
});
