/**
 * The coalescer behind the machines document: a burst of pokes is a bounded number of runs, the
 * last state always lands (a run reads the state when it runs), runs never overlap, and a failed run
 * is retried. Fake timers, so the interval is exact and the test does not wait.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCoalescer } from '../../src/application/coalescer.js';

describe('createCoalescer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function harness(options: { fail?: () => boolean; slowMs?: number } = {}) {
    let state = 0;
    const written: number[] = [];
    const outcomes: unknown[] = [];
    let inFlight = 0;
    let overlapped = false;
    const coalescer = createCoalescer({
      intervalMs: 100,
      retryMs: 1_000,
      async run() {
        inFlight++;
        overlapped ||= inFlight > 1;
        const seen = state;
        if (options.slowMs) await new Promise((r) => setTimeout(r, options.slowMs));
        inFlight--;
        if (options.fail?.()) throw new Error('store down');
        written.push(seen);
      },
      settled: (err) => outcomes.push(err),
    });
    const transition = () => {
      state++;
      coalescer.poke();
    };
    return { coalescer, transition, written, outcomes, overlapped: () => overlapped, state: () => state };
  }

  it('a burst of 100 transitions is one write, of the last state', async () => {
    const h = harness();
    for (let i = 0; i < 100; i++) h.transition();
    expect(h.written).toEqual([]); // trailing edge: nothing before the interval
    await vi.advanceTimersByTimeAsync(100);
    expect(h.written).toEqual([100]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.written).toEqual([100]); // nothing new, nothing written
  });

  it('transitions spread over a second: at most one write per interval, and the last state lands', async () => {
    const h = harness();
    for (let i = 0; i < 100; i++) {
      h.transition();
      await vi.advanceTimersByTimeAsync(10); // 100 transitions over 1 s
    }
    await vi.advanceTimersByTimeAsync(100);
    expect(h.written.length).toBeGreaterThanOrEqual(9);
    expect(h.written.length).toBeLessThanOrEqual(11);
    expect(h.written.at(-1)).toBe(100);
  });

  it('a poke during a slow run gives one more run after it, never an overlapping one', async () => {
    const h = harness({ slowMs: 250 });
    h.transition();
    await vi.advanceTimersByTimeAsync(150); // the run started at 100 ms and is in flight
    for (let i = 0; i < 10; i++) h.transition();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(h.overlapped()).toBe(false);
    expect(h.written).toEqual([1, 11]);
  });

  it('a failed run is retried after retryMs, and reported each time', async () => {
    let failures = 2;
    const h = harness({ fail: () => failures-- > 0 });
    h.transition();
    await vi.advanceTimersByTimeAsync(100);
    expect(h.written).toEqual([]);
    expect(h.outcomes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(h.outcomes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_001);
    expect(h.written).toEqual([1]);
    expect(h.outcomes.map((o) => (o instanceof Error ? o.message : o))).toEqual([
      'store down',
      'store down',
      undefined,
    ]);
  });

  it('flush writes at once; after stop nothing runs', async () => {
    const h = harness();
    h.transition();
    await h.coalescer.flush();
    expect(h.written).toEqual([1]);
    h.coalescer.stop();
    h.transition();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.written).toEqual([1]);
  });
});
