/**
 * Store faults as the notifier sees them, pure: each round it reports whether its own reads and
 * writes of the store worked, and this decides when that is worth telling. A failure must last the
 * debounce (measured on the caller's monotonic clock) before a `store_fault` notice goes out, so a
 * blip of one round tells nobody; the round that works again after a told fault yields
 * `store_recovered`. Both notices are named by the fault's start (wall time, for people), so a
 * retry of either carries the same id and a receiver drops the repeat.
 */
import type { Notification } from './select.js';

export type StoreWatch =
  | { phase: 'ok' }
  /** Failing since then, not told yet (within the debounce). */
  | { phase: 'failing'; sinceMono: number; sinceAt: string; cause: string }
  /** Told: a `store_fault` went out for the fault that began at `sinceAt`. */
  | { phase: 'faulted'; sinceMono: number; sinceAt: string; cause: string };

export type StoreObservation = { ok: true } | { ok: false; cause: string };

export const STORE_WATCH_START: StoreWatch = { phase: 'ok' };

export interface StoreWatchStep {
  watch: StoreWatch;
  /** The notice to send now, if any. */
  notice: Notification | null;
}

/**
 * One round's observation. `monoMs` is a monotonic reading (durations), `nowIso` the wall time the
 * notice shows; `seq` is the last audit seq the notifier had read (where in the trail it happened).
 */
export function observeStore(
  watch: StoreWatch,
  seen: StoreObservation,
  monoMs: number,
  nowIso: string,
  debounceMs: number,
  seq: number,
): StoreWatchStep {
  if (seen.ok) {
    if (watch.phase !== 'faulted') return { watch: STORE_WATCH_START, notice: null };
    const lastedS = Math.round((monoMs - watch.sinceMono) / 1000);
    return {
      watch: STORE_WATCH_START,
      notice: {
        id: `store:${watch.sinceAt}:store_recovered`,
        seq,
        at: nowIso,
        kind: 'store_recovered',
        symbol: null,
        title: 'Store recovered',
        text: `the notifier reads and writes its store again (fault since ${watch.sinceAt}, about ${lastedS} s)`,
        data: { fault_since: watch.sinceAt, lasted_s: lastedS, cause: watch.cause },
      },
    };
  }
  if (watch.phase === 'ok')
    return { watch: { phase: 'failing', sinceMono: monoMs, sinceAt: nowIso, cause: seen.cause }, notice: null };
  if (watch.phase === 'faulted') return { watch: { ...watch, cause: seen.cause }, notice: null };
  if (monoMs - watch.sinceMono < debounceMs) return { watch: { ...watch, cause: seen.cause }, notice: null };
  return {
    watch: { ...watch, phase: 'faulted', cause: seen.cause },
    notice: {
      id: `store:${watch.sinceAt}:store_fault`,
      seq,
      at: nowIso,
      kind: 'store_fault',
      symbol: null,
      title: 'Store fault',
      text: `the notifier cannot use its store since ${watch.sinceAt}: ${seen.cause}. Notices of the audit trail wait until it is back; the trading process halts on the same fault.`,
      data: { fault_since: watch.sinceAt, cause: seen.cause },
    },
  };
}
