/**
 * The console's refresh coalescer (console/lib/throttle.ts): a burst of stream events costs one
 * request in flight and at most one after it, and two runs never overlap (an older read landing after
 * a newer one would put a stale account on screen).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalesce } from '../../console/lib/throttle.js';

describe('console refresh coalescer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => vi.useRealTimers());

  function slowRun(ms: number) {
    const stats = { runs: 0, inFlight: 0, maxInFlight: 0 };
    const run = async () => {
      stats.runs += 1;
      stats.inFlight += 1;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      await new Promise((resolve) => setTimeout(resolve, ms));
      stats.inFlight -= 1;
    };
    return { stats, run };
  }

  it('a burst is one run now and one after it', async () => {
    const { stats, run } = slowRun(50);
    const poke = coalesce(run, 500);
    for (let i = 0; i < 20; i++) poke();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(stats.runs).toBe(2);
    expect(stats.maxInFlight).toBe(1);
  });

  it("a poke between a slow run's end and its follow-up timer does not start a second run beside it", async () => {
    // Found in review: the follow-up timer started a run without asking whether one was in flight.
    let finish = () => {};
    const stats = { runs: 0, inFlight: 0, maxInFlight: 0 };
    const run = async () => {
      stats.runs += 1;
      stats.inFlight += 1;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      await new Promise<void>((resolve) => (finish = resolve));
      stats.inFlight -= 1;
    };
    const poke = coalesce(run, 500);
    poke(); // a run starts
    poke(); // another is wanted after it
    await vi.advanceTimersByTimeAsync(700); // the run is slower than the gap
    finish(); // it ends: a follow-up is scheduled (the gap has passed)
    for (let i = 0; i < 5; i++) await Promise.resolve();
    poke(); // before the follow-up fires: this one starts a run at once
    await vi.advanceTimersByTimeAsync(10); // the follow-up's timer fires while that run is in flight
    expect(stats.maxInFlight).toBe(1);
    finish();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(stats.maxInFlight).toBe(1);
  });
});
