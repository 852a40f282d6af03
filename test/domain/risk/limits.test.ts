// Risk limits: parseRiskLimits (defaults when unset, overrides when valid, errors naming the
// variable) and assertRiskLimits for limits built in code.
import { describe, expect, it } from 'vitest';
import { assertRiskLimits, DEFAULT_RISK_LIMITS, parseRiskLimits } from '../../../src/domain/risk/limits.js';
import { evaluateOrder } from '../../../src/domain/risk/risk-engine.js';
import { account, market, order } from './builders.js';

describe('parseRiskLimits', () => {
  it('uses the defaults when nothing is set', () => {
    expect(parseRiskLimits({})).toEqual({
      maxDrawdown: 0.1,
      maxLeverage: 3,
      maxVolumeFraction: 0.05,
      maxDepthFraction: 0.25,
      maxSymbolExposure: 0.5,
      maxTotalExposure: 1.5,
    });
    expect(parseRiskLimits({ RISK_MAX_LEVERAGE: '  ' })).toEqual(DEFAULT_RISK_LIMITS);
  });

  it('reads every variable', () => {
    expect(
      parseRiskLimits({
        RISK_MAX_DRAWDOWN: '0.2',
        RISK_MAX_LEVERAGE: '5',
        RISK_MAX_VOLUME_FRACTION: '0.01',
        RISK_MAX_DEPTH_FRACTION: '1',
        RISK_MAX_SYMBOL_EXPOSURE: ' 1.5 ',
        RISK_MAX_TOTAL_EXPOSURE: '4e0',
      }),
    ).toEqual({
      maxDrawdown: 0.2,
      maxLeverage: 5,
      maxVolumeFraction: 0.01,
      maxDepthFraction: 1,
      maxSymbolExposure: 1.5,
      maxTotalExposure: 4,
    });
  });

  it.each([
    ['RISK_MAX_DRAWDOWN', '0'],
    ['RISK_MAX_DRAWDOWN', '1.5'],
    ['RISK_MAX_DRAWDOWN', '10%'],
    ['RISK_MAX_LEVERAGE', '-1'],
    ['RISK_MAX_LEVERAGE', 'abc'],
    ['RISK_MAX_LEVERAGE', 'Infinity'],
    ['RISK_MAX_LEVERAGE', '0x10'],
    ['RISK_MAX_VOLUME_FRACTION', '2'],
    ['RISK_MAX_DEPTH_FRACTION', 'NaN'],
    ['RISK_MAX_SYMBOL_EXPOSURE', '0'],
    ['RISK_MAX_TOTAL_EXPOSURE', '1e400'],
  ])('%s=%s is refused with the variable named', (variable, value) => {
    expect(() => parseRiskLimits({ [variable]: value })).toThrow(
      new RegExp(`${variable} must be .*got "${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`),
    );
  });

  it('lists every bad variable at once', () => {
    expect(() => parseRiskLimits({ RISK_MAX_DRAWDOWN: 'x', RISK_MAX_TOTAL_EXPOSURE: '-2' })).toThrow(
      /RISK_MAX_DRAWDOWN.*; RISK_MAX_TOTAL_EXPOSURE/,
    );
  });
});

describe('assertRiskLimits (limits built in code)', () => {
  it('accepts the defaults and refuses NaN or out-of-range figures, naming the field', () => {
    expect(() => assertRiskLimits(DEFAULT_RISK_LIMITS)).not.toThrow();
    expect(() => assertRiskLimits({ ...DEFAULT_RISK_LIMITS, maxVolumeFraction: Number.NaN })).toThrow(
      /maxVolumeFraction/,
    );
    expect(() => assertRiskLimits({ ...DEFAULT_RISK_LIMITS, maxDrawdown: 2 })).toThrow(/maxDrawdown/);
  });

  it('is enforced by evaluateOrder, so a NaN limit can never let an order through', () => {
    const limits = { ...DEFAULT_RISK_LIMITS, maxDepthFraction: Number.NaN };
    expect(() => evaluateOrder(order(), { account: account(), market: market(), limits })).toThrow(RangeError);
  });
});
