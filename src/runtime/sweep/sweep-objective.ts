/**
 * What a sweep ranks trials by: one figure of summary.json (docs/strategies/simulation-metrics.md) and whether
 * more or less is better. Losses and costs (drawdown, volatility, fees…) are minimised unless the
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

export interface Objective {
  metric: TrialFigure;
  goal: 'max' | 'min';
}

export function parseObjective(raw: unknown): Objective {
  if (raw === undefined) return { metric: 'sharpe', goal: 'max' };
  const spec = typeof raw === 'string' ? { metric: raw } : raw;
  if (!isObject(spec)) throw field('objective', 'must be a figure name or {"metric": …, "goal": "max"|"min"}', raw);
  knownKeys(spec, 'objective.', ['metric', 'goal']);
  const metric = spec.metric;
  if (typeof metric !== 'string' || !(TRIAL_FIGURES as readonly string[]).includes(metric))
    throw field('objective.metric', `must be one of ${TRIAL_FIGURES.join(', ')}`, metric);
  const goal = spec.goal ?? (MINIMISED.has(metric as TrialFigure) ? 'min' : 'max');
  if (goal !== 'max' && goal !== 'min') throw field('objective.goal', 'must be "max" or "min"', spec.goal);
  return { metric: metric as TrialFigure, goal };
}

/** Sort order: the best first; null last; ties by trial id, so the ranking never varies. */
export function compareTrials(objective: Objective) {
  return (a: { id: string; figures: Figures }, b: { id: string; figures: Figures }): number => {
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
