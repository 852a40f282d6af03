// What an agent declares and is given: a declaration a feed cannot serve is an error naming the
// agent; the feed keeps the longest need (never under 60 bars); the snapshot `analyse` receives
// carries the candles, the declared timeframe, the agent's own position and the NAV, and `closes`
// as the plain array today's interface reads; and the signal contract's breaches are named.
import { describe, expect, it } from 'vitest';
import { BarWindow, barsFromCloses, resample } from '../../src/domain/bars.js';
import type { Bars } from '../../src/domain/bars.js';
import type { StrategyAgent } from '../../src/domain/strategy-agent.js';
import { PrivateBars } from '../../src/domain/private-bars.js';
import {
  contractBreach,
  historyBars,
  historyPlan,
  ResampleCache,
  strategySnapshot,
} from '../../src/domain/strategy-input.js';
import { marketSnapshot } from '../strategies/snapshot.js';

const MIN = 60_000;
const agent = (declared: Partial<StrategyAgent>): StrategyAgent => ({ name: 'mine', analyse: () => null, ...declared });

describe('historyPlan', () => {
  it('turns a declaration into base bars for the feed', () => {
    expect(historyPlan(agent({}), MIN)).toEqual({ lookback: 0, timeframeMs: null, baseBars: 0 });
    expect(historyPlan(agent({ lookback: 100 }), MIN)).toEqual({ lookback: 100, timeframeMs: null, baseBars: 100 });
    expect(historyPlan(agent({ lookback: 24, timeframe: '1h' }), MIN)).toEqual({
      lookback: 24,
      timeframeMs: 60 * MIN,
      baseBars: 24 * 60 + 59,
    });
    // The base timeframe named explicitly is no resampling.
    expect(historyPlan(agent({ lookback: 5, timeframe: '1m' }), MIN).timeframeMs).toBeNull();
  });

  it.each([
    [{ lookback: 0 }, /lookback must be a whole number of bars ≥ 1, got 0/],
    [{ lookback: 2.5 }, /lookback must be a whole number/],
    [{ timeframe: '7m' }, /timeframe "7m" is not one of 1m, 3m/],
    [{ lookback: 30, timeframe: '1d' }, /needs 44639 base bars, more than the 10080/],
  ])('refuses %o, naming the agent', (declared, message) => {
    expect(() => historyPlan(agent(declared as Partial<StrategyAgent>), MIN)).toThrow(message);
    expect(() => historyPlan(agent(declared as Partial<StrategyAgent>), MIN)).toThrow(/^strategy mine:/);
  });

  it('names a bar length that is not whole minutes as seconds, and says what sets it', () => {
    expect(() => historyPlan(agent({ timeframe: '15m' }), 7_000)).toThrow(
      /not a whole multiple of the market data's 7 s bars \(a simulation's --cycle-seconds sets them/,
    );
  });

  it('serves a timeframe finer than the data with its own bars, and refuses one not a multiple of it', () => {
    expect(historyPlan(agent({ lookback: 4, timeframe: '1m' }), 5 * MIN)).toEqual({
      lookback: 4,
      timeframeMs: null,
      baseBars: 4,
    });
    expect(() => historyPlan(agent({ timeframe: '4h' }), 3 * 60 * MIN)).toThrow(/not a whole multiple/);
  });

  it('keeps at least the 60 bars strategies always had', () => {
    expect(historyBars([])).toBe(60);
    expect(historyBars([historyPlan(agent({ lookback: 101 }), MIN), historyPlan(agent({ lookback: 3 }), MIN)])).toBe(
      101,
    );
  });
});

