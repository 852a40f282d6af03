/**
 * STOP_LOSS, TAKE_PROFIT, TRAILING_STOP, COOLDOWN_AFTER_STOP and PROTECTION_PARAMS as the trading
 * process reads them: off by default, read when set, and a bad value refused naming the variable.
 */
import { describe, expect, it } from 'vitest';
import { assertProtectedStrategiesRun, readProtectionConfig } from '../../src/runtime/trading/protection-config.js';

describe('protection configuration', () => {
  it('is off by default', () => {
    expect(readProtectionConfig({})).toEqual({
      global: { stopLoss: null, takeProfit: null, trailingStop: null, cooldownAfterStop: 0 },
      byStrategy: {},
    });
  });
  it('reads the global fractions, the cooldown and per-strategy overrides', () => {
    const config = readProtectionConfig({
      STOP_LOSS: '0.03',
      TAKE_PROFIT: '0.06',
      TRAILING_STOP: '0.02',
      COOLDOWN_AFTER_STOP: '15',
      PROTECTION_PARAMS: '{"funding_rate_contrarian":{"stop_loss":0.05,"take_profit":null}}',
    });
    expect(config.global).toEqual({ stopLoss: 0.03, takeProfit: 0.06, trailingStop: 0.02, cooldownAfterStop: 15 });
    expect(config.byStrategy).toEqual({ funding_rate_contrarian: { stopLoss: 0.05, takeProfit: null } });
  });
  it.each([
    [{ STOP_LOSS: '3' }, /STOP_LOSS must be a fraction of the entry price in \(0, 1\), e\.g\. 0\.03, got "3"/],
    [{ TRAILING_STOP: 'abc' }, /TRAILING_STOP must be a fraction/],
    [{ COOLDOWN_AFTER_STOP: '2.5' }, /COOLDOWN_AFTER_STOP must be a whole number/],
    [{ PROTECTION_PARAMS: '{' }, /PROTECTION_PARAMS is not valid JSON/],
    [{ PROTECTION_PARAMS: '{"a":1}' }, /PROTECTION_PARAMS must be a JSON object of objects/],
    [{ PROTECTION_PARAMS: '{"a":{"stop":0.1}}' }, /PROTECTION_PARAMS\.a: unknown field "stop"/],
  ])('refuses %j', (env, message) => {
    expect(() => readProtectionConfig(env)).toThrow(message);
  });
  it('refuses PROTECTION_PARAMS for a strategy that is not running', () => {
    const config = readProtectionConfig({ PROTECTION_PARAMS: '{"momentum":{"stop_loss":0.1}}' });
    expect(() => assertProtectedStrategiesRun(config, ['momentum_ma_crossover'])).toThrow(
      'PROTECTION_PARAMS names momentum, which is not a running strategy (running: momentum_ma_crossover)',
    );
  });
});
