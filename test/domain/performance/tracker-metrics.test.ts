// The metrics of docs/strategies/simulation-metrics.md on small runs computed by hand: returns and their
// annualisation, drawdown depth and duration, round trips, win rate, profit factor, the null cases.
import { describe, expect, it } from 'vitest';
import type { CycleObservation, TradeObservation } from '../../../src/domain/performance/observations.js';
import { createPerformanceTracker } from '../../../src/domain/performance/tracker.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

function obs(day: number, nav: number, extra: Partial<CycleObservation> = {}): CycleObservation {
  return { ts: T0 + day * DAY, nav, cash: nav, positions: [], fundingPnl: 0, feesPaid: 0, marks: {}, ...extra };
}

function fill(
  side: 'BUY' | 'SELL',
  qty: number,
  price: number,
  extra: Partial<TradeObservation> = {},
): TradeObservation {
  return {
    ts: T0,
    clientOrderId: `o-${side}-${qty}-${price}`,
    symbol: 'BTC',
    side,
    qty,
    price,
    fee: 0,
    liquidity: 'taker',
    strategy: 'alpha',
    kind: 'order',
    ...extra,
  };
}

const tracker = (startingCash = 100) =>
  createPerformanceTracker({ startingCash, cycleMs: DAY, symbols: ['BTC'], strategies: ['alpha', 'beta'] });

describe('returns, volatility, Sharpe, Sortino, CAGR', () => {
  it('annualises per-cycle returns by cycles per year (daily cycles: 365)', () => {
    const t = tracker();
    // Returns +10 %, −5 %, +10 %: mean 0.05, sample variance 0.0075, downside variance 0.05² / 3.
    [110, 104.5, 114.95].forEach((nav, i) => t.cycle(obs(i + 1, nav)));
    const s = t.summary();
    expect(s.cycles).toBe(3);
    expect(s.total_return).toBeCloseTo(0.1495, 8);
    expect(s.volatility).toBeCloseTo(Math.sqrt(0.0075) * Math.sqrt(365), 6);
    expect(s.sharpe).toBeCloseTo((0.05 / Math.sqrt(0.0075)) * Math.sqrt(365), 6);
    expect(s.sortino).toBeCloseTo((0.05 / Math.sqrt(0.0025 / 3)) * Math.sqrt(365), 6);
    expect(s.cagr).toBeCloseTo(Math.pow(1.1495, 365 / 3) - 1, 0);
    expect(s.from).toBe('2026-01-01T00:00:00.000Z');
    expect(s.to).toBe('2026-01-04T00:00:00.000Z');
    expect(s.final_nav).toBe(114.95);
  });

  it('gives null, never Infinity or NaN, when a ratio is undefined', () => {
    const t = tracker();
    [100, 100, 100].forEach((nav, i) => t.cycle(obs(i + 1, nav)));
    const s = t.summary();
    expect(s.volatility).toBe(0);
    expect(s.sharpe).toBeNull();
    expect(s.sortino).toBeNull();
    expect(s.calmar).toBeNull();
    expect(s.win_rate).toBeNull();
    expect(s.profit_factor).toBeNull();
    expect(s.turnover).toBe(0);
    expect(JSON.stringify(s)).not.toMatch(/Infinity|NaN/);
  });

  it('a CAGR that overflows (doubling in two minutes, annualised) is null, and so is its Calmar', () => {
    const t = createPerformanceTracker({ startingCash: 100, cycleMs: 60_000, symbols: [], strategies: [] });
    [150, 120, 200].forEach((nav, i) => t.cycle(obs(0, nav, { ts: T0 + (i + 1) * 60_000 })));
    const s = t.summary();
    expect(s.total_return).toBe(1);
    expect(s.cagr).toBeNull();
    expect(s.calmar).toBeNull();
    expect(s.max_drawdown).toBe(0.2);
  });

  it('an empty run has no return figures but a well-formed summary', () => {
    const s = tracker().summary({ partial: true });
    expect(s).toMatchObject({ partial: true, cycles: 0, from: null, cagr: null, exposure_time: null, final_nav: 100 });
  });

  it('a NAV that goes to zero gives CAGR −1 and stops the return series', () => {
    const t = tracker();
    [50, 0, 0].forEach((nav, i) => t.cycle(obs(i + 1, nav)));
    const s = t.summary();
    expect(s.cagr).toBe(-1);
    expect(s.max_drawdown).toBe(1);
  });
});

