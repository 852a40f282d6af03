/**
 * Runs of one job that reads the state when it runs (publishing the account): never two at once,
 * and every call is answered by a run that started after it, so the last state always lands and an
 * older snapshot can never be written after a newer one. Calls made during a run share one more run
 * after it. A caller that need not wait (`soon`) is told nothing; a failed run is its caller's error.
 */
export interface LatestWins {
  /** A run that starts after this call; resolves (or rejects) with it. */
  now(): Promise<void>;
  /** The same, not waited for; a failure goes to `failed`. */
  soon(): void;
}

export function latestWins(run: () => Promise<void>, failed: (err: unknown) => void): LatestWins {
  let current: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const now = (): Promise<void> => {
    if (current === null) {
      current = run().finally(() => {
        current = null;
      });
      return current;
    }
    next ??= current
      .catch(() => {})
      .then(() => {
        next = null;
        return now();
      });
    return next;
  };
  return { now, soon: () => void now().catch(failed) };
}
