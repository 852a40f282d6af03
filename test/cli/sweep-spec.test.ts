/**
 * The parameter sets of a sweep spec, in-process: a grid is every combination in the spec's order,
 * its stepped ranges read as decimals; a random search draws the same sets for the same seed, other
 * sets for another, each value inside its range and on its steps; trial ids and walk-forward trials.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSweepSpec } from '../../src/runtime/sweep/sweep-spec.js';
import { firstTrials, outOfSampleTrials, paramSets } from '../../src/runtime/sweep/sweep-trials.js';

const base = { data: { seed: 1, cycles: 100 } };

describe('sweep spec: parameter sets', () => {
  it('a grid is every combination, the first parameter varying slowest, ranges by their step', () => {
    const spec = parseSweepSpec({
      ...base,
      params: {
        RISK_FRACTION: [1, 2],
        NO_TRADE_BAND: { min: 0.1, max: 0.3, step: 0.1 },
        PROTECTION_PARAMS: [{ x: 1 }],
      },
    });
    const sets = paramSets(spec);
    expect(sets.map((s) => s.params)).toEqual([
      { RISK_FRACTION: '1', NO_TRADE_BAND: '0.1', PROTECTION_PARAMS: '{"x":1}' },
      { RISK_FRACTION: '1', NO_TRADE_BAND: '0.2', PROTECTION_PARAMS: '{"x":1}' },
      { RISK_FRACTION: '1', NO_TRADE_BAND: '0.3', PROTECTION_PARAMS: '{"x":1}' },
      { RISK_FRACTION: '2', NO_TRADE_BAND: '0.1', PROTECTION_PARAMS: '{"x":1}' },
      { RISK_FRACTION: '2', NO_TRADE_BAND: '0.2', PROTECTION_PARAMS: '{"x":1}' },
      { RISK_FRACTION: '2', NO_TRADE_BAND: '0.3', PROTECTION_PARAMS: '{"x":1}' },
    ]);
    expect(sets.map((s) => s.id)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
  });

  it('a random search draws the same sets for the same seed and others for another, within the ranges', () => {
    const random = (seed: number) =>
      paramSets(
        parseSweepSpec({
          ...base,
          search: 'random',
          trials: 40,
          seed,
          params: {
            RISK_FRACTION: { min: 0.01, max: 0.5 },
            NO_TRADE_BAND: { min: 0.1, max: 0.4, step: 0.1 },
            TRAILING_STOP: { min: 0.001, max: 0.1, log: true },
            ORDER_STYLE: ['market', 'passive'],
          },
        }),
      );
    const a = random(7);
    expect(random(7)).toEqual(a);
    expect(random(8)).not.toEqual(a);
    expect(a).toHaveLength(40);
    expect(a[0]!.id).toBe('p01');
    for (const { params } of a) {
      expect(Number(params.RISK_FRACTION)).toBeGreaterThanOrEqual(0.01);
      expect(Number(params.RISK_FRACTION)).toBeLessThanOrEqual(0.5);
      expect(['0.1', '0.2', '0.3', '0.4']).toContain(params.NO_TRADE_BAND);
      expect(Number(params.TRAILING_STOP)).toBeGreaterThanOrEqual(0.001);
      expect(Number(params.TRAILING_STOP)).toBeLessThanOrEqual(0.1);
      expect(['market', 'passive']).toContain(params.ORDER_STYLE);
    }
    // Both choices and every step are drawn in 40 tries.
    expect(new Set(a.map((s) => s.params.ORDER_STYLE)).size).toBe(2);
    expect(new Set(a.map((s) => s.params.NO_TRADE_BAND)).size).toBe(4);
  });

  it('walk-forward: every set in each fold in sample, then the given best out of sample, windows inherited from data', () => {
    const spec = parseSweepSpec({
      params: { RISK_FRACTION: [0.05, 0.1] },
      env: { SYMBOLS: 'BTCUSDT' },
      data: { cycles: 100 },
      walk_forward: [
        { in_sample: { seed: 1 }, out_of_sample: { seed: 2, cycles: 50 } },
        { in_sample: { seed: 3 }, out_of_sample: { seed: 4 } },
      ],
    });
    const sets = paramSets(spec);
    const first = firstTrials(spec, sets);
    expect(first.map((t) => t.id)).toEqual(['f1-is-p1', 'f1-is-p2', 'f2-is-p1', 'f2-is-p2']);
    expect(first[0]!.env).toEqual({ SYMBOLS: 'BTCUSDT', RISK_FRACTION: '0.05' });
    expect(first[2]!.window).toMatchObject({ seed: 3, cycles: 100 });
    const oos = outOfSampleTrials(spec, [sets[1]!, sets[0]!]);
    expect(oos.map((t) => [t.id, t.window.seed, t.window.cycles])).toEqual([
      ['f1-oos-p2', 2, 50],
      ['f2-oos-p1', 4, 100],
    ]);
  });

  it("makes a replay's data directory absolute from where the sweep starts (a worker elsewhere reads the same path)", () => {
    const spec = parseSweepSpec({ params: { RISK_FRACTION: [0.05] }, data: { dir: 'data/jan24' } });
    expect(spec.data.dir).toBe(resolve('data/jan24'));
  });
});
