/**
 * Backoff between a strategy's closes of one symbol. A close the exchange refused (a 429, a 503, a
 * refusal it may lift) or did not fill leaves the position held, and the strategy's "flat" sizes it
 * again next cycle; at short cycles that would send a close every cycle into an exchange that is
 * shedding load. So each close sized while the previous one left the position held waits twice as
 * long as the last (1 s, 2 s, 4 s … up to a minute), on the monotonic clock the cycle reads
 * (LoadedMarket.steady), never on wall time. Once the account is flat in the symbol its count is
 * forgotten; nothing here ever refuses a close for good, only delays it.
 */

/** How long after the first unfinished close the next may be sent; doubled each time after it. */
const CLOSE_BACKOFF_BASE_MS = 1_000;
/** The longest wait between two closes of one symbol. */
const CLOSE_BACKOFF_MAX_MS = 60_000;

interface CloseAttempt {
  /** Closes sized in a row while the position stayed held (1 after the first). */
  tries: number;
  /** When the last was sized, on the monotonic clock (ms). */
  at: number;
}

/** symbol → its last close, for symbols still held. */
export type CloseAttempts = ReadonlyMap<string, CloseAttempt>;

/** How long after `attempt` the next close may be sent. */
function closeWait(attempt: CloseAttempt): number {
  // The first close had no wait; a close sized again means the one before did not finish.
  return Math.min(CLOSE_BACKOFF_BASE_MS * 2 ** (attempt.tries - 1), CLOSE_BACKOFF_MAX_MS);
}

/** The ms left before `symbol` may be closed again at `now`, or null when it may be now. */
export function closeBackoffLeft(attempts: CloseAttempts, symbol: string, now: number): number | null {
  const attempt = attempts.get(symbol);
  if (!attempt) return null;
  const left = attempt.at + closeWait(attempt) - now;
  return left > 0 ? left : null;
}

/**
 * The attempts after a cycle: symbols no longer `held` are forgotten (their close finished), and each
 * symbol `closed` now counts one more try at `now`.
 */
export function nextCloseAttempts(
  attempts: CloseAttempts,
  held: ReadonlySet<string>,
  closed: readonly string[],
  now: number,
): Map<string, CloseAttempt> {
  const next = new Map([...attempts].filter(([symbol]) => held.has(symbol)));
  for (const symbol of closed) next.set(symbol, { tries: (next.get(symbol)?.tries ?? 0) + 1, at: now });
  return next;
}
