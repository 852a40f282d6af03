/**
 * The trading process's margin settings (MARGIN_INITIAL_RATE, MARGIN_MAINTENANCE_RATE,
 * MARGIN_RATES): their defaults, overrides, and the start-up errors for bad values.
 */
import { describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { readTradingConfig } from '../../src/runtime/trading/trading-config.js';

const read = (env: Record<string, string>) =>
  readTradingConfig({ RISK_HMAC_SECRET: generateKey(), SYMBOLS: 'BTCUSDT,ETHUSDT,SOLUSDT:spot', ...env });

describe('trading config: margin', () => {
  it('defaults to 10 % initial and 5 % maintenance', () => {
    expect(read({}).margin).toEqual({ fallback: { initial: 0.1, maintenance: 0.05 }, bySymbol: {} });
  });

  it('reads account-wide rates and per-symbol overrides', () => {
    const config = read({
      MARGIN_INITIAL_RATE: '0.2',
      MARGIN_MAINTENANCE_RATE: '0.1',
      MARGIN_RATES: 'BTCUSDT:0.05:0.025',
    });
    expect(config.margin).toEqual({
      fallback: { initial: 0.2, maintenance: 0.1 },
      bySymbol: { BTCUSDT: { initial: 0.05, maintenance: 0.025 } },
    });
  });

  it.each([
    [{ MARGIN_INITIAL_RATE: 'ten' }, /MARGIN_INITIAL_RATE must be a number/],
    [
      { MARGIN_MAINTENANCE_RATE: '0.2' },
      /MARGIN_INITIAL_RATE\/MARGIN_MAINTENANCE_RATE: .*maintenance \(0.2\) < initial \(0.1\)/,
    ],
    [{ MARGIN_RATES: 'BTCUSDT:0.05' }, /^MARGIN_RATES: /],
    [{ MARGIN_RATES: 'XRPUSDT:0.05:0.025' }, /MARGIN_RATES names XRPUSDT, which is not a perpetual in SYMBOLS/],
    [{ MARGIN_RATES: 'SOLUSDT:0.05:0.025' }, /SOLUSDT, which is not a perpetual/],
  ])('stops start-up on %o', (env, message) => {
    expect(() => read(env)).toThrow(message);
  });
});

describe('trading config: LIQUIDATION_FEE (issue 20)', () => {
  it('defaults to 0.5 % of notional and reads a set value', () => {
    expect(read({}).liquidationFee).toBe(0.005);
    expect(read({ LIQUIDATION_FEE: '0.0125' }).liquidationFee).toBe(0.0125);
    expect(read({ LIQUIDATION_FEE: '0' }).liquidationFee).toBe(0);
  });

  it.each([
    [{ LIQUIDATION_FEE: 'half' }, /LIQUIDATION_FEE must be a number/],
    [{ LIQUIDATION_FEE: '-0.001' }, /LIQUIDATION_FEE must be between 0 and 0.05/],
    [{ LIQUIDATION_FEE: '0.06' }, /LIQUIDATION_FEE must be between 0 and 0.05/],
  ])('stops start-up on %o', (env, message) => {
    expect(() => read(env)).toThrow(message);
  });
});
