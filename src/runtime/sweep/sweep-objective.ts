/**
 * What a sweep ranks trials by: one figure of summary.json (docs/strategies/simulation-metrics.md), or
 * return_over_drawdown, and whether more or less is better, under optional constraints (a least
 * number of trades, a largest drawdown…) that rank a trial breaking one after every trial that does not. Losses and costs (drawdown, volatility, fees…) are minimised unless the
 * spec says otherwise; everything else is maximised. A figure that is null for a trial (a Sharpe
 * ratio without variance) ranks that trial last.
 */
import { field, isObject, knownKeys } from './spec-fields.js';

/** The summary's figures a sweep records per trial (numbers, or null when undefined). */
export const TRIAL_FIGURES = [
  'total_return',
  'cagr',
  'volatility',
  'sharpe',
  'sortino',
  'max_drawdown',
  'max_drawdown_duration',
  'calmar',
  'final_nav',
  'pnl',
  'trades',
  'fills',
  'win_rate',
  'profit_factor',
  'avg_trade_pnl',
  'turnover',
  'fees',
  'funding',
  'exposure_time',
  'liquidations',
  'denials',
  'agent_errors',
  'cycles',
  'return_over_drawdown',
] as const;

export type TrialFigure = (typeof TRIAL_FIGURES)[number];
export type Figures = Record<TrialFigure, number | null>;

const MINIMISED = new Set<TrialFigure>([
  'volatility',
  'max_drawdown',
  'max_drawdown_duration',
  'fees',
  'turnover',
  'liquidations',
  'denials',
  'agent_errors',
]);

/** A bound a trial must meet to be ranked among the ones that do (`constraints` in the spec). */
export interface Constraint {
  metric: TrialFigure;
  min: number | null;
  max: number | null;
}

export interface Objective {
  metric: TrialFigure;
  goal: 'max' | 'min';
  /** Trials that break one rank after every trial that meets them all (a null figure breaks it). */
  constraints: readonly Constraint[];
}

/**
 * The figures a trial is ranked on, from its summary.json: the summary's own, and
 * `return_over_drawdown` = total_return / max_drawdown (null without a drawdown).
 */
export function trialFigures(summary: Record<string, unknown>): Figures {
  const figures = Object.fromEntries(
    TRIAL_FIGURES.map((name) => [name, typeof summary[name] === 'number' ? summary[name] : null]),
  ) as Figures;
  const { total_return: ret, max_drawdown: dd } = figures;
  figures.return_over_drawdown = ret !== null && dd !== null && dd > 0 ? Number((ret / dd).toPrecision(12)) : null;
  return figures;
}

export function parseConstraints(raw: unknown): Constraint[] {
  if (raw === undefined) return [];
  if (!isObject(raw))
    throw field('constraints', 'must be an object of figures and bounds, e.g. {"trades": {"min": 20}}', raw);
  return Object.entries(raw).map(([metric, bounds]) => {
    const where = `constraints.${metric}`;
    if (!(TRIAL_FIGURES as readonly string[]).includes(metric))
      throw field(where, `is not a figure (one of ${TRIAL_FIGURES.join(', ')})`);
    if (!isObject(bounds)) throw field(where, 'must be {"min": …} and/or {"max": …}', bounds);
    knownKeys(bounds, `${where}.`, ['min', 'max']);
    const bound = (key: 'min' | 'max'): number | null => {
      const value = bounds[key];
      if (value === undefined) return null;
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw field(`${where}.${key}`, 'must be a number', value);
      return value;
    };
    const min = bound('min');
    const max = bound('max');
    if (min === null && max === null) throw field(where, 'needs "min" or "max"');
    if (min !== null && max !== null && max < min) throw field(`${where}.max`, 'must not be below min', max);
    return { metric: metric as TrialFigure, min, max };
  });
}

/** Whether a trial's figures meet every constraint. */
export function meetsConstraints(figures: Figures, constraints: readonly Constraint[]): boolean {
  return constraints.every(({ metric, min, max }) => {
    const x = figures[metric];
    return x !== null && (min === null || x >= min) && (max === null || x <= max);
  });
}

export function parseObjective(raw: unknown, constraintsRaw?: unknown): Objective {
  const constraints = parseConstraints(constraintsRaw);
  if (raw === undefined) return { metric: 'sharpe', goal: 'max', constraints };
  const spec = typeof raw === 'string' ? { metric: raw } : raw;
  if (!isObject(spec)) throw field('objective', 'must be a figure name or {"metric": …, "goal": "max"|"min"}', raw);
  knownKeys(spec, 'objective.', ['metric', 'goal']);
  const metric = spec.metric;
  if (typeof metric !== 'string' || !(TRIAL_FIGURES as readonly string[]).includes(metric))
    throw field('objective.metric', `must be one of ${TRIAL_FIGURES.join(', ')}`, metric);
  const goal = spec.goal ?? (MINIMISED.has(metric as TrialFigure) ? 'min' : 'max');
  if (goal !== 'max' && goal !== 'min') throw field('objective.goal', 'must be "max" or "min"', spec.goal);
  return { metric: metric as TrialFigure, goal, constraints };
}

/**
 * Sort order: trials meeting the constraints first; then the best first; null last; ties by trial
 * id, so the ranking never varies.
 */
export function compareTrials(objective: Objective) {
  return (a: { id: string; figures: Figures }, b: { id: string; figures: Figures }): number => {
    const meetsA = meetsConstraints(a.figures, objective.constraints);
    if (meetsA !== meetsConstraints(b.figures, objective.constraints)) return meetsA ? -1 : 1;
    const x = a.figures[objective.metric];
    const y = b.figures[objective.metric];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return objective.goal === 'max' ? y - x : x - y;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}
