/**
 * Wall-clock steps seen by comparing the wall clock with the monotonic one between looks
 * (src/application/clock-steps.ts), on an injected clock whose two readings the test moves apart.
 */
import { describe, expect, it } from 'vitest';
import { STEP_THRESHOLD_MS, watchClockSteps } from '../../src/application/clock-steps.js';
import type { ClockStep } from '../../src/application/clock-steps.js';

describe('clock steps', () => {
  it('time passing on both clocks, and drift under the threshold, is no step', () => {
    const time = { wall: 1_000_000, mono: 0 };
    const seen: ClockStep[] = [];
    const watch = watchClockSteps({ now: () => time.wall, monotonic: () => time.mono }, (s) => seen.push(s));
    time.wall += 60_000;
    time.mono += 60_000;
    expect(watch.look()).toBeNull();
    time.wall += 250 + STEP_THRESHOLD_MS - 1;
    time.mono += 250;
    expect(watch.look()).toBeNull();
    expect(seen).toEqual([]);
    expect(watch.last()).toBeNull();
  });

  it('a step back and a step forward are each reported once, with their size and the wall time after', () => {
    const time = { wall: 10_000_000, mono: 0 };
    const seen: ClockStep[] = [];
    const watch = watchClockSteps({ now: () => time.wall, monotonic: () => time.mono }, (s) => seen.push(s));
    time.mono += 250;
    time.wall += 250 - 3_600_000;
    expect(watch.look()).toEqual({ stepMs: -3_600_000, at: time.wall });
    time.mono += 250;
    time.wall += 250;
    expect(watch.look()).toBeNull(); // the same step is not seen again
    time.mono += 250;
    time.wall += 250 + 7_200_000;
    expect(watch.look()).toMatchObject({ stepMs: 7_200_000 });
    expect(seen.map((s) => s.stepMs)).toEqual([-3_600_000, 7_200_000]);
    expect(watch.last()).toMatchObject({ stepMs: 7_200_000 });
  });

  it('a clock without a monotonic reading (a simulated clock) never steps', () => {
    let now = 0;
    const watch = watchClockSteps({ now: () => now }, () => {});
    now += 10 * 3_600_000;
    expect(watch.look()).toBeNull();
  });
});
