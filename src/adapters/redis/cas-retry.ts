/**
 * Helpers for optimistic compare-and-set writes: a retry loop with a tiny random pause (so two
 * processes that collided do not collide again in lockstep), and an in-process mutex so that
 * writers sharing one connection queue up instead of racing each other through the CAS, which
 * leaves retries for the rare collision with another process.
 *
 * A lost CAS here means another writer extended the audit chain first: progress for someone, and the
 * refusal already carries the new head, so the retry is immediate but for the pause. There is no
 * attempt limit: an append must never be given up while the store answers (a cancel's audit entry
 * went missing when it was, after 50), and every attempt is a round trip that fails with the store
 * (its command deadline) when the store stops answering. A caller with a deadline of its own (a
 * control change) passes it, and gets ControlContentionError when it passes.
 */
import { ControlContentionError } from '../../ports/store-errors.js';

/** A short random pause that grows a little with the attempt number (at most 5 ms). */
function jitter(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(5, 1 + attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Calls `attempt(n)` until it returns a value other than `undefined` (undefined means "the CAS
 * lost, try again"), pausing with jitter in between; with `timeoutMs`, throws ControlContentionError
 * once that long has passed without success.
 */
export async function retryCas<T>(
  what: string,
  attempt: (n: number) => Promise<T | undefined>,
  timeoutMs?: number,
): Promise<T> {
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : performance.now() + timeoutMs; // monotonic: a clock step is no contention
  for (let n = 0; ; n++) {
    const result = await attempt(n);
    if (result !== undefined) return result;
    if (performance.now() >= deadline)
      throw new ControlContentionError(
        `${what}: other writers kept extending the audit trail for ${timeoutMs} ms; nothing was written, try again`,
      );
    await jitter(n);
  }
}

/**
 * Runs tasks one at a time, in call order; a failing task does not block the ones after it. A task
 * run `first` (a kill's control write) goes ahead of every task still waiting: it waits at most for
 * the one running, never for a queue of pauses and appends.
 */
export class Mutex {
  private running = false;
  private readonly waiting: Array<() => void> = [];

  run<T>(task: () => Promise<T>, first = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running = true;
        Promise.resolve()
          .then(task)
          .then(resolve, reject)
          .finally(() => {
            this.running = false;
            this.waiting.shift()?.();
          });
      };
      if (!this.running) start();
      else if (first) this.waiting.unshift(start);
      else this.waiting.push(start);
    });
  }
}
