/**
 * Helpers for optimistic compare-and-set writes: a bounded retry loop with tiny random jitter (so
 * two processes that collided do not collide again in lockstep), and an in-process mutex so that
 * writers sharing one connection queue up instead of racing each other through the CAS, which
 * leaves retries for the rare collision with another process.
 */

export const MAX_CAS_ATTEMPTS = 50;

export class CasExhaustedError extends Error {
  constructor(what: string, attempts: number) {
    super(`${what}: gave up after ${attempts} attempts because other writers kept changing the data; try again`);
    this.name = 'CasExhaustedError';
  }
}

/** A short random pause that grows a little with the attempt number (at most ~25 ms). */
export function jitter(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(25, 1 + attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Calls `attempt(n)` until it returns a value other than `undefined` (undefined means "the CAS
 * lost, try again"), pausing with jitter in between; throws CasExhaustedError after `max` tries.
 */
export async function retryCas<T>(
  what: string,
  attempt: (n: number) => Promise<T | undefined>,
  max = MAX_CAS_ATTEMPTS,
): Promise<T> {
  for (let n = 0; n < max; n++) {
    const result = await attempt(n);
    if (result !== undefined) return result;
    await jitter(n);
  }
  throw new CasExhaustedError(what, max);
}

/** Runs tasks one at a time, in call order; a failing task does not block the ones after it. */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
