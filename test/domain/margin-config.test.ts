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
