// bollinger_mean_reversion on crafted series: long on a close below the lower band, short above the
// upper (perpetuals only), nothing inside; a held position exits when the close is back at the
// middle band; parameters validated and declared.
import { describe, expect, it } from 'vitest';
import {
  BOLLINGER_MEAN_REVERSION,
  createBollingerMeanReversion,
  DEFAULT_BOLLINGER_MEAN_REVERSION_PARAMS,
} from '../../src/strategies/bollinger-mean-reversion.js';
import { barsFromCloses, testSnapshot } from '../../src/strategies/public.js';
import { PERP, SPOT } from './snapshot.js';

const QUIET = Array.from({ length: 25 }, (_, i) => 100 + (i % 2)); // mean 100.5, σ 0.5: bands 99.5..101.5
const agent = () => createBollingerMeanReversion({ period: 20, deviations: 2, timeframe: '1m' });
const at = (closes: number[], position = 0, instrument = PERP) =>
  agent().analyse(testSnapshot(barsFromCloses(closes), { position }), instrument);

describe('bollinger_mean_reversion', () => {
  it('has the documented name, defaults, declared parameters and history', () => {
    expect(DEFAULT_BOLLINGER_MEAN_REVERSION_PARAMS).toEqual({
      period: 20,
      deviations: 2,
      timeframe: '15m',
      confidence: 0.5,
    });
    const made = createBollingerMeanReversion();
    expect(made).toMatchObject({ name: BOLLINGER_MEAN_REVERSION, lookback: 21, timeframe: '15m' });
    expect(made.parameters).toEqual(Object.keys(DEFAULT_BOLLINGER_MEAN_REVERSION_PARAMS));
  });

  it('says nothing inside the bands', () => {
    expect(at(QUIET)).toBeNull();
    expect(at([...QUIET, 101])).toBeNull();
  });

  it('goes long on a close below the lower band, short above the upper on a perpetual only', () => {
    const low = at([...QUIET, 97]);
    expect(low).toMatchObject({ agent: BOLLINGER_MEAN_REVERSION, symbol: 'BTCUSDT', direction: 1, confidence: 0.5 });
    expect(low!.rationale).toMatch(/close 97 below the lower band 9\d\.\d+/);
    expect(at([...QUIET, 104])).toMatchObject({ direction: -1, confidence: 0.5 });
    expect(at([...QUIET, 104], 0, SPOT)).toBeNull();
  });

  it('exits a long once the close is back at the middle band, a short once back down to it', () => {
    const back = [...QUIET.slice(0, 24), 97, 101]; // middle ≈ 100.3
    expect(at(back, 1)).toMatchObject({ direction: 0, confidence: 1 });
    expect(at([...QUIET.slice(0, 24), 97, 99], 1)).toBeNull(); // still below the middle: hold
    expect(at([...QUIET.slice(0, 24), 104, 100], -1)).toMatchObject({ direction: 0, confidence: 1 });
    expect(at([...QUIET.slice(0, 24), 104, 102], -1)).toBeNull();
  });

  it('refuses bad parameters, naming them', () => {
    expect(() => createBollingerMeanReversion({ period: 1 })).toThrow(/"period" must be a whole number ≥ 2/);
    expect(() => createBollingerMeanReversion({ deviations: 0 })).toThrow(/"deviations" must be > 0/);
    expect(() => createBollingerMeanReversion({ confidence: 0 })).toThrow(/"confidence" must be in \(0, 1\]/);
    expect(() => createBollingerMeanReversion({ devs: 2 } as never)).toThrow(/unknown parameter "devs"/);
  });
});
