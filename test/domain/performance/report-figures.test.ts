// The figures a quant compares (docs/strategies/simulation-metrics.md, "Benchmark", "Monthly returns", "Trade
// statistics", "Exposure", "Fill markers") on small runs computed by hand, through the tracker.
import { describe, expect, it } from 'vitest';
import type { CycleObservation, TradeObservation } from '../../../src/domain/performance/observations.js';
import { createPerformanceTracker } from '../../../src/domain/performance/tracker.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

function obs(ts: number, nav: number, extra: Partial<CycleObservation> = {}): CycleObservation {
  return { ts, nav, cash: nav, positions: [], fundingPnl: 0, feesPaid: 0, marks: {}, ...extra };
}

function fill(day: number, side: 'BUY' | 'SELL', qty: number, price: number, extra: Partial<TradeObservation> = {}) {
  return {
    ts: T0 + day * DAY,
    clientOrderId: `o-${day}-${side}`,
    symbol: 'BTC',
    side,
    qty,
    price,
    fee: 0,
    liquidity: 'taker',
    strategy: 'alpha',
    kind: 'order',
    ...extra,
  } satisfies TradeObservation;
}

const daily = (startingCash: number, symbols: string[]) =>
  createPerformanceTracker({ startingCash, cycleMs: DAY, symbols, strategies: ['alpha', 'beta'] });

describe('buy-and-hold benchmark', () => {
  it('holds the starting cash from the first price to the last, per symbol and split equally', () => {
    const t = daily(1000, ['A', 'B']);
    // Equal weight buys 500 / 100 = 5 A and 500 / 50 = 10 B at the first marks:
    // NAV 1000, 5×120 + 10×40 = 1000, 5×90 + 10×60 = 1050, 5×80 + 10×55 = 950.
    const marks = [
      { A: 100, B: 50 },
      { A: 120, B: 40 },
      { A: 90, B: 60 },
      { A: 80, B: 55 },
    ];
    const navs = [1000, 1010, 1020, 1030];
    marks.forEach((m, i) => t.cycle(obs(T0 + (i + 1) * DAY, navs[i]!, { marks: m })));
    const b = t.summary().benchmark;
    expect(b.equal_weight.final_nav).toBe(950);
    expect(b.equal_weight.return).toBe(-0.05);
    expect(b.equal_weight.max_drawdown).toBeCloseTo(100 / 1050, 8);
    expect(b.equal_weight.excess_return).toBeCloseTo(0.03 - -0.05, 8);
    expect(b.by_symbol.A).toEqual({
      first_price: 100,
      last_price: 80,
      return: -0.2,
      max_drawdown: round8(1 / 3),
      excess_return: 0.23,
    });
    expect(b.by_symbol.B).toEqual({
      first_price: 50,
      last_price: 55,
      return: 0.1,
      max_drawdown: 0.2,
      excess_return: -0.07,
    });
    // The chart line: one point per cycle here (few cycles, nothing merged).
    expect(t.series().benchmark.map((p) => p.v)).toEqual([1000, 1000, 1050, 950]);
  });

  it('keeps the share of a symbol with no price yet as cash, and has no figures for a symbol never priced', () => {
    const t = daily(1000, ['A', 'C']);
    t.cycle(obs(T0 + DAY, 1000, { marks: { A: 100 } }));
    t.cycle(obs(T0 + 2 * DAY, 1000, { marks: { A: 120 } }));
    const b = t.summary().benchmark;
    expect(b.equal_weight.final_nav).toBe(1100); // 5 × 120 + 500 in cash
    expect(b.equal_weight.return).toBe(0.1);
    expect(b.by_symbol.C).toEqual({
      first_price: null,
      last_price: null,
      return: null,
      max_drawdown: null,
      excess_return: null,
    });
  });

  it('an empty run has a benchmark of its starting cash and no return', () => {
    const b = daily(1000, ['A']).summary().benchmark;
    expect(b.equal_weight).toEqual({ final_nav: 1000, return: null, max_drawdown: 0, excess_return: null });
  });
});

describe('monthly returns', () => {
  it('compounds each month from the NAV at the previous month end (UTC), the first from the starting cash', () => {
    const t = daily(100, []);
    t.cycle(obs(Date.UTC(2026, 0, 15), 120));
    t.cycle(obs(Date.UTC(2026, 0, 31, 12), 121));
    // Ends at midnight of Feb 1: the cycle's period is in January, so it is January's month end.
    t.cycle(obs(Date.UTC(2026, 1, 1), 110));
    t.cycle(obs(Date.UTC(2026, 1, 20), 99));
    t.cycle(obs(Date.UTC(2026, 11, 31), 99));
    t.cycle(obs(Date.UTC(2027, 0, 10), 108.9));
    const rows = t.summary().monthly_returns;
    const none = null;
    expect(rows).toEqual([
      { year: 2026, months: [0.1, -0.1, none, none, none, none, none, none, none, none, none, 0], total: -0.01 },
      { year: 2027, months: [0.1, none, none, none, none, none, none, none, none, none, none, none], total: 0.1 },
    ]);
  });

  it('is empty with no cycles, and a month after a NAV of zero has no return', () => {
    expect(daily(100, []).summary().monthly_returns).toEqual([]);
    const t = daily(100, []);
    t.cycle(obs(Date.UTC(2026, 0, 20), 0));
    t.cycle(obs(Date.UTC(2026, 1, 20), 0));
    const [row] = t.summary().monthly_returns;
    expect(row!.months.slice(0, 2)).toEqual([-1, null]);
    expect(row!.total).toBe(-1);
  });
});