describe('strategySnapshot', () => {
  it('gives the candles, the own position and NAV, and closes as a plain array made on first read', () => {
    const market = marketSnapshot([100, 101, 102]);
    const s = strategySnapshot(market, null, -0.5, 12_345);
    expect(Array.from(s.candles.close)).toEqual([100, 101, 102]);
    expect(s.candles.length).toBe(3);
    expect(s).toMatchObject({ position: -0.5, nav: 12_345, higher: null, last: 102, symbol: 'BTCUSDT' });
    expect(Array.isArray(s.closes)).toBe(true);
    expect(s.closes).toEqual([100, 101, 102]);
    expect(s.closes).toBe(s.closes);
  });

  it("carries the declared timeframe's candles", () => {
    const higher = barsFromCloses([1, 2], 5 * MIN);
    const seen = strategySnapshot(marketSnapshot([1]), higher, 0, 1).higher!;
    expect(seen.length).toBe(2);
    expect(Array.from(seen.close)).toEqual([1, 2]);
    expect(Array.from(seen.time)).toEqual([0, 5 * MIN]);
  });

  it("writes into the candles change neither the feed's bars nor another agent's", () => {
    const market = marketSnapshot([100, 101, 102]);
    const higher = barsFromCloses([1, 2], 5 * MIN);
    const writer = new PrivateBars();
    const reader = new PrivateBars();
    const w = strategySnapshot(market, higher, 0, 1, writer);
    w.candles.close.fill(0);
    w.bars.open[0] = 0;
    w.higher!.close[1] = 0;
    w.closes[0] = 0;
    expect(() => Object.assign(w.candles, { close: new Float64Array(3) })).toThrow(TypeError);
    expect(Array.from(market.bars.close)).toEqual([100, 101, 102]);
    expect(market.bars.open[0]).toBe(100);
    expect(Array.from(higher.close)).toEqual([1, 2]);
    const r = strategySnapshot(market, higher, 0, 1, reader);
    expect(Array.from(r.candles.close)).toEqual([100, 101, 102]);
    expect(Array.from(r.higher!.close)).toEqual([1, 2]);
    expect(r.closes).toEqual([100, 101, 102]);
    // The writer's next call reads the feed's numbers again, in the same buffer.
    const again = strategySnapshot(market, higher, 0, 1, writer);
    expect(again.candles.close).toBe(w.candles.close);
    expect(Array.from(again.candles.close)).toEqual([100, 101, 102]);
    // Nothing the feed owns is reachable through the view's properties.
    expect(Object.values(again)).not.toContain(market);
    expect(again.candles.close.buffer).not.toBe(market.bars.close.buffer);
  });

  it('hands out a frozen copy of the book: a write throws and the venue-facing levels stay as they were', () => {
    const market = marketSnapshot([100]);
    const asks = market.asks.map((l) => ({ ...l }));
    const bids = market.bids.map((l) => ({ ...l }));
    const s = strategySnapshot(market, null, 0, 1);
    expect(s.asks).toEqual(asks);
    expect(s.bids).toEqual(bids);
    expect(s.asks).not.toBe(market.asks);
    expect(s.asks).toBe(s.asks);
    expect(() => {
      (s.asks[0] as { price: number }).price /= 2;
    }).toThrow(TypeError);
    expect(() => (s.asks as unknown[]).splice(0, 1)).toThrow(TypeError);
    expect(() => (s.bids as unknown[]).push({ price: 1, qty: 1 })).toThrow(TypeError);
    expect(market.asks).toEqual(asks);
    expect(market.bids).toEqual(bids);
  });
});

describe('contractBreach', () => {
  const ok = { agent: 'mine', symbol: 'BTCUSDT', direction: 1, confidence: 0.5 };
  it('accepts a signal for this agent and symbol', () => {
    expect(contractBreach(ok, 'mine', 'BTCUSDT')).toBeNull();
    expect(contractBreach({ ...ok, direction: 0, confidence: 1 }, 'mine', 'BTCUSDT')).toBeNull();
    // −0 is 0 (flat); any other integer counts by its sign (the README's contract).
    expect(contractBreach({ ...ok, direction: -0, confidence: 1 }, 'mine', 'BTCUSDT')).toBeNull();
    expect(contractBreach({ ...ok, direction: 2 }, 'mine', 'BTCUSDT')).toBeNull();
  });
  it.each([
    [{ ...ok, agent: 'badagent' }, /names agent "badagent", not "mine"/],
    [{ ...ok, symbol: 'ETHUSDT' }, /signal for "ETHUSDT" returned when analysing BTCUSDT/],
    [{ ...ok, direction: 0.5 }, /direction must be an integer/],
    [{ ...ok, confidence: 1.5 }, /confidence must be a number in \[0, 1\]/],
    [{ ...ok, confidence: Number.NaN }, /confidence must be a number/],
    ['buy', /returned string, not a Signal/],
    [Promise.resolve(ok), /returned a Promise: analyse must return the Signal itself/],
  ])('names the breach of %o', (value, message) => {
    expect(contractBreach(value, 'mine', 'BTCUSDT')).toMatch(message);
  });
});

describe('ResampleCache', () => {
  it('gives, cycle after cycle on a sliding window, exactly what resampling that window gives', () => {
    const window = new BarWindow(40);
    const fresh = (n: number) => {
      window.push({ time: n * MIN, open: n, high: n + 2, low: n - 2, close: n + 1, volume: n });
      return marketSnapshot([1], { bars: window.view() });
    };
    for (let n = 0; n < 200; n++) {
      const snap = fresh(n);
      const cached = new ResampleCache(MIN).get(snap, 5 * MIN);
      const direct = resample(snap.bars, MIN, 5 * MIN);
      expect({ n, bars: toRows(cached) }).toEqual({ n, bars: toRows(direct) });
    }
  });
});

function toRows(b: Bars) {
  return Array.from({ length: b.length }, (_, i) => [
    b.time[i],
    b.open[i],
    b.high[i],
    b.low[i],
    b.close[i],
    b.volume[i],
  ]);
}