describe('drawdown', () => {
  it('measures depth from the running peak and duration from the peak to recovery', () => {
    const t = tracker();
    // Peak 120 on day 2, trough 90 on day 4 (−25 %), recovery to 125 on day 6: 4 days under water.
    const rows = [110, 120, 100, 90, 115, 125, 124].map((nav, i) => t.cycle(obs(i + 1, nav)));
    expect(rows.map((r) => r.drawdown)).toEqual([0, 0, 20 / 120, 30 / 120, 5 / 120, 0, 1 / 125]);
    const s = t.summary();
    expect(s.max_drawdown).toBe(0.25);
    expect(s.max_drawdown_duration).toBe(4 * 86_400);
    expect(s.max_drawdown_duration_human).toBe('4d 00:00:00');
    expect(s.calmar).toBeCloseTo(s.cagr! / 0.25, 6);
  });

  it('counts a drawdown still open at the end up to the last cycle, from the starting cash as a peak', () => {
    const t = tracker();
    [99, 98, 97].forEach((nav, i) => t.cycle(obs(i + 1, nav)));
    const s = t.summary();
    expect(s.max_drawdown).toBeCloseTo(0.03, 10);
    // The starting cash is the peak at the start of the first cycle (day 0); the last cycle is day 3.
    expect(s.max_drawdown_duration).toBe(3 * 86_400);
  });
});

describe('round trips: trades, win rate, profit factor', () => {
  it('a round trip runs from flat to flat; its PnL is net of all its fees', () => {
    const t = tracker();
    t.trade(fill('BUY', 1, 100, { fee: 1 }));
    t.trade(fill('SELL', 1, 110, { fee: 1 })); // +10 − 2 = +8
    t.trade(fill('BUY', 2, 100, { fee: 2 }));
    t.trade(fill('SELL', 1, 90, { fee: 1 })); // partial close: trip still open
    t.trade(fill('SELL', 1, 95, { fee: 1 })); // −10 − 5 − 4 = −19
    const s = t.summary();
    expect(s.trades).toBe(2);
    expect(s.fills).toBe(5);
    expect(s.win_rate).toBe(0.5);
    expect(s.profit_factor).toBeCloseTo(8 / 19, 8);
    expect(s.avg_trade_pnl).toBeCloseTo((8 - 19) / 2, 8);
  });

  it('a flip closes one round trip and opens the next, its fee split by quantity', () => {
    const t = tracker();
    t.trade(fill('BUY', 1, 100, { fee: 1 }));
    const flip = t.trade(fill('SELL', 2, 120, { fee: 2 })); // closes +20 − 1 − 1 = +18, opens short with fee 1
    expect(flip).toMatchObject({ realized: 20, positionAfter: -1, closedRoundTrip: 18 });
    expect(flip.roundTrip).toMatchObject({ side: 'long', entry_price: 100, exit_price: 120, pnl: 18, fees: 2 });
    const close = t.trade(fill('BUY', 1, 110, { fee: 1 })); // +10 − 1 − 1 = +8
    expect(close.closedRoundTrip).toBe(8);
    const s = t.summary();
    expect(s.trades).toBe(2);
    expect(s.win_rate).toBe(1);
    expect(s.profit_factor).toBeNull(); // no losing round trip: undefined, not Infinity
  });

  it('float dust from partial closes counts as flat, for small and for large quantities', () => {
    const t = tracker();
    for (let i = 0; i < 3; i++) t.trade(fill('BUY', 0.1, 100));
    expect(t.trade(fill('SELL', 0.3, 101)).closedRoundTrip).toBeCloseTo(0.3, 10);
    // 3 × 100000000.1 is 300000000.3 − 6e-8 in floats: dust far above 1e-9 units, tiny beside the fill.
    for (let i = 0; i < 3; i++) t.trade(fill('BUY', 100_000_000.1, 0.00001));
    const close = t.trade(fill('SELL', 300_000_000.3, 0.00002));
    expect(close.positionAfter).toBe(0);
    expect(close.closedRoundTrip).toBeCloseTo(3_000.000003, 5);
    expect(t.summary().trades).toBe(2);
  });

  it('an open position at the end is no trade yet, but its PnL is in pnl_by_symbol at the last mark', () => {
    const t = tracker();
    t.trade(fill('BUY', 2, 100, { fee: 0.5 }));
    t.cycle(obs(1, 119.5, { cash: 99.5, positions: [{ symbol: 'BTC', qty: 2, markPrice: 110 }], marks: { BTC: 110 } }));
    const s = t.summary();
    expect(s.trades).toBe(0);
    expect(s.pnl_by_symbol.BTC).toEqual({ net: 19.5, trading: 20, fees: 0.5, funding: 0, fills: 1, volume: 200 });
    expect(s.exposure_time).toBe(1);
    expect(s.turnover).toBeCloseTo(200 / 119.5, 8);
  });

  it('values open lots at the venue’s mark, not at the last trade the price chart draws', () => {
    // A replay's book puts the close on the bid: last 100, the venue's mark (mid) 100.05.
    const t = tracker(10_000);
    t.trade(fill('SELL', 50, 100, { fee: 2.5 }));
    const positions = [{ symbol: 'BTC', qty: -50, markPrice: 100.05 }];
    t.cycle(obs(1, 9995, { cash: 9997.5, positions, marks: { BTC: 100 } }));
    const s = t.summary();
    expect(s.pnl_by_symbol.BTC!.trading).toBe(-2.5);
    expect(s.pnl_by_strategy.alpha!.trading).toBe(-2.5);
    expect(s.pnl_unexplained).toBe(0);
  });
});

