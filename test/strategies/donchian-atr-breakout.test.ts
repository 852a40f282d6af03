// donchian_atr_breakout on crafted series: long when the close breaks above the previous bars'
// channel, short below it (perpetuals only), nothing inside it; a held position exits when the close
// falls through the ATR trailing stop (highest high since entry − stopAtr × ATR), not before;
// parameters validated and declared.
import { describe, expect, it } from 'vitest';
import {
  createDonchianAtrBreakout,
  DEFAULT_DONCHIAN_ATR_BREAKOUT_PARAMS,
  DONCHIAN_ATR_BREAKOUT,
} from '../../src/strategies/donchian-atr-breakout.js';
import { barsFromRows, testSnapshot } from '../../src/strategies/public.js';
import type { Bar, Bars, Signal, StrategyAgent } from '../../src/strategies/public.js';
import { PERP, SPOT } from './snapshot.js';

/** Bars with a fixed high–low range of 2 around each close, one minute apart. */
const rows = (closes: number[]): Bar[] =>
  closes.map((c, i) => ({ time: i * 60_000, open: c, high: c + 1, low: c - 1, close: c, volume: 1 }));

/** Runs the agent bar by bar (the feed's window of 60), with `position(i)` held before bar i; returns the signals. */
function run(agent: StrategyAgent, bars: Bar[], position: (i: number) => number = () => 0, instrument = PERP) {
  const out: (Signal | null)[] = [];
  for (let i = 1; i <= bars.length; i++) {
    const window: Bars = barsFromRows(bars.slice(Math.max(0, i - 60), i));
    out.push(agent.analyse(testSnapshot(window, { position: position(i - 1) }), instrument));
  }
  return out;
}

const FLAT = Array.from({ length: 30 }, (_, i) => 100 + (i % 2)); // 100/101: channel 99..102
const small = () => createDonchianAtrBreakout({ channel: 10, atrPeriod: 5, stopAtr: 2, timeframe: '1m' });

