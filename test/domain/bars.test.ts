// Candles as strategies read them: the bar window hands out views of its memory (no copies), in
// order, the newest last; resampling builds only completed higher-timeframe bars, aligned to UTC
// multiples, and drops a first bucket the window begins inside of.
import { describe, expect, it } from 'vitest';
import { BarWindow, barsFromRows, baseBarsFor, resample } from '../../src/domain/bars.js';
import type { Bar } from '../../src/domain/bars.js';

const MIN = 60_000;
const bar = (i: number, close = 100 + i): Bar => ({
  time: i * MIN,
  open: close - 1,
  high: close + 2,
  low: close - 3,
  close,
  volume: i + 1,
});

describe('BarWindow', () => {
  it('keeps the newest `capacity` bars in order, as views of its own memory', () => {
    const w = new BarWindow(3);
    expect(w.view().length).toBe(0);
    for (let i = 0; i < 7; i++) w.push(bar(i));
    const v = w.view();
    expect(v.length).toBe(3);
    expect(Array.from(v.close)).toEqual([104, 105, 106]);
    expect(Array.from(v.time)).toEqual([4 * MIN, 5 * MIN, 6 * MIN]);
    expect(w.last()).toEqual(bar(6));
    // A view shares the window's buffer: no copy was made.
    expect(v.close.buffer).toBe(w.view().close.buffer);
    w.push(bar(7));
    expect(Array.from(w.view().close)).toEqual([105, 106, 107]);
  });

  it('refuses a window of no bars', () => {
    expect(() => new BarWindow(0)).toThrow(/at least one bar/);
  });
});

describe('resample', () => {
  const base = barsFromRows(Array.from({ length: 12 }, (_, i) => bar(i)));

  it('aggregates completed buckets: first open, highest high, lowest low, last close, summed volume', () => {
    const five = resample(base, MIN, 5 * MIN);
    // Bars 0–4 and 5–9 are complete; 10–11 are still forming and left out.
    expect(five.length).toBe(2);
    expect(Array.from(five.time)).toEqual([0, 5 * MIN]);
    expect(Array.from(five.open)).toEqual([99, 104]);
    expect(Array.from(five.high)).toEqual([106, 111]);
    expect(Array.from(five.low)).toEqual([97, 102]);
    expect(Array.from(five.close)).toEqual([104, 109]);
    expect(Array.from(five.volume)).toEqual([15, 40]);
  });

  it('leaves out a first bucket the window begins inside of', () => {
    const late = barsFromRows(Array.from({ length: 8 }, (_, i) => bar(i + 2)));
    // Bars 2–9: the 0–4 bucket lacks its opening bars; 5–9 is whole.
    const five = resample(late, MIN, 5 * MIN);
    expect(Array.from(five.time)).toEqual([5 * MIN]);
  });

  it('returns the base itself for the base timeframe, and refuses a timeframe that is not a multiple', () => {
    expect(resample(base, MIN, MIN)).toBe(base);
    expect(() => resample(base, 2 * MIN, 3 * MIN)).toThrow(/not a whole number/);
  });

  it('asks for enough base bars that `lookback` completed bars exist whatever the alignment', () => {
    expect(baseBarsFor(4, MIN, MIN)).toBe(4);
    const need = baseBarsFor(3, MIN, 5 * MIN);
    expect(need).toBe(19);
    for (let offset = 0; offset < 5; offset++) {
      const window = barsFromRows(Array.from({ length: need }, (_, i) => bar(i + offset)));
      expect(resample(window, MIN, 5 * MIN).length).toBeGreaterThanOrEqual(3);
    }
  });
});
