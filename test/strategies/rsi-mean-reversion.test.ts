// rsi_mean_reversion: long when oversold, short when overbought (perpetuals), exit at the middle
// level while holding, nothing in between; spot never opens a short; parameters validated, declared.
import { describe, expect, it } from 'vitest';
import { barsFromCloses, testSnapshot } from '../../src/strategies/public.js';
import {
  createRsiMeanReversion,
  DEFAULT_RSI_MEAN_REVERSION_PARAMS,
  RSI_MEAN_REVERSION,
} from '../../src/strategies/rsi-mean-reversion.js';
import { PERP, SPOT } from './snapshot.js';

// period 4 on the feed's own candles: the last 4 changes decide.
const agent = createRsiMeanReversion({ period: 4, timeframe: '1m' });
const FALLING = [100, 99, 98, 97, 96]; // RSI 0
const RISING = [100, 101, 102, 103, 104]; // RSI 100
const MIDDLE = [100, 101, 100, 101, 101]; // gains 2, loss 1: RSI 66.7
const BACK_TO_MIDDLE = [100, 101, 100, 101, 100]; // gains 2, losses 2: RSI 50
const at = (closes: number[], position = 0, instrument = PERP) =>
  agent.analyse(testSnapshot(barsFromCloses(closes), { position }), instrument);

describe('rsi_mean_reversion', () => {
  it('has the documented name, defaults, declared parameters and history', () => {
    expect(DEFAULT_RSI_MEAN_REVERSION_PARAMS).toEqual({
      period: 14,
      timeframe: '15m',
      oversold: 30,
      overbought: 70,
      exitLevel: 50,
      confidence: 0.5,
    });
    const made = createRsiMeanReversion();
    expect(made).toMatchObject({ name: RSI_MEAN_REVERSION, lookback: 15, timeframe: '15m' });
    expect(made.parameters).toEqual(Object.keys(DEFAULT_RSI_MEAN_REVERSION_PARAMS));
  });

  it('goes long when oversold and short when overbought, at the configured confidence', () => {
    expect(at(FALLING)).toMatchObject({ agent: RSI_MEAN_REVERSION, symbol: 'BTCUSDT', direction: 1, confidence: 0.5 });
    expect(at(RISING)).toMatchObject({ direction: -1, confidence: 0.5 });
  });

  it('says nothing between the levels while flat, and exits at the middle level while holding', () => {
    expect(at(MIDDLE)).toBeNull();
    expect(at(BACK_TO_MIDDLE)).toBeNull();
    expect(at(BACK_TO_MIDDLE, 0.5)).toMatchObject({ direction: 0, confidence: 1 }); // long back to 50
    expect(at(BACK_TO_MIDDLE, -0.5)).toMatchObject({ direction: 0, confidence: 1 }); // short back to 50
    expect(at(MIDDLE, 0.5)).toMatchObject({ direction: 0 }); // long, RSI 66.7 ≥ 50: reverted, exit
    expect(at(MIDDLE, -0.5)).toBeNull(); // short, RSI 66.7 > 50: not reverted yet, hold
  });

  it('never opens a short on spot, but exits a spot holding', () => {
    expect(at(RISING, 0, SPOT)).toBeNull();
    expect(at(FALLING, 0, SPOT)).toMatchObject({ direction: 1 });
    expect(at(RISING, 1, SPOT)).toMatchObject({ direction: 0 });
  });

  it('reads the declared timeframe when there is one', () => {
    const hourly = createRsiMeanReversion({ period: 4, timeframe: '1h' });
    const higher = barsFromCloses(FALLING, 3_600_000);
    const s = testSnapshot(barsFromCloses(RISING), { higher });
    expect(hourly.analyse(s, PERP)).toMatchObject({ direction: 1 });
  });

  it.each([
    [{ period: 1 }, /period/],
    [{ oversold: 60, overbought: 40 }, /oversold/],
    [{ exitLevel: 80 }, /exitLevel/],
    [{ confidence: 0 }, /confidence/],
    [{ perido: 3 } as never, /did you mean period/],
  ])('refuses %o', (params, message) => {
    expect(() => createRsiMeanReversion(params)).toThrow(message);
  });
});
