/**
 * The walk-forward report built from ranked trials: the set chosen in each fold is the in-sample
 * rank 1 with the constraints respected (a better set breaking one is passed over), a fold where no
 * set meets them says so, and the stitched equity chart on results.html draws the whole period in a
 * bounded number of points.
 */
import { describe, expect, it } from 'vitest';
import { parseSweepSpec } from '../../src/runtime/sweep/sweep-spec.js';
import { firstTrials, outOfSampleTrials, paramSets } from '../../src/runtime/sweep/sweep-trials.js';
import { rankRows } from '../../src/runtime/sweep/sweep-results.js';
import { TRIAL_FIGURES } from '../../src/runtime/sweep/sweep-objective.js';
import type { Figures } from '../../src/runtime/sweep/sweep-objective.js';
import type { TrialResult } from '../../src/runtime/sweep/trial-runner.js';
import { walkForwardReport, walkForwardLines } from '../../src/runtime/sweep/walk-forward-report.js';
import { CHART_POINTS, equityChart } from '../../src/runtime/sweep/walk-forward-section.js';

const figures = (over: Partial<Figures>): Figures => ({
  ...(Object.fromEntries(TRIAL_FIGURES.map((f) => [f, 0])) as Figures),
  ...over,
});

const spec = parseSweepSpec({
  params: { RISK_FRACTION: [0.05, 0.1] },
  data: { dir: 'data', from: '2024-01-01T00:00:00Z' },
  objective: 'sharpe',
  constraints: { trades: { min: 10 } },
  walk_forward: { mode: 'anchored', folds: 2, in_sample: '2d', out_of_sample: '1d' },
});
const sets = paramSets(spec);

describe('walk-forward report', () => {
  const inSample = firstTrials(spec, sets);
  const results = new Map<string, TrialResult>();
  const put = (id: string, f: Partial<Figures>, equity?: [string, number][]) =>
    results.set(id, {
      id,
      partial: false,
      figures: figures(f),
      days: id.includes('-is-') ? 2 : 1,
      ...(equity ? { equity: { startingCash: 100, rows: equity } } : {}),
    });
  // Fold 1: p1 has the better Sharpe but too few trades, so p2 is chosen. Fold 2: neither meets it.
  put('f1-is-p1', { sharpe: 3, trades: 2, total_return: 0.05 });
  put('f1-is-p2', { sharpe: 1, trades: 20, total_return: 0.02 });
  put('f2-is-p1', { sharpe: 0.5, trades: 2, total_return: 0.01 });
  put('f2-is-p2', { sharpe: 2, trades: 3, total_return: 0.04 });
  const oos = outOfSampleTrials(spec, [sets[1]!, sets[1]!]);
  put('f1-oos-p2', { sharpe: 0.7, total_return: 0.01 }, [['2024-01-03T00:01:00.000Z', 101]]);
  put('f2-oos-p2', { sharpe: -1, total_return: -0.02 }, [['2024-01-04T00:01:00.000Z', 98]]);
  const built = walkForwardReport(
    rankRows([...inSample, ...oos], results, spec.objective),
    2,
    spec.walkForwardPlan,
    spec.objective,
  )!;

  it('chooses the in-sample best that meets the constraints, and says when none did', () => {
    const [f1, f2] = built.report.folds;
    expect(f1).toMatchObject({
      param_set: 'p2',
      in_sample_objective: 1,
      out_of_sample_objective: 0.7,
      in_sample_meets_constraints: true,
    });
    expect(f2).toMatchObject({ param_set: 'p2', in_sample_meets_constraints: false });
    expect(f2!.in_sample).toMatchObject({ from: '2024-01-01T00:00:00.000Z', to: '2024-01-04T00:00:00.000Z' });
    expect(built.report.mode).toBe('anchored');
    expect(built.report.stitched_return).toBeCloseTo(1.01 * 0.98 - 1, 12);
    expect(walkForwardLines(built.report, 'out')[2]).toContain('(no set met the constraints in sample)');
  });

  it('is null while a fold has no out-of-sample result (a stopped sweep)', () => {
    results.delete('f2-oos-p2');
    const rows = rankRows([...inSample, ...oos.slice(0, 1)], results, spec.objective);
    expect(walkForwardReport(rows, 2, spec.walkForwardPlan, spec.objective)).toBeNull();
  });
});

describe('walk-forward equity chart', () => {
  it('draws the whole period in at most CHART_POINTS points, with a mark where each fold begins', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      ts: String(i),
      fold: i < 5_000 ? 1 : 2,
      nav: 100 + Math.sin(i / 100),
      drawdown: 0,
    }));
    const svg = equityChart(rows);
    const points = /points="([^"]+)"/.exec(svg)![1]!.split(' ');
    expect(points.length).toBeLessThanOrEqual(CHART_POINTS + 1);
    expect(points[0]!.startsWith('0.0,')).toBe(true);
    expect(points[points.length - 1]!.startsWith('800.0,')).toBe(true);
    expect(svg.match(/<line /g)).toHaveLength(1);
    expect(equityChart(rows.slice(0, 1))).toBe('');
  });
});
