// trackIndicators: each closed bar is fed once per symbol (never the window again), a repeated bar
// changes nothing, bars missed between calls are caught up, a lost thread starts afresh from the last
// `lookback` bars, bad bars are skipped, symbols are independent, and after `lookback` bars the values
// no longer depend on how much history came first.
import { describe, expect, it } from 'vitest';
import {
  barsFromCloses,
  barsFromRows,
  SEED_WEIGHT,
  ta,
  testSnapshot,
  trackIndicators,
} from '../../src/strategies/public.js';
import type { Bars, IndicatorSpec } from '../../src/strategies/public.js';

function window(bars: Bars, from: number, to: number): Bars {
  return {
    length: to - from,
    time: bars.time.subarray(from, to),
    open: bars.open.subarray(from, to),
    high: bars.high.subarray(from, to),
    low: bars.low.subarray(from, to),
    close: bars.close.subarray(from, to),
    volume: bars.volume.subarray(from, to),
  };
}

/** A deterministic wandering series of `n` closes. */
function walk(n: number, seed = 7): number[] {
  const out: number[] = [];
  let x = 100;
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 16807) % 2147483647;
    x *= 1 + (s / 2147483647 - 0.5) * 0.02;
    out.push(x);
  }
  return out;
}

/** Counts the bars fed to it and reports the last close it saw: a spec written the way ta's are. */
function probe(): IndicatorSpec<number> & { fed: number[] } {
  const fed: number[] = [];
  return { label: 'probe', warmup: 1, fed, open: () => (bars, i) => (fed.push(bars.time[i]!), bars.close[i]!) };
}

const W = 50; // the feed's window, in bars
const BARS = barsFromCloses(walk(400));
const at = (end: number, symbol = 'BTCUSDT', bars = BARS) =>
  testSnapshot(window(bars, Math.max(0, end - W), end), { symbol });

