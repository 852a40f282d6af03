/**
 * Runs the venue's operations one at a time. Every operation mutates the account and then awaits
 * the store write; without a queue two concurrent calls could interleave between mutation and
 * write, or land their writes out of order and persist an older account over a newer one.
 */
export interface SerialQueue {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      const result = tail.then(task);
      // A failed task fails its caller only; the next task still runs.
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
