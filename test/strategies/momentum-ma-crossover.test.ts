// momentum_ma_crossover on constructed close series: direction, trend vs cross mode, confidence
// scaling and bounds, not enough data, and parameter validation.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createMomentumMaCrossover,
  DEFAULT_MOMENTUM_MA_CROSSOVER_PARAMS,
  MOMENTUM_MA_CROSSOVER,
} from '../../src/strategies/momentum-ma-crossover.js';
import { PERP, snapshot } from './snapshot.js';

const flat = (n: number, v = 100): number[] => Array.from({ length: n }, () => v);
/** The parameters these tests were written for (one-minute closes, the old spread scale). */
const OLD = { fast: 5, slow: 20, spreadForFullConfidence: 0.005, minSpread: 0, timeframe: '1m' } as const;

describe('momentum_ma_crossover', () => {
  it('has the documented name and defaults', () => {
    expect(createMomentumMaCrossover().name).toBe(MOMENTUM_MA_CROSSOVER);
    expect(DEFAULT_MOMENTUM_MA_CROSSOVER_PARAMS).toEqual({
      fast: 8,
      slow: 32,
      mode: 'trend',
      spreadForFullConfidence: 0.01,
      crossFloor: 0.25,
      minSpread: 0.001,
      timeframe: '15m',
    });
  });

  it('declares the history it needs: slow bars of its timeframe, one more in cross mode (issue 19)', () => {
    expect(createMomentumMaCrossover()).toMatchObject({ lookback: 32, timeframe: '15m' });
    expect(createMomentumMaCrossover({ slow: 100, mode: 'cross', timeframe: '1h' })).toMatchObject({
      lookback: 101,
      timeframe: '1h',
    });
    expect(() => createMomentumMaCrossover({ timeframe: '7m' })).toThrow(/parameter "timeframe" must be one of 1m, 3m/);
  });

  it('holds its target by default: every cycle the trend lasts, not only on the cross (issue 19)', () => {
    const agent = createMomentumMaCrossover({ timeframe: '1m', fast: 2, slow: 4 });
    const up = [100, 100, 100, 100, 101, 102, 103, 104];
    const said = up.map((_, i) => agent.analyse(snapshot(up.slice(0, i + 1)), PERP)?.direction ?? null);
    expect(said).toEqual([null, null, null, null, 1, 1, 1, 1]);
    // A spread at or below minSpread is no edge: averages that touch do not flip the target.
    expect(agent.analyse(snapshot([100, 100, 100, 100.01]), PERP)).toBeNull();
  });

  it("reads the declared timeframe's candles when the agent is given them", () => {
    const agent = createMomentumMaCrossover({ timeframe: '5m', fast: 2, slow: 4, minSpread: 0 });
    // One-minute closes say down; the five-minute candles given as `higher` say up: those count.
    const higher = snapshot([100, 100, 101, 102]).candles;
    const s = agent.analyse({ ...snapshot([110, 109, 108, 107]), higher }, PERP);
    expect(s).toMatchObject({ direction: 1 });
    expect(s?.rationale).toMatch(/^trend 5m:/);
  });

  it('in cross mode fires on the cross only, at no less than the cross floor', () => {
    const agent = createMomentumMaCrossover({ ...OLD, mode: 'cross' });
    const cross = [...flat(20), 100.5]; // fast crosses above slow on the last close
    const s = agent.analyse(snapshot(cross), PERP);
    expect(s).toMatchObject({ direction: 1 });
    expect(s!.confidence).toBeGreaterThanOrEqual(0.25);
    expect(agent.analyse(snapshot([...cross, 101]), PERP)).toBeNull(); // the trend goes on: no new signal
  });

  it('goes long when the fast SMA is above the slow one', () => {
    const closes = [...flat(17), 101, 101, 101]; // fast (last 5) = 100.6, slow (last 20) = 100.15
    const s = createMomentumMaCrossover({ ...OLD, mode: 'trend' }).analyse(snapshot(closes), PERP);
    expect(s).toMatchObject({ agent: MOMENTUM_MA_CROSSOVER, symbol: 'BTCUSDT', direction: 1 });
    // spread 0.45 / 100.15 ≈ 0.449 % → confidence ≈ 0.899 with full confidence at 0.5 %
    expect(s?.confidence).toBeCloseTo(0.45 / 100.15 / 0.005, 12);
    expect(s?.rationale).toMatch(/above/);
  });

  it('goes short when the fast SMA is below the slow one', () => {
    const s = createMomentumMaCrossover({ ...OLD, mode: 'trend' }).analyse(snapshot([...flat(17), 99, 99, 99]), PERP);
    expect(s).toMatchObject({ direction: -1 });
  });

  it('is silent when the averages are equal', () => {
    expect(createMomentumMaCrossover({ ...OLD, mode: 'trend' }).analyse(snapshot(flat(30)), PERP)).toBeNull();
  });

  it('clamps confidence to 1 for a wide spread', () => {
    const s = createMomentumMaCrossover({ ...OLD, mode: 'trend' }).analyse(
      snapshot([...flat(15), 120, 120, 120, 120, 120]),
      PERP,
    );
    expect(s?.confidence).toBe(1);
  });

  it('scales confidence with spreadForFullConfidence', () => {
    const closes = [...flat(17), 101, 101, 101];
    const narrow = createMomentumMaCrossover({ ...OLD, mode: 'trend', spreadForFullConfidence: 0.01 }).analyse(
      snapshot(closes),
      PERP,
    );
    const wide = createMomentumMaCrossover({ ...OLD, mode: 'trend', spreadForFullConfidence: 0.005 }).analyse(
      snapshot(closes),
      PERP,
    );
    expect(narrow?.confidence).toBeCloseTo((wide?.confidence ?? 0) / 2, 12);
  });

  describe('not enough closes', () => {
    it('trend mode needs `slow` closes', () => {
      const agent = createMomentumMaCrossover({ ...OLD, fast: 2, slow: 4, mode: 'trend' });
      expect(agent.analyse(snapshot([100, 100, 110]), PERP)).toBeNull();
      expect(agent.analyse(snapshot([100, 100, 110, 110]), PERP)).toMatchObject({ direction: 1 });
      expect(agent.analyse(snapshot([]), PERP)).toBeNull();
    });

    it('cross mode needs `slow + 1` closes', () => {
      const agent = createMomentumMaCrossover({ ...OLD, fast: 2, slow: 4, mode: 'cross' });
      expect(agent.analyse(snapshot([100, 100, 100, 110]), PERP)).toBeNull();
      expect(agent.analyse(snapshot([100, 100, 100, 100, 110]), PERP)).toMatchObject({ direction: 1 });
    });
  });

  describe('cross vs trend', () => {
    // fast 2 / slow 4. Flat, then a rise: the cross happens at index 4 and the trend persists after.
    const series = [100, 100, 100, 100, 104, 108, 112, 116];
    const run = (mode: 'cross' | 'trend') => {
      const agent = createMomentumMaCrossover({ ...OLD, fast: 2, slow: 4, mode });
      return series.map((_, i) => agent.analyse(snapshot(series.slice(0, i + 1)), PERP)?.direction ?? null);
    };

    it('trend mode signals on every cycle of the trend', () => {
      expect(run('trend')).toEqual([null, null, null, null, 1, 1, 1, 1]);
    });

    it('cross mode signals only on the cycle of the cross', () => {
      expect(run('cross')).toEqual([null, null, null, null, 1, null, null, null]);
    });

    it('cross mode fires again on the cross back down, short', () => {
      const agent = createMomentumMaCrossover({ ...OLD, fast: 2, slow: 4, mode: 'cross' });
      const up = [100, 100, 100, 100, 110, 120, 130];
      const down = [...up, 90, 80];
      expect(agent.analyse(snapshot(up), PERP)).toBeNull();
      const directions = [down.slice(0, 8), down].map((c) => agent.analyse(snapshot(c), PERP)?.direction ?? null);
      // At index 7: fast = (130 + 90) / 2 = 110, slow = (110 + 120 + 130 + 90) / 4 = 112.5 → crossed down.
      expect(directions).toEqual([-1, null]);
    });
  });

  it('ignores unusable data (NaN or non-positive prices)', () => {
    const agent = createMomentumMaCrossover({ ...OLD, fast: 2, slow: 3 });
    expect(agent.analyse(snapshot([100, Number.NaN, 110]), PERP)).toBeNull();
    expect(agent.analyse(snapshot([-5, -5, 1]), PERP)).toBeNull();
  });

  it.each([
    [{ fast: 0 }, /fast/],
    [{ fast: 2.5 }, /fast/],
    [{ fast: 20, slow: 20 }, /slow/],
    [{ slow: 3 }, /slow/],
    [{ spreadForFullConfidence: 0 }, /spreadForFullConfidence/],
    [{ mode: 'sideways' as 'trend' }, /mode/],
    [{ fats: 3 } as unknown as { fast: number }, /unknown parameter "fats"/],
  ])('refuses params %j', (params, message) => {
    expect(() => createMomentumMaCrossover(params)).toThrow(message);
  });

  it('always returns direction ±1 and confidence in [0, 1] (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 1, max: 1e5, noNaN: true }), { minLength: 0, maxLength: 40 }),
        fc.constantFrom('cross' as const, 'trend' as const),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 10 }),
        (closes, mode, fast, extra) => {
          const s = createMomentumMaCrossover({ ...OLD, fast, slow: fast + extra, mode }).analyse(
            snapshot(closes),
            PERP,
          );
          if (s === null) return;
          expect(closes.length).toBeGreaterThanOrEqual(fast + extra);
          expect([1, -1]).toContain(s.direction);
          expect(s.confidence).toBeGreaterThanOrEqual(0);
          expect(s.confidence).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 200 },
    );
  });
});
