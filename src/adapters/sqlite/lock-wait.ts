/**
 * Waiting for another process's write lock without stopping the event loop. better-sqlite3 runs
 * every statement synchronously, and SQLite's busy timeout waits by sleeping inside the call: with
 * the lock held elsewhere (a process in BEGIN EXCLUSIVE, an operator's `sqlite3 var/tcs.db`) each
 * write froze the whole process — /health, the kill switch, every other request — until the store's
 * deadline. So an open store's connection does not wait at all (busy_timeout 0: SQLITE_BUSY at
 * once), and a call that meets the lock is tried again from a timer, after pauses of 1, 2, 4, 8,
 * then MAX_PAUSE_MS ms, until the deadline (STORE_TIMEOUT_MS, counted from the first refusal); the
 * last SQLITE_BUSY then goes to the caller, which the guard turns into a StoreUnavailableError (503)
 * as before. A lock let go during the wait is taken at the next try, at most MAX_PAUSE_MS later, and
 * one last try is made at the deadline itself. Writes keep their order (`inOrder`).
 *
 * Trying again is safe because what is passed here is always one whole unit: a single statement, or
 * a better-sqlite3 transaction function, which commits or rolls back entirely before it returns or
 * throws (the BUSY of BEGIN IMMEDIATE comes before any statement ran; a failure after it rolls the
 * transaction back). Nothing stays open between two tries, and a try that failed wrote nothing.
 *
 * Why not a worker thread owning the connection: every prepared statement and transaction body would
 * move there and every call cross a message channel (a copy and a thread hop on each of thousands of
 * calls a second) to get the same deadline logic; waiting from timers costs nothing on the path that
 * meets no lock, which is nearly every call.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

export const FIRST_PAUSE_MS = 1;
export const MAX_PAUSE_MS = 16;

/** `now` in ms (monotonic) and a pause; tests inject both. */
export interface LockWaitClock {
  now(): number;
  sleep(ms: number): Promise<unknown>;
}

const realClock: LockWaitClock = { now: () => performance.now(), sleep: (ms) => sleep(ms) };

/** SQLITE_BUSY and its extended codes (SQLITE_BUSY_RECOVERY, …): another connection has the lock. */
export function isLockBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_'));
}

export interface LockWait {
  /** Runs `attempt` now and, while it meets another connection's lock, again until the deadline. */
  now<T>(attempt: () => T): Promise<T>;
  /**
   * The same, but never before every earlier `inOrder` call of this connection has settled: the
   * writes of one process land in the order it made them, as they did when each call waited inside
   * itself (a later heartbeat is never overwritten by an earlier one that waited longer). Each keeps
   * its own deadline, counted from its call.
   */
  inOrder<T>(attempt: () => T): Promise<T>;
}

export function lockWaiter(deadlineMs: number, clock: LockWaitClock = realClock): LockWait {
  const retry = async <T>(attempt: () => T, giveUpAt: number, refusal: unknown): Promise<T> => {
    let pause = FIRST_PAUSE_MS;
    let last = refusal;
    for (;;) {
      const left = giveUpAt - clock.now();
      if (left <= 0) throw last;
      await clock.sleep(Math.min(pause, left));
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
      try {
        return attempt();
      } catch (err) {
        if (!isLockBusy(err)) throw err;
        last = err;
      }
    }
  };
  // The first try runs in the caller's turn: a call that meets no lock costs no timer and no extra turn.
  const tryNow = <T>(attempt: () => T, giveUpAt?: number): Promise<T> => {
    try {
      return Promise.resolve(attempt());
    } catch (err) {
      if (!isLockBusy(err)) return Promise.reject(err as Error);
      return retry(attempt, giveUpAt ?? clock.now() + deadlineMs, err);
    }
  };

  // The last in-order call still waiting (settled, never rejecting); null when none waits.
  let tail: Promise<void> | null = null;
  const queue = <T>(waiting: Promise<T>): Promise<T> => {
    const settled = waiting.then(
      () => undefined,
      () => undefined,
    );
    tail = settled;
    void settled.then(() => {
      if (tail === settled) tail = null;
    });
    return waiting;
  };

  return {
    now: (attempt) => tryNow(attempt),
    inOrder<T>(attempt: () => T): Promise<T> {
      if (tail !== null) {
        const giveUpAt = clock.now() + deadlineMs;
        return queue(tail.then(() => tryNow(attempt, giveUpAt)));
      }
      try {
        return Promise.resolve(attempt());
      } catch (err) {
        if (!isLockBusy(err)) return Promise.reject(err as Error);
        return queue(retry(attempt, clock.now() + deadlineMs, err));
      }
    },
  };
}
