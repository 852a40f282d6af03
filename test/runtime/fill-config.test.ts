/**
 * FILL_MODEL, FILL_VOLUME_SHARE, FILL_TOUCH_SHARE, FEE_MAKER and FEE_TAKER as the trading process
 * and `tcs simulate` read them: today's fees and next_open by default, read when set, a bad value
 * refused with a ConfigError naming the variable; a manifest's per-symbol fees laid over them; the
 * risk engine counts the highest rate any fill can pay.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/runtime/config.js';
import { highestFeeRate, readFillConfig } from '../../src/runtime/trading/fill-config.js';
import { withManifestFees } from '../../src/runtime/trading/market-feed.js';
import { readTradingConfig } from '../../src/runtime/trading/trading-config.js';
import { simulationConfig } from '../../src/runtime/simulate/simulation-env.js';
import { parseSimulateArgs } from '../../src/runtime/simulate/simulate-options.js';

const HMAC = { RISK_HMAC_SECRET: 'a'.repeat(64) };

describe('fill configuration', () => {
  it('defaults to next_open, the derived spread, 2.5 % of a bar, no fill on a touch, and the 2 / 5 bp fees', () => {
    expect(readFillConfig({})).toEqual({
      model: 'next_open',
      spread: { model: 'derived' },
      volumeShare: 0.025,
      touchShare: 0,
      makerFee: 0.0002,
      takerFee: 0.0005,
      feesBySymbol: {},
      slippageBps: 0,
      markPrice: 'mid',
    });
  });

  it('reads SLIPPAGE_BPS and MARK_PRICE, and refuses a negative or absurd slippage and an unknown mark', () => {
    expect(readFillConfig({ SLIPPAGE_BPS: '2.5', MARK_PRICE: 'close' })).toMatchObject({
      slippageBps: 2.5,
      markPrice: 'close',
    });
    expect(readFillConfig({ SLIPPAGE_BPS: '0', MARK_PRICE: 'mid' })).toMatchObject({
      slippageBps: 0,
      markPrice: 'mid',
    });
    expect(() => readFillConfig({ SLIPPAGE_BPS: '-1' })).toThrow(/^SLIPPAGE_BPS must be between 0 and 1000, got -1$/);
    expect(() => readFillConfig({ SLIPPAGE_BPS: '5000' })).toThrow(/^SLIPPAGE_BPS must be between 0 and 1000/);
    expect(() => readFillConfig({ SLIPPAGE_BPS: '2bp' })).toThrow(ConfigError);
    expect(() => readFillConfig({ MARK_PRICE: 'last' })).toThrow(/^MARK_PRICE must be one of mid, close, got "last"$/);
  });

  it('reads SPREAD_MODEL and SPREAD_BPS, and refuses a bps without fixed_bps, or fixed_bps without one', () => {
    expect(readFillConfig({ SPREAD_MODEL: 'none' }).spread).toEqual({ model: 'none' });
    expect(readFillConfig({ SPREAD_MODEL: 'fixed_bps', SPREAD_BPS: '2.5' }).spread).toEqual({
      model: 'fixed_bps',
      bps: 2.5,
    });
    expect(() => readFillConfig({ SPREAD_MODEL: 'zero' })).toThrow(
      /SPREAD_MODEL must be one of derived, none, fixed_bps/,
    );
    expect(() => readFillConfig({ SPREAD_MODEL: 'fixed_bps' })).toThrow(/needs SPREAD_BPS/);
    expect(() => readFillConfig({ SPREAD_BPS: '3' })).toThrow(/SPREAD_BPS applies only with SPREAD_MODEL=fixed_bps/);
    expect(() => readFillConfig({ SPREAD_MODEL: 'fixed_bps', SPREAD_BPS: '0' })).toThrow(/SPREAD_BPS/);
  });

  it('reads every variable, a maker rebate included', () => {
    const env = {
      FILL_MODEL: 'close',
      FILL_VOLUME_SHARE: '0.1',
      FILL_TOUCH_SHARE: '0.5',
      FEE_MAKER: '-0.0001',
      FEE_TAKER: '0.0004',
    };
    expect(readFillConfig(env)).toMatchObject({
      model: 'close',
      volumeShare: 0.1,
      touchShare: 0.5,
      makerFee: -0.0001,
      takerFee: 0.0004,
    });
    expect(readTradingConfig({ ...HMAC, ...env }).fills.takerFee).toBe(0.0004);
  });

  it.each([
    [{ FILL_MODEL: 'open' }, /^FILL_MODEL must be one of close, next_open, got "open"$/],
    [{ FEE_TAKER: '5' }, /^FEE_TAKER must be between 0 and 0\.01, got 5$/],
    [{ FEE_TAKER: '-0.0001' }, /^FEE_TAKER must be between 0 and 0\.01/],
    [{ FEE_MAKER: '-0.002' }, /^FEE_MAKER must be between -0\.001 and 0\.01/],
    [{ FEE_MAKER: '2bp' }, /^FEE_MAKER must be a number, got "2bp"$/],
    [{ FILL_VOLUME_SHARE: '0' }, /^FILL_VOLUME_SHARE must be between/],
    [{ FILL_TOUCH_SHARE: '2' }, /^FILL_TOUCH_SHARE must be between 0 and 1/],
  ])('refuses %j with a ConfigError naming it', (env, message) => {
    expect(() => readFillConfig(env)).toThrow(ConfigError);
    expect(() => readFillConfig(env)).toThrow(message);
  });

  it("a manifest's per-symbol fees override FEE_* for those symbols; the risk engine counts the highest", () => {
    const config = readTradingConfig({ ...HMAC, FEE_TAKER: '0.0004' });
    const merged = withManifestFees(config, { BTCUSDT: { takerFee: 0.0007 } });
    expect(merged.fills.feesBySymbol).toEqual({ BTCUSDT: { takerFee: 0.0007 } });
    expect(merged.fills.takerFee).toBe(0.0004);
    expect(highestFeeRate(config.fills)).toBe(0.0004);
    expect(highestFeeRate(merged.fills)).toBe(0.0007);
    expect(withManifestFees(config, undefined)).toBe(config);
  });

  it('tcs simulate --fill-model overrides FILL_MODEL', () => {
    const out = `/tmp/tcs-fill-config-${process.pid}-does-not-exist`;
    const options = parseSimulateArgs(['--cycles', '1', '--out', out, '--fill-model', 'close']);
    expect(simulationConfig({ FILL_MODEL: 'next_open' }, options).fills.model).toBe('close');
    expect(() => parseSimulateArgs(['--cycles', '1', '--out', out, '--fill-model', 'bar'])).toThrow(
      /^--fill-model must be one of close, next_open, got "bar"$/,
    );
  });
});
