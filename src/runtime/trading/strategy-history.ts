/**
 * The history the loaded strategies need of a feed whose bars are `baseBarMs` long: each agent's
 * plan (historyPlan) and the window every feed must keep. A declaration a feed cannot serve (an
 * unknown timeframe, one finer than the data's, more than a feed keeps) is a configuration error:
 * exit 2 at start, naming the strategy, rather than an agent that silently never signals.
 */
import type { StrategyAgent } from '../../domain/strategy-agent.js';
import { historyBars, historyPlan } from '../../domain/strategy-input.js';
import type { HistoryPlan } from '../../domain/strategy-input.js';
import { ConfigError } from '../config.js';

export interface StrategyHistory {
  baseBarMs: number;
  /** One per strategy, in the order loaded. */
  plans: HistoryPlan[];
  /** The window the feed keeps: the longest need, never less than 60 bars. */
  bars: number;
  /**
   * Bars the first cycle must already have: the longest declared need (at least 1). A replay warms up
   * this much; the 60-bar floor of `bars` is kept where data allows but never delays a start.
   */
  required: number;
}

export function strategyHistory(strategies: readonly StrategyAgent[], baseBarMs: number): StrategyHistory {
  try {
    const plans = strategies.map((s) => historyPlan(s, baseBarMs));
    return { baseBarMs, plans, bars: historyBars(plans), required: Math.max(1, ...plans.map((p) => p.baseBars)) };
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}
