/**
 * The stitched out-of-sample equity of a walk-forward and its walk-forward efficiency, on a small
 * example computed by hand: each fold's out-of-sample run compounds from the NAV the previous fold
 * ended at, whatever cash that run started with; WFE is pooled (annualised stitched out-of-sample
 * return ÷ time-weighted annualised in-sample return), annualised as a simple rate (return × 365 ÷ days).
 */
import { describe, expect, it } from 'vitest';
import {
  annualised,
  foldEfficiency,
  pooledEfficiency,
  stitchEquity,
} from '../../src/runtime/sweep/walk-forward-stitch.js';

const folds = [
  // Starts at 100, ends at 99: −1 %.
  {
    fold: 1,
    startingCash: 100,
    equity: [
      ['t1', 110],
      ['t2', 99],
    ] as [string, number][],
  },
  // Starts at 1000, ends at 1100: +10 %, compounded from 99.
  {
    fold: 2,
    startingCash: 1000,
    equity: [
      ['t3', 1200],
      ['t4', 1100],
    ] as [string, number][],
  },
];

describe('walk-forward: stitched out-of-sample equity', () => {
  it("compounds each fold's returns from the previous fold's end NAV", () => {
    const stitched = stitchEquity(folds);
    expect(stitched.rows.map((r) => [r.ts, r.fold])).toEqual([
      ['t1', 1],
      ['t2', 1],
      ['t3', 2],
      ['t4', 2],
    ]);
    // Fold 2 scaled by 99 / 1000: 1200 → 118.8, 1100 → 108.9.
    expect(stitched.rows.map((r) => r.nav)).toEqual([110, 99, expect.closeTo(118.8, 9), expect.closeTo(108.9, 9)]);
    expect(stitched.start).toBe(100);
    // 0.99 × 1.10 − 1.
    expect(stitched.totalReturn).toBeCloseTo(0.089, 12);
    // Worst fall: 110 → 99 (11/110), deeper than 118.8 → 108.9 (9.9/118.8 = 1/12).
    expect(stitched.maxDrawdown).toBeCloseTo(0.1, 12);
    expect(stitched.rows.map((r) => r.drawdown)).toEqual([0, expect.closeTo(0.1, 12), 0, expect.closeTo(1 / 12, 12)]);
  });

  it('a fold without rows carries the NAV over unchanged, and no folds is no return', () => {
    const stitched = stitchEquity([folds[0]!, { fold: 2, startingCash: 1000, equity: [] }, { ...folds[1]!, fold: 3 }]);
    expect(stitched.totalReturn).toBeCloseTo(0.089, 12);
    expect(stitchEquity([])).toEqual({ rows: [], start: null, totalReturn: null, maxDrawdown: null });
  });
});

describe('walk-forward efficiency', () => {
  it('annualises as a simple rate', () => {
    expect(annualised(0.01, 36.5)).toBeCloseTo(0.1, 12);
    expect(annualised(0.01, 0)).toBeNull();
  });

  it('pooled: the stitched out-of-sample rate over the time-weighted in-sample rate', () => {
    // OOS: +8.9 % over 2 × 0.25 days; IS: +2 % and +4 % over 1 day each → (0.089 / 0.5) / (0.06 / 2).
    const wfe = pooledEfficiency({ totalReturn: 0.089, days: 0.5 }, [
      { totalReturn: 0.02, days: 1 },
      { totalReturn: 0.04, days: 1 },
    ]);
    expect(wfe).toBeCloseTo(0.178 / 0.03, 12);
  });

  it('per fold: its out-of-sample rate over its in-sample rate', () => {
    expect(foldEfficiency({ totalReturn: -0.01, days: 0.25 }, { totalReturn: 0.02, days: 1 })).toBeCloseTo(-2, 12);
    expect(foldEfficiency({ totalReturn: 0.1, days: 0.25 }, { totalReturn: 0.04, days: 1 })).toBeCloseTo(10, 12);
  });

  it('is undefined (null) when the in-sample rate is not positive: no efficiency of a loss', () => {
    expect(foldEfficiency({ totalReturn: 0.1, days: 1 }, { totalReturn: 0, days: 1 })).toBeNull();
    expect(pooledEfficiency({ totalReturn: 0.1, days: 1 }, [{ totalReturn: -0.02, days: 1 }])).toBeNull();
    expect(pooledEfficiency({ totalReturn: null, days: 1 }, [{ totalReturn: 0.02, days: 1 }])).toBeNull();
  });
});
