// The tracker over generated runs: its PnL split reconciles with a NAV it did not compute, the same
// input gives the same summary bytes, and 500,000 cycles leave the report series bounded.
import { describe, expect, it } from 'vitest';
import { summaryJson } from '../../../src/domain/performance/run-summary.js';
import { createPerformanceTracker } from '../../../src/domain/performance/tracker.js';
import type { PerformanceTracker } from '../../../src/domain/performance/tracker.js';
import { syntheticRun } from './synthetic-run.js';
import type { SyntheticRunOptions } from './synthetic-run.js';

function drive(options: SyntheticRunOptions): PerformanceTracker {
  const tracker = createPerformanceTracker({
    startingCash: options.startingCash ?? 10_000,
    cycleMs: options.cycleMs ?? 60_000,
    symbols: ['BTCUSDT', 'ETHUSDT'],
    strategies: ['momentum', 'mean_reversion'],
  });
  for (const e of syntheticRun(options)) {
    if (e.type === 'cycle') tracker.cycle(e.obs);
    else if (e.type === 'trade') tracker.trade(e.trade);
    else tracker.denial(e.guard);
  }
  return tracker;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('PnL identity', () => {
  it.each([1, 2, 3])('final_nav − starting_cash = Σ pnl_by_symbol.net + funding_unattributed (seed %i)', (seed) => {
    const s = drive({ cycles: 5_000, seed, tradeChance: 0.2 });
    expect(s.summary().trades).toBeGreaterThan(50);
    const summary = s.summary();
    const bySymbol = Object.values(summary.pnl_by_symbol);
    expect(summary.pnl_unexplained).toBeCloseTo(0, 5);
    expect(sum(bySymbol.map((p) => p.net)) + summary.funding_unattributed).toBeCloseTo(summary.pnl, 5);
    expect(summary.funding_unattributed).toBeCloseTo(0, 6);
    expect(summary.funding).not.toBe(0);
    // The strategy split is another partition of the same PnL.
    expect(sum(Object.values(summary.pnl_by_strategy).map((p) => p.net))).toBeCloseTo(
      sum(bySymbol.map((p) => p.net)),
      5,
    );
    expect(sum(bySymbol.map((p) => p.fees))).toBeCloseTo(summary.fees, 6);
    expect(summary.liquidations).toBeGreaterThan(0);
  });

  it('without per-symbol funding the account funding is reported as unattributed and the identity still holds', () => {
    const summary = drive({ cycles: 5_000, seed: 4, tradeChance: 0.2, fundingBySymbol: false }).summary();
    expect(summary.funding_unattributed).toBe(summary.funding);
    expect(summary.funding).not.toBe(0);
    expect(summary.pnl_unexplained).toBeCloseTo(0, 5);
  });

  it('reports what it cannot explain: a NAV move with no fill, fee or funding behind it', () => {
    const t = createPerformanceTracker({ startingCash: 100, cycleMs: 1000, symbols: [], strategies: [] });
    t.cycle({ ts: 1000, nav: 103, cash: 103, positions: [], fundingPnl: 0, feesPaid: 0, marks: {} });
    expect(t.summary().pnl_unexplained).toBe(3);
  });
});

describe('determinism', () => {
  it('the same input gives byte-identical summary.json and series', () => {
    const a = drive({ cycles: 3_000, seed: 7 });
    const b = drive({ cycles: 3_000, seed: 7 });
    expect(summaryJson(a.summary({ partial: false }))).toBe(summaryJson(b.summary({ partial: false })));
    expect(JSON.stringify(a.series())).toBe(JSON.stringify(b.series()));
    const c = drive({ cycles: 3_000, seed: 8 });
    expect(summaryJson(c.summary())).not.toBe(summaryJson(a.summary()));
  });

  it('keeps a fixed key order and at most 8 decimals', () => {
    const json = summaryJson(drive({ cycles: 2_000, seed: 9 }).summary());
    const keys = Object.keys(JSON.parse(json));
    expect(keys.slice(0, 4)).toEqual(['partial', 'cycles', 'from', 'to']);
    for (const number of json.match(/-?\d+\.\d+/g) ?? []) expect(number.split('.')[1]!.length).toBeLessThanOrEqual(8);
  });
});

describe('bounded series', () => {
  it('500,000 cycles give at most 2,000 points per series and keep the deepest drawdown', () => {
    const started = performance.now();
    const tracker = drive({ cycles: 500_000, seed: 11, tradeChance: 0.02 });
    const elapsed = performance.now() - started;
    const series = tracker.series();
    const summary = tracker.summary();
    expect(summary.cycles).toBe(500_000);
    expect(series.equity.length).toBeLessThanOrEqual(2_000);
    expect(series.equity.length).toBeGreaterThan(900);
    expect(series.drawdown.length).toBeLessThanOrEqual(2_000);
    for (const points of Object.values(series.prices)) expect(points.length).toBeLessThanOrEqual(2_000);
    for (const fills of Object.values(series.fills)) expect(fills.length).toBeLessThanOrEqual(500);
    expect(series.lastTrades.length).toBe(50);
    // Min/max buckets: the trough of the drawdown series is the summary's max drawdown.
    expect(-Math.min(...series.drawdown.map((p) => p.v))).toBeCloseTo(summary.max_drawdown, 8);
    const times = series.equity.map((p) => p.t);
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(new Set(times).size).toBe(times.length);
    // A figure for the note, not an assertion: generator + tracker together.
    console.log(`500,000 cycles (generator + tracker): ${(elapsed / 1000).toFixed(2)} s`);
  });
});
