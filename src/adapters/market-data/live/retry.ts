/**
 * Retrying a public request: network errors, timeouts and rate-limit answers (429/418, which ccxt
 * raises as NetworkError subclasses) are retried with exponential backoff and full jitter, never
 * sooner than the exchange's Retry-After, and never past a deadline, so a caller with a cycle to
 * run always gets an answer or an error in bounded time. Anything else (a bad symbol, a malformed
 * answer) is not retried: repeating it would only repeat the error.
 */

export interface RetryPolicy {
  /** First backoff, ms; doubles each attempt. */
  baseMs: number;
  /** Largest single backoff, ms. */
  maxMs: number;
  /** Give up (rethrow) when the next attempt could not start before this epoch ms. */
  deadline: number;
  /** Most attempts in all. */
  attempts: number;
}

export interface RetryHooks {
  /** Whether the error is worth another try. */
  retryable(err: unknown): boolean;
  /** The exchange's Retry-After for this error, ms, when it gave one. */
  retryAfterMs?(err: unknown): number | null;
  /** Told of each retry (for logs and counters). */
  onRetry?(err: unknown, attempt: number, waitMs: number): void;
  /** True once the caller closed: no further attempt or wait (the last error, or a "closed" one, is thrown). */
  aborted?(): boolean;
  random?: () => number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait before attempt `attempt + 1` (attempt counts from 1): full jitter over the exponential step. */
export function backoffMs(attempt: number, policy: Pick<RetryPolicy, 'baseMs' | 'maxMs'>, random: number): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
  // Half fixed, half random: never a zero wait in a burst, yet callers in step spread out.
  return Math.round(ceiling / 2 + (random * ceiling) / 2);
}

export async function withRetry<T>(run: () => Promise<T>, policy: RetryPolicy, hooks: RetryHooks): Promise<T> {
  const now = hooks.now ?? Date.now;
  const sleep = hooks.sleep ?? defaultSleep;
  const random = hooks.random ?? Math.random;
  for (let attempt = 1; ; attempt++) {
    if (hooks.aborted?.()) throw new Error('closed: request not sent');
    try {
      return await run();
    } catch (err) {
      if (attempt >= policy.attempts || !hooks.retryable(err) || hooks.aborted?.()) throw err;
      const wait = Math.max(backoffMs(attempt, policy, random()), hooks.retryAfterMs?.(err) ?? 0);
      if (now() + wait >= policy.deadline) throw err;
      hooks.onRetry?.(err, attempt, wait);
      await sleep(wait);
      if (hooks.aborted?.()) throw err;
    }
  }
}
