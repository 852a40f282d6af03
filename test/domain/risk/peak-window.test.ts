/**
 * The drawdown reference's window arithmetic (src/domain/risk/peak-window.ts), with time injected: a
 * NAV counts for at least the window and at most one bucket longer, a higher NAV replaces lower ones,
 * the deque stays bounded however NAV moves, and a reset forgets everything before it.
 */
import { describe, expect, it } from 'vitest';
import { bucketMsOf, observePeak, peakOf, resetPeaks } from '../../../src/domain/risk/peak-window.js';
import type { PeakEntry } from '../../../src/domain/risk/peak-window.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);

describe('peak NAV over a rolling window', () => {
  it('keeps minute maxima for a day-long window, a second at least for short ones', () => {
    expect(bucketMsOf(DAY)).toBe(MINUTE);
    expect(bucketMsOf(HOUR)).toBe(2_500);
    expect(bucketMsOf(MINUTE)).toBe(1_000);
  });

  it('holds a peak for the whole window and lets it go at most one bucket later', () => {
    const peaks: PeakEntry[] = [];
    observePeak(peaks, T0, 110, DAY);
    observePeak(peaks, T0 + HOUR, 99, DAY);
    expect(peakOf(peaks, T0 + HOUR, 99, DAY)).toBe(110);
    expect(peakOf(peaks, T0 + DAY - 1, 99, DAY)).toBe(110);
    // T0 is a bucket start: the 110 bucket [T0, T0 + 1 min) has left the window at T0 + 1 min + 1 day.
    expect(peakOf(peaks, T0 + DAY + MINUTE, 99, DAY)).toBe(99);
  });

  it('falls back to the highest NAV still in the window, not to the current one', () => {
    const peaks: PeakEntry[] = [];
    observePeak(peaks, T0, 120, DAY);
    observePeak(peaks, T0 + 6 * HOUR, 105, DAY);
    observePeak(peaks, T0 + 12 * HOUR, 100, DAY);
    expect(peakOf(peaks, T0 + 12 * HOUR, 100, DAY)).toBe(120);
    expect(peakOf(peaks, T0 + DAY + MINUTE, 100, DAY)).toBe(105);
    expect(peakOf(peaks, T0 + DAY + 6 * HOUR + MINUTE, 100, DAY)).toBe(100);
    // With nothing left in the window the current NAV is the reference: drawdown 0.
    expect(peakOf(peaks, T0 + 3 * DAY, 97, DAY)).toBe(97);
  });

  it('a new high replaces every lower NAV before it', () => {
    const peaks: PeakEntry[] = [];
    for (const [i, nav] of [100, 99, 98, 97].entries()) observePeak(peaks, T0 + i * MINUTE, nav, DAY);
    expect(peaks).toHaveLength(4);
    observePeak(peaks, T0 + 10 * MINUTE, 101, DAY);
    expect(peaks).toEqual([[T0 + 10 * MINUTE, 101]]);
  });

  it('keeps one entry per bucket: its highest NAV', () => {
    const peaks: PeakEntry[] = [];
    observePeak(peaks, T0 + 1_000, 100, DAY);
    observePeak(peaks, T0 + 20_000, 103, DAY);
    observePeak(peaks, T0 + 40_000, 101, DAY);
    expect(peaks).toEqual([[T0, 103]]);
  });

  it('stays bounded over a long falling market (one entry per bucket of the window, at most)', () => {
    const peaks: PeakEntry[] = [];
    let nav = 100_000;
    // A NAV observation every second for three days, always lower: the worst case for a monotonic deque.
    for (let t = 0; t < 3 * DAY; t += 1_000) observePeak(peaks, T0 + t, (nav -= 0.01), DAY);
    expect(peaks.length).toBeLessThanOrEqual(1_441);
    expect(peaks.length).toBeGreaterThan(1_400);
    expect(peakOf(peaks, T0 + 3 * DAY, nav, DAY)).toBeGreaterThan(nav);
  });

  it('a reset forgets what came before: the reference is the NAV at the reset', () => {
    const peaks = resetPeaks(T0 + HOUR, 95, DAY);
    expect(peakOf(peaks, T0 + HOUR, 95, DAY)).toBe(95);
    observePeak(peaks, T0 + 2 * HOUR, 97, DAY);
    expect(peakOf(peaks, T0 + 3 * HOUR, 96, DAY)).toBe(97);
  });
});
