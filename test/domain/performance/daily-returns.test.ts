/**
 * Daily returns and what the report derives from them: day boundaries (a cycle ending at midnight
 * belongs to the day before), weekly compounding on Monday weeks, alpha and beta against the
 * benchmark, rolling Sharpe and volatility, and the return histogram.
 */
import { describe, expect, it } from 'vitest';
import { DailyReturns } from '../../../src/domain/performance/daily-returns.js';

const DAY = 86_400_000;
// 2026-01-05 is a Monday.
const MONDAY = Date.UTC(2026, 0, 5);

/** One cycle per day ending at midnight: its NAV is the day's close. */
function run(strategy: number[], benchmark: number[], cash = 100): DailyReturns {
  const d = new DailyReturns(cash);
  let nav = cash;
  let bench = cash;
  strategy.forEach((r, i) => {
    nav *= 1 + r;
    bench *= 1 + benchmark[i]!;
    d.add(MONDAY + (i + 1) * DAY, nav, bench);
  });
  return d;
}

describe('DailyReturns', () => {
  it('a cycle ending at midnight closes the day before; several cycles a day keep the last NAV', () => {
    const d = new DailyReturns(100);
    d.add(MONDAY + 6 * 3_600_000, 101, 100);
    d.add(MONDAY + DAY, 110, 105); // 00:00 Tuesday: still Monday's close
    d.add(MONDAY + DAY + 60_000, 99, 105);
    const [monday, tuesday, ...rest] = d.returns();
    expect(rest).toEqual([]);
    expect(monday!.t).toBe(MONDAY);
    expect(monday!.strategy).toBeCloseTo(0.1, 12);
    expect(monday!.benchmark).toBeCloseTo(0.05, 12);
    expect(tuesday).toEqual({ t: MONDAY + DAY, strategy: 99 / 110 - 1, benchmark: 0 });
  });

  it('beta is the slope on the benchmark and alpha the annualised intercept', () => {
    const bench = [0.01, -0.02, 0.015, 0.003, -0.007, 0.02, -0.01];
    const strat = bench.map((b) => 2 * b + 0.001);
    const { alpha, beta } = run(strat, bench).alphaBeta();
    expect(beta).toBeCloseTo(2, 8);
    expect(alpha).toBeCloseTo(0.365, 8);
  });

  it('alpha and beta are null with a benchmark that never moved or fewer than two days', () => {
    expect(run([0.01, 0.02, 0.03], [0, 0, 0]).alphaBeta()).toEqual({ alpha: null, beta: null });
    expect(run([0.01], [0.01]).alphaBeta()).toEqual({ alpha: null, beta: null });
  });

  it('weeks compound their days, Monday to Sunday', () => {
    const r = [0.1, 0.1, 0, 0, 0, 0, 0, -0.5, 0.2];
    const weeks = run(
      r,
      r.map(() => 0),
    ).weekly();
    expect(weeks.map((w) => w.week)).toEqual(['2026-01-05', '2026-01-12']);
    expect(weeks[0]!.return).toBeCloseTo(0.21, 10);
    expect(weeks[1]!.return).toBeCloseTo(-0.4, 10);
  });

  it('rolling Sharpe and volatility match the window computed by hand', () => {
    const r = [0.01, -0.02, 0.03, 0.005, -0.01, 0.02];
    const { sharpe, volatility } = run(
      r,
      r.map(() => 0),
    ).rolling(3);
    expect(sharpe).toHaveLength(4);
    const w = r.slice(3, 6);
    const m = w.reduce((a, b) => a + b, 0) / 3;
    const sd = Math.sqrt(w.reduce((a, b) => a + (b - m) ** 2, 0) / 2);
    expect(volatility[3]!.v).toBeCloseTo(sd * Math.sqrt(365), 10);
    expect(sharpe[3]!.v).toBeCloseTo((m / sd) * Math.sqrt(365), 10);
    expect(sharpe[3]!.t).toBe(MONDAY + 6 * DAY);
  });

  it('the histogram covers every day once, from the worst to the best', () => {
    const r = [-0.05, -0.01, 0, 0.01, 0.01, 0.02, 0.05];
    const d = run(
      r,
      r.map(() => 0),
    );
    const bins = d.histogram(10);
    expect(bins).toHaveLength(10);
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(7);
    expect(bins[0]!.from).toBeCloseTo(-0.05, 8);
    expect(bins[9]!.to).toBeCloseTo(0.05, 8);
    expect(bins[9]!.count).toBe(1);
    expect(d.stats()).toMatchObject({ days: 7, best: 0.05, worst: -0.05 });
    expect(d.stats().positive_share).toBeCloseTo(4 / 7, 8);
  });
});
