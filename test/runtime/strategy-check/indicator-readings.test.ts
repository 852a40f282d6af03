/**
 * The indicator half of the recursion check, on hand-made readings: a band's lines are kept one by
 * one and a second tracker's names are told apart, a bar is kept once however many cycles read it,
 * and values are equal within the tolerance times the range the indicator spanned in the full run
 * (so a value near 0, a MACD histogram, is judged on its own scale, not its size).
 */
import { describe, expect, it } from 'vitest';
import type { Reading } from '../../../src/runtime/strategy-check/indicator-readings.js';
import { firstIndicatorDifference, readTrackers } from '../../../src/runtime/strategy-check/indicator-readings.js';
import type { TrackerView } from '../../../src/strategies/indicators/observer.js';

/** A tracker view whose readings are set by the test. */
function view(labels: Record<string, string>) {
  let now: Record<string, unknown> | null = null;
  let time = 0;
  const v: TrackerView = {
    labels,
    readings: () => (now === null ? null : ({ now, prev: null, time } as never)),
  };
  return { v, set: (values: Record<string, unknown> | null, at: number) => ((now = values), (time = at)) };
}

const reading = (cycle: number, time: number, value: number, indicator = 'ema'): Reading => ({
  cycle,
  symbol: 'BTCUSDT',
  indicator,
  label: 'ema(10)',
  time,
  value,
});

describe('readTrackers', () => {
  it('keeps each line of a band, prefixes a second tracker, and a bar once however many cycles read it', () => {
    const a = view({ band: 'bollinger(20, 2)' });
    const b = view({ band: 'donchian(10)' });
    const into: Reading[] = [];
    const last = new Map<string, number>();
    a.set({ band: { upper: 3, middle: 2, lower: 1 } }, 60_000);
    b.set(null, 0); // still warming up: nothing kept
    readTrackers([a.v, b.v], ['BTCUSDT'], 0, into, last);
    readTrackers([a.v, b.v], ['BTCUSDT'], 1, into, last); // the same bar again (a coarser timeframe)
    b.set({ band: { upper: 9, middle: 8, lower: 7 } }, 60_000);
    readTrackers([a.v, b.v], ['BTCUSDT'], 2, into, last);
    expect(into.map((r) => `${r.cycle} ${r.indicator} ${r.label} ${r.value}`)).toEqual([
      '0 band.upper bollinger(20, 2) 3',
      '0 band.middle bollinger(20, 2) 2',
      '0 band.lower bollinger(20, 2) 1',
      '2 #2 band.upper donchian(10) 9',
      '2 #2 band.middle donchian(10) 8',
      '2 #2 band.lower donchian(10) 7',
    ]);
  });
});

describe('firstIndicatorDifference', () => {
  // The full run's values span 10 (from 100 to 110).
  const full = [reading(0, 0, 100), reading(1, 60_000, 110), reading(2, 120_000, 105)];

  it('takes values within tolerance × the range as equal, and flags the earliest beyond it', () => {
    expect(firstIndicatorDifference(full, [reading(1, 60_000, 110.0009)], 1e-4)).toBeNull();
    const other = [reading(2, 120_000, 105.01), reading(1, 60_000, 110.002)];
    expect(firstIndicatorDifference(full, other, 1e-4)).toMatchObject({ cycle: 1, time: 60_000, a: 110, b: 110.002 });
  });

  it('compares only bars both runs read, per indicator', () => {
    expect(firstIndicatorDifference(full, [reading(3, 180_000, 1), reading(1, 60_000, 1, 'other')], 1e-4)).toBeNull();
  });

  it('judges a series near 0 on its own range, not its size', () => {
    const hist = [reading(0, 0, -0.002, 'h'), reading(1, 60_000, 0.002, 'h')];
    // 1e-6 off a value of 0.002 is 5e-4 of it, but 2.5e-4 of the range: flagged at 1e-4, not at 1e-3.
    expect(firstIndicatorDifference(hist, [reading(1, 60_000, 0.002001, 'h')], 1e-4)).not.toBeNull();
    expect(firstIndicatorDifference(hist, [reading(1, 60_000, 0.002001, 'h')], 1e-3)).toBeNull();
    // A flat series has no range: its size is the scale.
    const flat = [reading(0, 0, 50, 'f'), reading(1, 60_000, 50, 'f')];
    expect(firstIndicatorDifference(flat, [reading(1, 60_000, 50.001, 'f')], 1e-4)).toBeNull();
    expect(firstIndicatorDifference(flat, [reading(1, 60_000, 50.01, 'f')], 1e-4)).not.toBeNull();
  });
});
