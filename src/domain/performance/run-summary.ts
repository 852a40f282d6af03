/**
 * The summary.json document: its fixed key order, its rounding and its undefined-ratio rule.
 * Every float is rounded to 8 decimals and every undefined ratio is null, so the same run always
 * prints the same bytes and a reader never meets Infinity or NaN. Definitions: docs/strategies/simulation-metrics.md.
 */
import type { ExitReason } from '../protection.js';
import type { BenchmarkSummary } from './benchmark.js';
import type { DailyReturnStats, WeeklyReturn } from './daily-returns.js';
import type { DrawdownEpisode } from './drawdown-episodes.js';
import type { MonthlyReturnRow } from './monthly-returns.js';
import type { TradeStats } from './trade-stats.js';
import type { StrategyFunnel } from '../signal-funnel-tally.js';

/** Decimals kept for every number in the summary (and computed CSV columns). */
export const SUMMARY_DECIMALS = 8;

/** Rounds to SUMMARY_DECIMALS; −0 becomes 0; anything not finite becomes null. */
export function round(x: number): number;
export function round(x: number | null): number | null;
export function round(x: number | null): number | null {
  if (x === null || !Number.isFinite(x)) return null;
  const scale = 10 ** SUMMARY_DECIMALS;
  const r = Math.round(x * scale) / scale;
  return Number.isFinite(r) ? r + 0 : x + 0;
}

/** A ratio that is null when its denominator is zero or either side is undefined. */
export function ratio(numerator: number | null, denominator: number | null): number | null {
  if (numerator === null || denominator === null || denominator === 0) return null;
  return round(numerator / denominator);
}

export interface SymbolPnl {
  /** trading − fees + funding. */
  net: number;
  /** Mark-to-market trading PnL: realized + open lots at the last mark, before fees and funding. */
  trading: number;
  fees: number;
  funding: number;
  fills: number;
  /** Traded notional, quote currency. */
  volume: number;
}

/** What fills cost beside their prices' move: fees, and what taker fills paid beyond the mid (docs/strategies/simulation-metrics.md, Costs). */
export interface SymbolCosts {
  fees: number;
  /** Σ |price before slippage − mid of the book met| × qty over taker fills. */
  spread: number;
  /** Σ |fill price − price before slippage| × qty (SLIPPAGE_BPS). */
  slippage: number;
  total: number;
}

export interface RunCosts extends SymbolCosts {
  by_symbol: Record<string, SymbolCosts>;
}

export interface StrategyPnl {
  net: number;
  trading: number;
  fees: number;
  funding: number;
}

export interface RunSummary {
  partial: boolean;
  cycles: number;
  from: string | null;
  to: string | null;
  cycle_seconds: number;
  starting_cash: number;
  final_nav: number;
  pnl: number;
  total_return: number;
  cagr: number | null;
  volatility: number;
  sharpe: number | null;
  sortino: number | null;
  max_drawdown: number;
  max_drawdown_duration: number;
  max_drawdown_duration_human: string;
  calmar: number | null;
  trades: number;
  fills: number;
  win_rate: number | null;
  profit_factor: number | null;
  avg_trade_pnl: number | null;
  turnover: number | null;
  fees: number;
  /** Fees, spread and slippage, per symbol and in total (spread and slippage are already in the fill prices). */
  costs: RunCosts;
  funding: number;
  funding_unattributed: number;
  pnl_unexplained: number;
  exposure_time: number | null;
  liquidations: number;
  /** Fills of protective exits, by reason (STOP_LOSS, TAKE_PROFIT, TRAILING_STOP). */
  exits_by_reason: Record<ExitReason, number>;
  pnl_by_symbol: Record<string, SymbolPnl>;
  pnl_by_strategy: Record<string, StrategyPnl>;
  denials: number;
  denials_by_guard: Record<string, number>;
  /** Errors thrown by strategies (one per symbol and cycle); each cost that symbol's signal. */
  agent_errors: number;
  agent_errors_by_agent: Record<string, number>;
  /** The run's first one, so a strategy that always throws is seen without reading logs. */
  first_agent_error: AgentErrorObservation | null;
  /** Buy and hold from each symbol's first price to its last, and equal-weighted. */
  benchmark: BenchmarkSummary;
  /** NAV month end over the previous month end (UTC), one row per year. */
  monthly_returns: MonthlyReturnRow[];
  /** Closed round trips: wins, losses, best, worst, holding time, exits. */
  trade_stats: TradeStats;
  trade_stats_by_symbol: Record<string, TradeStats>;
  /** By the strategy of the fill that opened the trade. */
  trade_stats_by_strategy: Record<string, TradeStats>;
  /** Mean and peak of gross exposure / NAV over the cycles (NAV > 0). */
  avg_gross_exposure: number | null;
  max_gross_exposure: number | null;
  /** What became of each strategy's signals (src/domain/signal-funnel.ts): filled, ordered, denied, skipped… by reason. */
  signal_funnel: Record<string, StrategyFunnel>;
  /** The run's length in days (cycles × cycle length): under 365, every annualised figure is an extrapolation. */
  run_days: number;
  /** Average net PnL per closed trade over the average loss: what a trade earns per unit it risks (R). */
  expectancy_ratio: number | null;
  /** The deepest drawdown episodes (peak, valley, recovery), deepest first. */
  worst_drawdowns: DrawdownEpisode[];
  /** Statistics of the daily (UTC) returns. */
  daily_returns: DailyReturnStats;
  /** Daily returns compounded by week (Monday to Sunday, UTC). */
  weekly_returns: WeeklyReturn[];
  /** Regression of daily returns on the buy-and-hold benchmark's: annualised intercept and slope. */
  alpha: number | null;
  beta: number | null;
}

export interface AgentErrorObservation {
  agent: string;
  symbol: string;
  message: string;
}

/** A copy of `record` with its keys in code-point order (never locale order: bytes must not vary). */
export function sortedRecord<T>(record: ReadonlyMap<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of [...record.keys()].sort()) out[key] = record.get(key)!;
  return out;
}

/** "3d 04:05:06" for a duration in seconds (days only when there are any). */
export function humanDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const days = Math.floor(s / 86_400);
  const pad = (n: number) => String(n).padStart(2, '0');
  const clock = `${pad(Math.floor((s % 86_400) / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return days > 0 ? `${days}d ${clock}` : clock;
}

/** summary.json's bytes: two-space indented, trailing newline. */
export function summaryJson(summary: RunSummary): string {
  return `${JSON.stringify(summary, null, 2)}\n`;
}
