/**
 * When the supervisor restarts a child, and when it gives up. A crashed child restarts after a
 * backoff (0.5 s doubling to 30 s); a child that fails RESTART_MAX_FAILURES times within
 * RESTART_WINDOW_SECONDS stops everything instead: an unreachable store or a broken host does not
 * heal by restarting forever, and an operator should hear about it rather than find a loop.
 */
import { ConfigError, readInt } from './config.js';

export interface RestartPolicy {
  maxFailures: number;
  windowMs: number;
  /** The first restart's delay, doubling with each consecutive failure up to MAX_BACKOFF_MS. */
  firstBackoffMs: number;
}

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

/**
 * Test-only: the tests that watch a child fail five times set a first backoff of a few ms, so they
 * wait for the failures rather than for 7.5 s of backoff. Not an operator setting (not in
 * .env.example): the default is what runs in production.
 */
export const TEST_FIRST_BACKOFF_ENV = 'TCS_TEST_RESTART_BACKOFF_MS';

/** Delay before the restart that follows the n-th consecutive failure (n ≥ 1). */
export function backoffMs(consecutive: number, firstMs = FIRST_BACKOFF_MS): number {
  return Math.min(MAX_BACKOFF_MS, firstMs * 2 ** (consecutive - 1));
}

export function readRestartPolicy(env: NodeJS.ProcessEnv): RestartPolicy {
  const maxFailures = readInt(env, 'RESTART_MAX_FAILURES', 5, 1, 100);
  const windowSeconds = readInt(env, 'RESTART_WINDOW_SECONDS', 60, 1, 86_400);
  const firstBackoffMs = readInt(env, TEST_FIRST_BACKOFF_ENV, FIRST_BACKOFF_MS, 1, MAX_BACKOFF_MS);
  // A window shorter than the backoff between those failures could never fill: the child would
  // then restart forever, the very thing this limit exists to stop.
  let backoff = 0;
  for (let n = 1; n < maxFailures; n++) backoff += backoffMs(n, firstBackoffMs);
  if (backoff >= windowSeconds * 1000) {
    throw new ConfigError(
      `RESTART_WINDOW_SECONDS=${windowSeconds} cannot hold RESTART_MAX_FAILURES=${maxFailures} failures: the backoff ` +
        `between them alone takes ${backoff / 1000} s. Raise the window above that or lower the count.`,
    );
  }
  return { maxFailures, windowMs: windowSeconds * 1000, firstBackoffMs };
}

/** The failure times of one child, and how many of them fall within the window. */
export class FailureWindow {
  private times: number[] = [];
  constructor(private readonly windowMs: number) {}

  /** Records a failure at `now`; returns the number of failures within the window ending now. */
  record(now: number): number {
    this.times = [...this.times.filter((t) => now - t < this.windowMs), now];
    return this.times.length;
  }
}
