/**
 * Daily returns of the strategy and of its buy-and-hold benchmark, and what the report derives from
 * them: their statistics, the weekly returns, the return distribution, rolling Sharpe and
 * volatility, and alpha and beta to the benchmark. A day's return is its last NAV (UTC) over the
 * previous day's last NAV (the starting cash before the first), and a cycle belongs to the day in
 * which its period ends, as in monthly-returns.ts. One NAV and one benchmark value per day are
 * kept: ten years cost 3,650 pairs. Definitions: docs/strategies/simulation-metrics.md.
 */
import { round } from './run-summary.js';
import type { SeriesPoint } from './downsample.js';

const DAY_MS = 86_400_000;
/** A 24/7 market: 365 trading days a year. */
const DAYS_PER_YEAR = 365;

interface DayEnd {
  /** Epoch ms of the day's 00:00 UTC. */
  day: number;
  nav: number;
  benchmark: number;
}

export interface DailyReturn {
  /** The day's 00:00 UTC, epoch ms. */
  t: number;
  /** The strategy's and the benchmark's return over the day (null after a value ≤ 0). */
  strategy: number | null;
  benchmark: number | null;
}

export interface DailyReturnStats {
  days: number;
  mean: number | null;
  /** Standard deviation of daily returns (sample), not annualised. */
  std: number | null;
  best: number | null;
  worst: number | null;
  /** Share of days with a return > 0. */
  positive_share: number | null;
}

export interface WeeklyReturn {
  /** The Monday (UTC) the week starts, YYYY-MM-DD. */
  week: string;
  return: number | null;
}

export interface HistogramBin {
  from: number;
  to: number;
  count: number;
}

export class DailyReturns {
  private readonly ends: DayEnd[] = [];

  constructor(private readonly startingCash: number) {}

  add(ts: number, nav: number, benchmark: number): void {
    const day = Math.floor((ts - 1) / DAY_MS) * DAY_MS;
    const last = this.ends[this.ends.length - 1];
    if (last !== undefined && last.day === day) {
      last.nav = nav;
      last.benchmark = benchmark;
    } else this.ends.push({ day, nav, benchmark });
  }

  returns(): DailyReturn[] {
    const out: DailyReturn[] = [];
    let nav = this.startingCash;
    let bench = this.startingCash;
    for (const end of this.ends) {
      out.push({ t: end.day, strategy: growth(end.nav, nav), benchmark: growth(end.benchmark, bench) });
      nav = end.nav;
      bench = end.benchmark;
    }
    return out;
  }

  stats(): DailyReturnStats {
    const r = defined(this.returns().map((d) => d.strategy));
    const { mean, std } = moments(r);
    return {
      days: r.length,
      mean: round(mean),
      std: round(std),
      best: r.length > 0 ? round(Math.max(...r)) : null,
      worst: r.length > 0 ? round(Math.min(...r)) : null,
      positive_share: r.length > 0 ? round(r.filter((x) => x > 0).length / r.length) : null,
    };
  }

  /**
   * Beta: cov(strategy, benchmark) / var(benchmark) over the days both have a return; alpha: the
   * daily intercept, annualised by 365 (simple, not compounded). Null with fewer than 2 such days
   * or a benchmark that never moved.
   */
  alphaBeta(): { alpha: number | null; beta: number | null } {
    const pairs = this.returns().filter((d) => d.strategy !== null && d.benchmark !== null);
    if (pairs.length < 2) return { alpha: null, beta: null };
    const s = pairs.map((d) => d.strategy!);
    const b = pairs.map((d) => d.benchmark!);
    const ms = mean(s);
    const mb = mean(b);
    let cov = 0;
    let varB = 0;
    for (let i = 0; i < pairs.length; i++) {
      cov += (s[i]! - ms) * (b[i]! - mb);
      varB += (b[i]! - mb) ** 2;
    }
    if (varB === 0) return { alpha: null, beta: null };
    const beta = cov / varB;
    return { alpha: round((ms - beta * mb) * DAYS_PER_YEAR), beta: round(beta) };
  }

  /** Daily returns compounded by ISO week (Monday 00:00 UTC to the next). */
  weekly(): WeeklyReturn[] {
    const weeks: WeeklyReturn[] = [];
    let current: { week: number; growth: number | null } | null = null;
    const flush = () => {
      if (current === null) return;
      weeks.push({
        week: new Date(current.week).toISOString().slice(0, 10),
        return: current.growth === null ? null : round(current.growth - 1),
      });
    };
    for (const d of this.returns()) {
      // 1970-01-01 was a Thursday: shift by 3 days so weeks start on Mondays.
      const week = Math.floor((d.t + 3 * DAY_MS) / (7 * DAY_MS)) * 7 * DAY_MS - 3 * DAY_MS;
      if (current === null || current.week !== week) {
        flush();
        current = { week, growth: 1 };
      }
      current.growth = current.growth === null || d.strategy === null ? null : current.growth * (1 + d.strategy);
    }
    flush();
    return weeks;
  }

  /** Annualised Sharpe (mean / std × √365) and volatility over each trailing window of `days` days. */
  rolling(days: number): { sharpe: SeriesPoint[]; volatility: SeriesPoint[] } {
    const returns = this.returns();
    const sharpe: SeriesPoint[] = [];
    const volatility: SeriesPoint[] = [];
    for (let i = days - 1; i < returns.length; i++) {
      const window = defined(returns.slice(i - days + 1, i + 1).map((d) => d.strategy));
      if (window.length < 2) continue;
      const { mean: m, std } = moments(window);
      // The point sits at the end of its window's last day.
      const t = returns[i]!.t + DAY_MS;
      if (std !== null) volatility.push({ t, v: std * Math.sqrt(DAYS_PER_YEAR) });
      if (std !== null && std > 0 && m !== null) sharpe.push({ t, v: (m / std) * Math.sqrt(DAYS_PER_YEAR) });
    }
    return { sharpe, volatility };
  }

  /** The distribution of daily returns in `bins` equal-width bins from the worst day to the best. */
  histogram(bins = 20): HistogramBin[] {
    const r = defined(this.returns().map((d) => d.strategy));
    if (r.length === 0) return [];
    const lo = Math.min(...r);
    const hi = Math.max(...r);
    if (lo === hi) return [{ from: round(lo), to: round(hi), count: r.length }];
    const width = (hi - lo) / bins;
    const counts = new Array<number>(bins).fill(0);
    for (const x of r) counts[Math.min(bins - 1, Math.floor((x - lo) / width))]! += 1;
    return counts.map((count, i) => ({ from: round(lo + i * width), to: round(lo + (i + 1) * width), count }));
  }
}

function growth(to: number, from: number): number | null {
  return from > 0 ? to / from - 1 : null;
}

function defined(xs: (number | null)[]): number[] {
  return xs.filter((x): x is number => x !== null);
}

function mean(xs: number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Mean and sample standard deviation; null where too few values. */
function moments(xs: number[]): { mean: number | null; std: number | null } {
  if (xs.length === 0) return { mean: null, std: null };
  const m = mean(xs);
  if (xs.length < 2) return { mean: m, std: null };
  let ss = 0;
  for (const x of xs) ss += (x - m) ** 2;
  return { mean: m, std: Math.sqrt(ss / (xs.length - 1)) };
}