describe('trade statistics', () => {
  // Four closed round trips on BTC, net of fees: +8 (alpha, 2 days, signal), −20 (beta short, 1 day,
  // stop-loss), −5 (alpha, 2 days, liquidated), +4 (alpha, 1 day, closed by beta's flip); the flip
  // opens a fifth (beta short 2) that is still open at the end.
  function fourTrips() {
    const t = daily(1000, ['BTC']);
    t.trade(fill(1, 'BUY', 1, 100, { fee: 1 }));
    t.trade(fill(3, 'SELL', 1, 110, { fee: 1 }));
    t.trade(fill(4, 'SELL', 2, 110, { strategy: 'beta' }));
    t.trade(fill(5, 'BUY', 2, 120, { strategy: 'beta', kind: 'stop_loss' }));
    t.trade(fill(6, 'BUY', 1, 100));
    t.trade(fill(8, 'SELL', 1, 95, { strategy: null, kind: 'liquidation' }));
    t.trade(fill(9, 'BUY', 1, 100));
    t.trade(fill(10, 'SELL', 3, 104, { strategy: 'beta' }));
    return t.summary();
  }

  it('averages wins and losses, finds the best and worst, the holding time and how each trade ended', () => {
    const s = fourTrips();
    expect(s.trades).toBe(4);
    expect(s.trade_stats).toEqual({
      trades: 4,
      wins: 2,
      losses: 2,
      avg_win: 6,
      avg_loss: -12.5,
      best_trade: 8,
      worst_trade: -20,
      avg_holding_seconds: 1.5 * 86_400,
      avg_holding_human: '1d 12:00:00',
      exits: { signal: 2, stop_loss: 1, liquidation: 1 },
    });
  });

  it('splits them by symbol and by the strategy that opened each trade', () => {
    const s = fourTrips();
    expect(s.trade_stats_by_symbol.BTC).toEqual(s.trade_stats);
    expect(s.trade_stats_by_strategy.alpha).toMatchObject({
      trades: 3,
      wins: 2,
      losses: 1,
      avg_win: 6,
      avg_loss: -5,
      best_trade: 8,
      worst_trade: -5,
      avg_holding_seconds: (5 / 3) * 86_400,
      exits: { signal: 2, liquidation: 1 },
    });
    expect(s.trade_stats_by_strategy.beta).toMatchObject({ trades: 1, avg_win: null, avg_loss: -20 });
  });

  it('has nulls, never NaN, with no closed trade', () => {
    const s = daily(1000, ['BTC']).summary();
    expect(s.trade_stats).toEqual({
      trades: 0,
      wins: 0,
      losses: 0,
      avg_win: null,
      avg_loss: null,
      best_trade: null,
      worst_trade: null,
      avg_holding_seconds: null,
      avg_holding_human: null,
      exits: {},
    });
    expect(s.trade_stats_by_symbol).toEqual({});
  });
});

describe('exposure over time', () => {
  it('is gross exposure over NAV each cycle: its mean, its peak and a chart series', () => {
    const t = daily(100, ['BTC']);
    const at = (day: number, nav: number, qty: number, mark: number) =>
      obs(T0 + day * DAY, nav, { positions: qty === 0 ? [] : [{ symbol: 'BTC', qty, markPrice: mark }] });
    t.cycle(at(1, 100, 0.5, 100)); // 50 / 100
    t.cycle(at(2, 200, -3, 100)); // 300 / 200
    t.cycle(at(3, 100, 0, 100)); // 0
    const s = t.summary();
    expect(s.avg_gross_exposure).toBeCloseTo(2 / 3, 8);
    expect(s.max_gross_exposure).toBe(1.5);
    expect(t.series().exposure.map((p) => p.v)).toEqual([0.5, 1.5, 0]);
  });
});

describe('fill markers', () => {
  it('aggregate per time bucket and side, so a long run marks at most a few hundred per symbol', () => {
    const run = () => {
      const t = createPerformanceTracker({ startingCash: 1e6, cycleMs: 60_000, symbols: ['BTC'], strategies: [] });
      for (let i = 0; i < 10_000; i++) {
        const liquidation = i % 50 === 49;
        t.trade({
          ...fill(0, i % 2 === 0 ? 'BUY' : 'SELL', 1, 100 + (i % 7)),
          ts: T0 + i * 60_000,
          kind: liquidation ? 'liquidation' : 'order',
        });
      }
      return t.series().fills.BTC!;
    };
    const markers = run();
    expect(markers.length).toBeLessThanOrEqual(300);
    expect(markers.length).toBeGreaterThan(100);
    expect(markers.reduce((n, m) => n + m.count, 0)).toBe(10_000);
    expect(markers.filter((m) => m.forced).reduce((n, m) => n + m.count, 0)).toBe(200);
    for (let i = 1; i < markers.length; i++) expect(markers[i]!.t).toBeGreaterThanOrEqual(markers[i - 1]!.t);
    expect(run()).toEqual(markers);
  });

  it('one marker per side and bucket: count, total quantity and average price', () => {
    const t = daily(1000, ['BTC']);
    t.trade(fill(1, 'BUY', 1, 100));
    t.trade(fill(1, 'BUY', 3, 104));
    t.trade(fill(1, 'SELL', 2, 105));
    t.trade(fill(2, 'SELL', 2, 90, { strategy: null, kind: 'liquidation' }));
    expect(t.series().fills.BTC).toEqual([
      { t: T0 + DAY, side: 'BUY', forced: false, count: 2, qty: 4, price: 103 },
      { t: T0 + DAY, side: 'SELL', forced: false, count: 1, qty: 2, price: 105 },
      { t: T0 + 2 * DAY, side: 'SELL', forced: true, count: 1, qty: 2, price: 90 },
    ]);
  });
});

function round8(x: number): number {
  return Math.round(x * 1e8) / 1e8;
}
