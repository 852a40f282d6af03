/**
 * How far a writer's wall clock may be from its store's clock before the audit trail refuses it
 * (issue 30, finding 8). Entries are stamped by their writer, and `at` never goes back along the
 * chain (hash-chain.ts chainedAt), so one writer a year ahead used to pin every later entry, of every
 * writer, to its year: time-filtered queries then missed them all. Each store has one clock (Redis
 * `TIME`; the host's clock for SQLite, read from the kernel, see sqlite/host-clock.ts) and every chained
 * write is checked against it. Pure: the adapters read both clocks.
 */
import { humanDuration } from './performance/run-summary.js';

/**
 * The bound: far above what a round trip to the store and NTP's slewing add (milliseconds), far below
 * what an operator filtering the trail by time would notice. Not configurable: a writer further off
 * has a broken clock, and the fix is the clock, not the bound.
 */
export const AUDIT_CLOCK_SKEW_MS = 5_000;

/** Why a writer reading `writerMs` when the store's clock read `storeMs` may not stamp entries, or null. */
export function clockSkew(writerMs: number, storeMs: number, storeClock: string): string | null {
  const skew = writerMs - storeMs;
  if (Math.abs(skew) <= AUDIT_CLOCK_SKEW_MS) return null;
  return (
    `this process's clock is ${humanDuration(Math.abs(skew) / 1000)} ${skew > 0 ? 'ahead of' : 'behind'} ` +
    `the store's clock (${storeClock}), more than the ${AUDIT_CLOCK_SKEW_MS / 1000} s allowed: its audit entries ` +
    `would carry a wrong time, so nothing was recorded. Set this host's clock right (NTP) and try again`
  );
}

/**
 * Entries checked against the store's clock are never more than twice the bound apart. A previous
 * entry further ahead of a writer's clock than that was stamped by a skewed writer before the check
 * existed: hash-chain.ts chainedAt does not follow it, or its wrong time would pin every later entry.
 */
export const MAX_RAISE_MS = 2 * AUDIT_CLOCK_SKEW_MS;

/**
 * A kill's entry when its writer's clock is off (more than AUDIT_CLOCK_SKEW_MS from the store's): a
 * kill is never refused for a clock (an operator on a host whose clock jumped must still stop
 * trading), so it is stamped with the store's clock, and the writer's own time is kept in the body
 * (`writer_at`) for whoever reads the trail. Every other entry of a skewed writer is refused.
 */
export function restampedWith<T extends { at: string; body: Record<string, unknown> }>(entry: T, storeMs: number): T {
  return { ...entry, at: new Date(storeMs).toISOString(), body: { ...entry.body, writer_at: entry.at } };
}