describe('trackIndicators', () => {
  it('feeds each closed bar once: a sliding window costs one update per new bar, not a pass over it', () => {
    const p = probe();
    const t = trackIndicators({ p });
    for (let end = W; end <= 120; end++) t.update(at(end));
    // The first call feeds the last `lookback` (2) bars, then one bar per call.
    expect(p.fed).toEqual(Array.from({ length: 120 - W + 2 }, (_, k) => (W - 2 + k) * 60_000));
  });

  it('returns the same readings, feeding nothing, when the last bar is the one already seen', () => {
    const p = probe();
    const t = trackIndicators({ p });
    const first = t.update(at(80));
    const again = t.update(at(80));
    expect(again).toBe(first);
    expect(p.fed).toHaveLength(2);
  });

  it('starts afresh when the bar under the last time seen is not the one it saw (a corrected candle, another test series)', () => {
    const t = trackIndicators({ sma: ta.sma(2) });
    expect(t.update(testSnapshot(barsFromCloses([1, 2, 3])))?.now.sma).toBe(2.5);
    expect(t.update(testSnapshot(barsFromCloses([1, 2, 5])))?.now.sma).toBe(3.5);
    expect(t.update(testSnapshot(barsFromCloses([1, 4, 5, 6])))?.now.sma).toBe(5.5);
  });

  it('reads the declared timeframe candles (snapshot.higher) when the snapshot has them', () => {
    const t = trackIndicators({ p: probe() });
    const higher = barsFromCloses([1, 2, 3], 900_000);
    const r = t.update(testSnapshot(window(BARS, 0, 10), { higher }));
    expect(r?.now.p).toBe(3);
    expect(r?.time).toBe(1_800_000);
  });

  it('gives now and prev: the values after the last bar and after the one before', () => {
    const t = trackIndicators({ ema: ta.ema(3) });
    t.update(at(60));
    const r = t.update(at(61))!;
    const a = 2 / 4;
    expect(r.now.ema).toBeCloseTo(a * BARS.close[60]! + (1 - a) * r.prev!.ema, 12);
    expect(r.time).toBe(60 * 60_000);
  });

  it('catches up the bars of cycles it was not called for, as if called every cycle', () => {
    const every = trackIndicators({ atr: ta.atr(5), bb: ta.bollinger(5) });
    const sometimes = trackIndicators({ atr: ta.atr(5), bb: ta.bollinger(5) });
    let last = null;
    for (let end = W; end <= 200; end++) {
      last = every.update(at(end));
      if (end % 7 === 0 || end === W) sometimes.update(at(end));
    }
    expect(sometimes.update(at(200))).toEqual(last);
  });

  it('starts afresh from the last lookback bars when the last bar seen has left the window, or time goes back', () => {
    const p = probe();
    const t = trackIndicators({ p });
    t.update(at(60));
    p.fed.length = 0;
    t.update(at(60 + W + 5)); // bar 59 is gone: the window is bars 65..114
    expect(p.fed).toEqual([113 * 60_000, 114 * 60_000]);
    p.fed.length = 0;
    t.update(at(70)); // an earlier bar: a new run handed to the same agent
    expect(p.fed).toEqual([68 * 60_000, 69 * 60_000]);
  });

  it('skips a bar whose high, low or close is not a number, and a bar missing from the data, inventing nothing', () => {
    const rows = [10, 11, 12, 13, 14, 15].map((c, i) => ({
      time: i * 60_000,
      open: c,
      high: c,
      low: c,
      close: c,
      volume: 1,
    }));
    rows[3]!.close = Number.NaN;
    const t = trackIndicators({ sma: ta.sma(3) });
    const bars = barsFromRows(rows);
    let r = null;
    for (let n = 1; n <= bars.length; n++) r = t.update(testSnapshot(window(bars, 0, n)));
    expect(r?.now.sma).toBe((12 + 14 + 15) / 3); // the NaN bar is not an input
    const gap = barsFromRows(
      rows
        .filter((_, i) => i !== 3)
        .map((row, i) => ({ ...row, close: 10 + i, time: i < 3 ? row.time : row.time + 60_000 })),
    );
    const g = trackIndicators({ sma: ta.sma(3) });
    for (let n = 1; n <= gap.length; n++) r = g.update(testSnapshot(window(gap, 0, n)));
    expect(r?.now.sma).toBe((12 + 13 + 14) / 3); // the bar after a missing minute is the next input
  });

  it('keeps each symbol apart', () => {
    const other = barsFromCloses(walk(400, 99));
    const both = trackIndicators({ rsi: ta.rsi(14) });
    const alone = trackIndicators({ rsi: ta.rsi(14) });
    for (let end = W; end <= 150; end++) {
      both.update(at(end, 'BTCUSDT'));
      both.update(at(end, 'ETHUSDT', other));
      alone.update(at(end, 'ETHUSDT', other));
    }
    expect(both.update(at(150, 'ETHUSDT', other))).toEqual(alone.update(at(150, 'ETHUSDT', other)));
  });

  it('is null until every declared indicator has a value', () => {
    const t = trackIndicators({ fast: ta.sma(2), slow: ta.sma(10) });
    const short = barsFromCloses([1, 2, 3, 4, 5]);
    expect(t.update(testSnapshot(short))).toBeNull();
  });

  it('after lookback bars, values agree to SEED_WEIGHT however much history came first (no recursive bias)', () => {
    const specs = { ema: ta.ema(20), rsi: ta.rsi(14), atr: ta.atr(14), macd: ta.macd(12, 26, 9) };
    const long = barsFromCloses(walk(2_000));
    const probeT = trackIndicators(specs);
    const L = probeT.lookback;
    expect(L).toBe(specs.macd.warmup + 1);
    // One run starts at bar 0 (window L), another 300 bars later: compare the same late bar.
    const early = trackIndicators(specs);
    const late = trackIndicators(specs);
    const snap = (end: number) => testSnapshot(window(long, Math.max(0, end - L), end));
    let a = null;
    for (let end = L; end <= 1_500; end++) a = early.update(snap(end));
    let b = null;
    for (let end = L + 300; end <= 1_500; end++) b = late.update(snap(end));
    expect(a).not.toBeNull();
    const range = 200; // closes wander within 0..200
    expect(Math.abs(a!.now.ema - b!.now.ema)).toBeLessThan(SEED_WEIGHT * range);
    expect(Math.abs(a!.now.rsi - b!.now.rsi)).toBeLessThan(SEED_WEIGHT * 100);
    expect(Math.abs(a!.now.atr - b!.now.atr)).toBeLessThan(SEED_WEIGHT * range);
    expect(Math.abs(a!.now.macd.signal - b!.now.macd.signal)).toBeLessThan(SEED_WEIGHT * range);
    // With too little warm-up they do differ: the bias the lookback is sized against.
    const cold = trackIndicators({ ema: ta.ema(20) });
    const c = cold.update(testSnapshot(window(long, 1_500 - 25, 1_500)));
    expect(Math.abs(c!.now.ema - a!.now.ema)).toBeGreaterThan(SEED_WEIGHT * range);
  });

  it('refuses a declaration that is not an indicator, naming it', () => {
    expect(() => trackIndicators({})).toThrow(/at least one indicator/);
    expect(() => trackIndicators({ fast: 10 as unknown as IndicatorSpec<number> })).toThrow(
      /"fast" is not an indicator/,
    );
  });
});
