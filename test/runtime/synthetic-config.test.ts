/** The synthetic market's settings from the environment: documented defaults, and a bad value named. */
import { describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { ConfigError } from '../../src/runtime/config.js';
import { readTradingConfig } from '../../src/runtime/trading/trading-config.js';

const base = { RISK_HMAC_SECRET: generateKey() };

describe('readTradingConfig: synthetic market', () => {
  it('defaults to correlated majors, no trend and funding with a 3-day half-life', () => {
    expect(readTradingConfig(base).synthetic).toEqual({ correlation: 0.8, trend: 0, fundingHalfLifeHours: 72 });
    const env = {
      ...base,
      SYNTHETIC_CORRELATION: '0.5',
      SYNTHETIC_TREND: '1',
      SYNTHETIC_FUNDING_HALF_LIFE_HOURS: '24',
    };
    expect(readTradingConfig(env).synthetic).toEqual({ correlation: 0.5, trend: 1, fundingHalfLifeHours: 24 });
  });

  it.each([
    [{ SYNTHETIC_CORRELATION: '1.2' }, /SYNTHETIC_CORRELATION/],
    [{ SYNTHETIC_CORRELATION: 'high' }, /SYNTHETIC_CORRELATION/],
    [{ SYNTHETIC_TREND: '-1' }, /SYNTHETIC_TREND/],
    [{ SYNTHETIC_FUNDING_HALF_LIFE_HOURS: '0' }, /SYNTHETIC_FUNDING_HALF_LIFE_HOURS/],
  ])('refuses %j', (env, message) => {
    expect(() => readTradingConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => readTradingConfig({ ...base, ...env })).toThrow(message);
  });
});
