// The report's bounded series: extremes survive any number of merges, sizes stay bounded, order holds.
import { describe, expect, it } from 'vitest';
import { MinMaxSeries, RingBuffer } from '../../../src/domain/performance/downsample.js';

describe('MinMaxSeries', () => {
  it('keeps a one-point spike and a one-point trough among 100,000 points, in time order', () => {
    const series = new MinMaxSeries(2_000);
    for (let i = 0; i < 100_000; i++) {
      const v = i === 54_321 ? 500 : i === 77_777 ? -500 : Math.sin(i / 1000);
      series.add(i * 60_000, v);
    }
    const points = series.points();
    expect(points.length).toBeLessThanOrEqual(2_000);
    expect(points.length).toBeGreaterThan(1_000);
    expect(points).toContainEqual({ t: 54_321 * 60_000, v: 500 });
    expect(points).toContainEqual({ t: 77_777 * 60_000, v: -500 });
    expect(points[points.length - 1]).toEqual({ t: 99_999 * 60_000, v: Math.sin(99.999) });
    for (let i = 1; i < points.length; i++) expect(points[i]!.t).toBeGreaterThan(points[i - 1]!.t);
  });

  it('returns every point while there are few', () => {
    const series = new MinMaxSeries(2_000);
    [3, 1, 2].forEach((v, i) => series.add(i, v));
    expect(series.points()).toEqual([
      { t: 0, v: 3 },
      { t: 1, v: 1 },
      { t: 2, v: 2 },
    ]);
  });
});

describe('RingBuffer', () => {
  it('keeps the last items, oldest first', () => {
    const ring = new RingBuffer<number>(3);
    for (let i = 1; i <= 7; i++) ring.add(i);
    expect(ring.values()).toEqual([5, 6, 7]);
  });
});
