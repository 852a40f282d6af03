/**
 * The supervisor's restart arithmetic on its own: the backoff doubles from its first delay to a
 * 30 s cap, the restart limits refuse a window the backoff alone would outlast, and the test-only
 * first backoff (which the launcher tests set to a few ms) is bounded and counted in that check.
 * The launcher tests prove the same policy with real processes.
 */
import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  FailureWindow,
  readRestartPolicy,
  TEST_FIRST_BACKOFF_ENV,
} from '../../src/runtime/restart-policy.js';

describe('restart policy', () => {
  it('backs off 0.5 s doubling to a 30 s cap, or from the first delay it is given', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffMs(n))).toEqual([
      500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 20))).toEqual([20, 40, 80, 160]);
  });

  it('defaults to 5 failures within 60 s after a first backoff of 0.5 s', () => {
    expect(readRestartPolicy({})).toEqual({ maxFailures: 5, windowMs: 60_000, firstBackoffMs: 500 });
  });

  it('refuses a window that the backoff between the failures alone would fill, with the first backoff it runs', () => {
    // 0.5 + 1 + 2 + 4 = 7.5 s between 5 failures: 7 s cannot hold them, 8 s can.
    expect(() => readRestartPolicy({ RESTART_WINDOW_SECONDS: '7' })).toThrow(/backoff between them alone takes 7.5 s/);
    expect(readRestartPolicy({ RESTART_WINDOW_SECONDS: '8' }).windowMs).toBe(8_000);
    // A smaller first backoff fills less of the window.
    expect(readRestartPolicy({ RESTART_WINDOW_SECONDS: '1', [TEST_FIRST_BACKOFF_ENV]: '20' })).toEqual({
      maxFailures: 5,
      windowMs: 1_000,
      firstBackoffMs: 20,
    });
  });

  it('takes the test-only first backoff as a whole number of ms between 1 and the 30 s cap', () => {
    expect(() => readRestartPolicy({ [TEST_FIRST_BACKOFF_ENV]: '0' })).toThrow(/between 1 and 30000/);
    expect(() => readRestartPolicy({ [TEST_FIRST_BACKOFF_ENV]: 'soon' })).toThrow(/whole number/);
  });

  it('counts only the failures within the window ending now', () => {
    const window = new FailureWindow(1_000);
    expect([0, 400, 900, 1_300, 2_500].map((t) => window.record(t))).toEqual([1, 2, 3, 3, 1]);
  });
});