describe('donchian_atr_breakout', () => {
  it('has the documented name, defaults, declared parameters and a lookback that covers the ATR warm-up', () => {
    expect(DEFAULT_DONCHIAN_ATR_BREAKOUT_PARAMS).toEqual({
      channel: 20,
      atrPeriod: 14,
      stopAtr: 3,
      timeframe: '5m',
      confidence: 0.5,
    });
    const agent = createDonchianAtrBreakout();
    expect(agent).toMatchObject({ name: DONCHIAN_ATR_BREAKOUT, timeframe: '5m' });
    expect(agent.parameters).toEqual(Object.keys(DEFAULT_DONCHIAN_ATR_BREAKOUT_PARAMS));
    // ATR(14) needs 14 + 1 bars and 187 more for its seed to fade below a millionth; one more for prev.
    expect(agent.lookback).toBe(14 + 1 + 187 + 1);
  });

  it('says nothing inside the channel, goes long on a close above the previous 10 bars’ high', () => {
    const signals = run(small(), rows([...FLAT, 103]));
    expect(signals.slice(0, 30).every((s) => s === null)).toBe(true);
    expect(signals[30]).toMatchObject({
      agent: DONCHIAN_ATR_BREAKOUT,
      symbol: 'BTCUSDT',
      direction: 1,
      confidence: 0.5,
    });
    expect(signals[30]!.rationale).toMatch(/above the 10-bar high 102/);
  });

  it('a close at the channel’s edge is no breakout', () => {
    expect(run(small(), rows([...FLAT, 101])).at(-1)).toBeNull(); // high 102 = the channel's: not above
  });

  it('goes short below the previous low on a perpetual, never on spot', () => {
    expect(run(small(), rows([...FLAT, 97])).at(-1)).toMatchObject({ direction: -1, confidence: 0.5 });
    expect(run(small(), rows([...FLAT, 97]), () => 0, SPOT).at(-1)).toBeNull();
  });

  it('holds a long while the close stays above the ATR trailing stop, exits once it falls through', () => {
    // Breakout at bar 30, filled: long from bar 31. Rises to 110, then falls back.
    const closes = [...FLAT, 103, 105, 108, 110, 109, 108, 107, 106, 104];
    const signals = run(small(), rows(closes), (i) => (i >= 31 ? 1 : 0));
    // ATR(5) of bars with range 2 and steps ≤ 3 stays about 2–3.5: the stop trails 111 − 2 × ATR.
    const exits = signals.map((s, i) => (s?.direction === 0 ? i : -1)).filter((i) => i >= 0);
    expect(exits.length).toBeGreaterThan(0);
    const first = exits[0]!;
    expect(closes[first]).toBeLessThan(108); // not on the first dip (109, 108)
    expect(signals[first]).toMatchObject({ direction: 0, confidence: 1 });
    expect(signals[first]!.rationale).toMatch(/below the ATR stop [\d.]+ \(highest high 111 − 2 × ATR/);
    expect(signals.slice(31, first).every((s) => s === null || s.direction === 1)).toBe(true);
  });

  it('trails a short from its lowest low and exits above it', () => {
    const closes = [...FLAT, 97, 95, 92, 90, 91, 92, 93, 94, 96];
    const signals = run(small(), rows(closes), (i) => (i >= 31 ? -1 : 0));
    const exit = signals.findIndex((s, i) => i > 30 && s?.direction === 0);
    expect(exit).toBeGreaterThan(34);
    expect(signals[exit]!.rationale).toMatch(/above the ATR stop [\d.]+ \(lowest low 89 \+ 2 × ATR/);
  });

  it('refuses bad parameters, naming them', () => {
    expect(() => createDonchianAtrBreakout({ channel: 1 })).toThrow(/"channel" must be a whole number ≥ 2/);
    expect(() => createDonchianAtrBreakout({ stopAtr: 0 })).toThrow(/"stopAtr" must be > 0/);
    expect(() => createDonchianAtrBreakout({ confidence: 2 })).toThrow(/"confidence" must be in \(0, 1\]/);
    expect(() => createDonchianAtrBreakout({ timeframe: '' })).toThrow(/"timeframe"/);
    expect(() => createDonchianAtrBreakout({ chanel: 5 } as never)).toThrow(/did you mean channel/);
  });
});

describe('donchian_atr_breakout over a long series', () => {
  it('gives the same signals whatever history came before, once its lookback is filled (no recursive bias)', () => {
    let x = 100;
    let seed = 3;
    const closes = Array.from({ length: 1_400 }, () => {
      seed = (seed * 16807) % 2147483647;
      return (x *= 1 + (seed / 2147483647 - 0.5) * 0.04);
    });
    const bars = closes.map((c, i) => ({
      time: i * 60_000,
      open: c,
      high: c * 1.005,
      low: c * 0.995,
      close: c,
      volume: 1,
    }));
    // Holding long on every third stretch of 40 bars, short on another: exercises both trails.
    const position = (i: number) => [0, 1, -1][Math.floor(i / 40) % 3]!;
    const params = { timeframe: '1m', stopAtr: 1, channel: 5 };
    const lookback = createDonchianAtrBreakout(params).lookback!;
    const runFrom = (start: number) => {
      const agent = createDonchianAtrBreakout(params);
      const out: (Signal | null)[] = [];
      for (let end = start + lookback; end <= bars.length; end++) {
        const window = barsFromRows(bars.slice(end - lookback, end));
        out.push(agent.analyse(testSnapshot(window, { position: position(end - 1) }), PERP));
      }
      return out;
    };
    const early = runFrom(0);
    const late = runFrom(400);
    // Compare from the late run's first bar on which both are flat (both trails start together).
    const offset = 400;
    let from = 0;
    while (position(offset + lookback + from - 1) !== 0) from++;
    const a = early.slice(offset + from);
    const b = late.slice(from);
    expect(a.length).toBeGreaterThan(500);
    expect(a.some((s) => s?.direction === 0)).toBe(true); // a stop was hit
    expect(a.some((s) => s !== null && s.direction !== 0)).toBe(true); // and a breakout seen
    expect(b).toEqual(a);
  });
});
