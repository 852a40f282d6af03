/**
 * Issue 34, item 7, in-process: strategy parameters as axes of their own (a 3 × 2 grid in two
 * lines, folded into each trial's STRATEGY_PARAMS over the spec's own), constraints that rank a
 * trial breaking one after every trial meeting them, return_over_drawdown as an objective, and a
 * results page with a heatmap of two axes, rounded figures and links to each trial's report.
 */
import { describe, expect, it } from 'vitest';
import { parseSweepSpec } from '../../src/runtime/sweep/sweep-spec.js';
import { axes, firstTrials, paramSets } from '../../src/runtime/sweep/sweep-trials.js';
import { bestLines, rankRows, resultsCsv } from '../../src/runtime/sweep/sweep-results.js';
import { resultsPage } from '../../src/runtime/sweep/sweep-results-page.js';
import { TRIAL_FIGURES, trialFigures } from '../../src/runtime/sweep/sweep-objective.js';
import type { Figures } from '../../src/runtime/sweep/sweep-objective.js';
import type { TrialResult } from '../../src/runtime/sweep/trial-runner.js';

const base = { data: { seed: 1, cycles: 100 } };

function figures(over: Partial<Figures>): Figures {
  return { ...(Object.fromEntries(TRIAL_FIGURES.map((f) => [f, 0])) as Figures), ...over };
}

describe('sweep: strategy parameters as axes', () => {
  const spec = parseSweepSpec({
    ...base,
    env: {
      STRATEGIES: 'momentum_ma_crossover',
      STRATEGY_PARAMS: '{"momentum_ma_crossover": {"timeframe": "1m"}}',
    },
    strategy_params: {
      momentum_ma_crossover: { fastPeriod: { min: 5, max: 15, step: 5 }, slowPeriod: [30, 60] },
    },
  });

  it('makes every combination, named entry.parameter, each trial with its STRATEGY_PARAMS over the spec’s own', () => {
    const sets = paramSets(spec);
    expect([...axes(spec).keys()]).toEqual(['momentum_ma_crossover.fastPeriod', 'momentum_ma_crossover.slowPeriod']);
    expect(sets).toHaveLength(6);
    const trials = firstTrials(spec, sets);
    expect(trials[0]!.params).toEqual({
      'momentum_ma_crossover.fastPeriod': '5',
      'momentum_ma_crossover.slowPeriod': '30',
    });
    expect(JSON.parse(trials[0]!.env.STRATEGY_PARAMS!)).toEqual({
      momentum_ma_crossover: { timeframe: '1m', fastPeriod: 5, slowPeriod: 30 },
    });
    expect(JSON.parse(trials[5]!.env.STRATEGY_PARAMS!)).toEqual({
      momentum_ma_crossover: { timeframe: '1m', fastPeriod: 15, slowPeriod: 60 },
    });
    // No variable named after an axis reaches the trial.
    expect(Object.keys(trials[0]!.env).sort()).toEqual(['STRATEGIES', 'STRATEGY_PARAMS']);
  });

  it('keeps a listed string a string and refuses mistakes naming the field', () => {
    const listed = parseSweepSpec({ ...base, strategy_params: { rsi: { timeframe: ['5m', '15m'] } } });
    expect(JSON.parse(firstTrials(listed, paramSets(listed))[1]!.env.STRATEGY_PARAMS!)).toEqual({
      rsi: { timeframe: '15m' },
    });
    expect(() => parseSweepSpec({ ...base, strategy_params: { rsi: { period: { min: 1, max: 3 } } } })).toThrow(
      /strategy_params\.rsi\.period\.step is required for a range in a grid/,
    );
    expect(() =>
      parseSweepSpec({ ...base, params: { STRATEGY_PARAMS: ['{}'] }, strategy_params: { rsi: { period: [2] } } }),
    ).toThrow(/params\.STRATEGY_PARAMS and strategy_params both set/);
    expect(() =>
      parseSweepSpec({ ...base, env: { STRATEGY_PARAMS: 'nope' }, strategy_params: { rsi: { period: [2] } } }),
    ).toThrow(/env\.STRATEGY_PARAMS must be a JSON object/);
    expect(() => parseSweepSpec({ ...base, strategy_params: { rsi: {} } })).toThrow(/strategy_params\.rsi must be/);
  });
});