describe('pnl_by_strategy', () => {
  it('gives a lot’s PnL to the strategy that opened it and each fee to the fill’s strategy (FIFO)', () => {
    const t = tracker(1000);
    t.trade(fill('BUY', 1, 100, { strategy: 'alpha', fee: 1 }));
    t.trade(fill('BUY', 1, 110, { strategy: 'beta', fee: 1 }));
    t.trade(fill('SELL', 1, 120, { strategy: 'beta', fee: 1 })); // closes alpha's lot first: alpha +20
    t.trade(fill('SELL', 1, 90, { strategy: null, kind: 'liquidation', fee: 3 })); // closes beta's lot: beta −20
    t.cycle(obs(1, 994, { marks: { BTC: 90 } }));
    const s = t.summary();
    expect(s.pnl_by_strategy).toEqual({
      '(none)': { net: -3, trading: 0, fees: 3, funding: 0 },
      alpha: { net: 19, trading: 20, fees: 1, funding: 0 },
      beta: { net: -22, trading: -20, fees: 2, funding: 0 },
    });
    expect(s.liquidations).toBe(1);
    expect(s.pnl_by_symbol.BTC!.net).toBe(-6);
  });

  it('shares a symbol’s funding among its open lots by quantity', () => {
    const t = tracker(1000);
    t.trade(fill('BUY', 3, 100, { strategy: 'alpha' }));
    t.trade(fill('BUY', 1, 100, { strategy: 'beta' }));
    const positions = [{ symbol: 'BTC', qty: 4, markPrice: 100 }];
    t.cycle(obs(1, 992, { positions, marks: { BTC: 100 }, fundingPnl: -8, fundingBySymbol: { BTC: -8 } }));
    const s = t.summary();
    expect(s.pnl_by_strategy.alpha!.funding).toBe(-6);
    expect(s.pnl_by_strategy.beta!.funding).toBe(-2);
    expect(s.pnl_by_symbol.BTC!.funding).toBe(-8);
    expect(s.funding).toBe(-8);
    expect(s.funding_unattributed).toBe(0);
    expect(s.pnl_unexplained).toBe(0);
  });

  it('gives a cycle’s funding to the lots held before that cycle’s fills (the venue settles first)', () => {
    const t = tracker(1000);
    t.trade(fill('BUY', 2, 100, { strategy: 'alpha' }));
    t.cycle(obs(1, 1000, { positions: [{ symbol: 'BTC', qty: 2, markPrice: 100 }], marks: { BTC: 100 } }));
    // Cycle 2: the venue settles −2 on alpha's long, then alpha closes it and beta opens a short.
    t.trade(fill('SELL', 2, 100, { strategy: 'alpha' }));
    t.trade(fill('SELL', 1, 100, { strategy: 'beta' }));
    const short = [{ symbol: 'BTC', qty: -1, markPrice: 100 }];
    t.cycle(obs(2, 998, { positions: short, marks: { BTC: 100 }, fundingPnl: -2, fundingBySymbol: { BTC: -2 } }));
    // Cycle 3: +1 received on beta's short.
    t.cycle(obs(3, 999, { positions: short, marks: { BTC: 100 }, fundingPnl: -1, fundingBySymbol: { BTC: -1 } }));
    const s = t.summary();
    expect(s.pnl_by_strategy.alpha!.funding).toBe(-2);
    expect(s.pnl_by_strategy.beta!.funding).toBe(1);
    expect(s.pnl_by_strategy['(none)']).toBeUndefined();
    expect(s.pnl_by_symbol.BTC!.funding).toBe(-1);
    expect(s.funding_unattributed).toBe(0);
  });
});

describe('denials', () => {
  it('counts denied orders by the failing guard, keys in a fixed order', () => {
    const t = tracker();
    for (const g of ['leverage', 'drawdown', 'leverage', 'exposure']) t.denial(g);
    const s = t.summary();
    expect(s.denials).toBe(4);
    expect(Object.entries(s.denials_by_guard)).toEqual([
      ['drawdown', 1],
      ['exposure', 1],
      ['leverage', 2],
    ]);
  });
});