describe('sweep: constraints and return over drawdown', () => {
  const spec = parseSweepSpec({
    ...base,
    params: { RISK_FRACTION: [0.05, 0.1, 0.2] },
    objective: 'return_over_drawdown',
    constraints: { trades: { min: 20 }, max_drawdown: { max: 0.2 } },
  });
  const trials = firstTrials(spec, paramSets(spec));
  const result = (id: string, f: Partial<Figures>): TrialResult => ({
    id,
    partial: false,
    figures: figures(f),
    days: 1,
  });

  it('computes return over drawdown from the summary, null without a drawdown', () => {
    expect(trialFigures({ total_return: 0.3, max_drawdown: 0.1 }).return_over_drawdown).toBeCloseTo(3, 10);
    expect(trialFigures({ total_return: 0.3, max_drawdown: 0 }).return_over_drawdown).toBeNull();
  });

  it('ranks a trial that breaks a constraint after every trial that meets them, and says so when none does', () => {
    const results = new Map([
      ['p1', result('p1', { return_over_drawdown: 9, trades: 5, max_drawdown: 0.1 })], // too few trades
      ['p2', result('p2', { return_over_drawdown: 2, trades: 40, max_drawdown: 0.1 })],
      ['p3', result('p3', { return_over_drawdown: 3, trades: 40, max_drawdown: 0.3 })], // drawdown too deep
    ]);
    const rows = rankRows(trials, results, spec.objective);
    expect(rows.map((r) => [r.id, r.rank])).toEqual([
      ['p1', 2],
      ['p2', 1],
      ['p3', 3],
    ]);
    const csv = resultsCsv(rows, ['RISK_FRACTION'], spec.objective).trimEnd().split('\n');
    expect(csv[0]!.endsWith(',rank,meets_constraints')).toBe(true);
    expect(csv.slice(1).map((l) => l.split(',').at(-1))).toEqual(['false', 'true', 'false']);
    const none = new Map([
      ['p1', result('p1', { trades: 1 })],
      ['p2', result('p2', { trades: 2 })],
      ['p3', result('p3', { trades: 3 })],
    ]);
    expect(bestLines(rankRows(trials, none, spec.objective), spec.objective)[0]).toMatch(
      /no trial meets the constraints/,
    );
  });

  it('refuses a constraint on a figure that does not exist, or without a bound', () => {
    expect(() =>
      parseSweepSpec({ ...base, params: { RISK_FRACTION: [1] }, constraints: { trade: { min: 1 } } }),
    ).toThrow(/constraints\.trade is not a figure/);
    expect(() => parseSweepSpec({ ...base, params: { RISK_FRACTION: [1] }, constraints: { trades: {} } })).toThrow(
      /constraints\.trades needs "min" or "max"/,
    );
  });
});

describe('sweep: the results page', () => {
  const spec = parseSweepSpec({
    ...base,
    params: { RISK_FRACTION: [0.05, 0.1], NO_TRADE_BAND: [0.1, 0.2, 0.3] },
  });
  const trials = firstTrials(spec, paramSets(spec));
  const results = new Map(
    trials.map((t, i) => [
      t.id,
      { id: t.id, partial: false, figures: figures({ sharpe: i / 3 + 0.123456789 }), days: 1 },
    ]),
  );
  const rows = rankRows(trials, results, spec.objective);
  const html = resultsPage(rows, [...axes(spec).keys()], spec.objective, { reportLinks: true });

  it('draws a heatmap of the objective over the two axes, and rounds every figure', () => {
    const heat = html.slice(html.indexOf('id="heatmap"'), html.indexOf('</table>', html.indexOf('id="heatmap"')));
    const body = heat.slice(heat.indexOf('<tbody>'));
    expect(body.match(/<tr><th>/g)).toHaveLength(2); // a row per RISK_FRACTION
    expect(heat).toContain('<th>0.1</th><th>0.2</th><th>0.3</th>');
    expect(heat).toContain('>1.7901</td>'); // p6: 5/3 + 0.123456789 = 1.790123…, to four decimals
    // Shown rounded; the sort key (data-v) keeps the whole value.
    expect(html).not.toMatch(/>0\.123456789</);
    expect(html).toContain('>0.1235</td>');
  });

  it('links each trial to its own report when it ran here, and not when it ran on a queue', () => {
    for (const t of trials) expect(html).toContain(`<a href="trials/${t.id}/report.html">${t.id}</a>`);
    const queued = resultsPage(rows, [...axes(spec).keys()], spec.objective, { reportLinks: false });
    expect(queued).not.toContain('report.html');
  });
});
