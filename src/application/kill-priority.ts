/**
 * Fairness for the kill switch among control writers. Control changes are compare-and-set on the
 * record's epoch, so a writer that decided on a record another process changed meanwhile must decide
 * again; under a flood of pause/resume from other processes (each with a queue of callers) a writer
 * that lost once kept losing, and a kill could be lost to it. So a kill that loses a race says so in
 * the store (KILL_PENDING_KEY, until its deadline), and every other control change stands aside while
 * one is pending: it answers "contended, try again" at once instead of writing. The kill then meets
 * at most the changes already in flight, and wins. This is only about who goes first: correctness
 * stays with the compare-and-set. The mark says how long it lasts; each reader counts that on its own
 * monotonic clock from when it first saw the mark (wall clocks of two hosts, or one stepped, cannot
 * judge another's deadline: a reader an hour behind stood aside for an hour), so a mark left by a
 * process that died expires with the kill's deadline.
 */
import { randomBytes } from 'node:crypto';
import { DocumentError } from '../domain/documents/document-error.js';
import { KILL_PENDING_KEY } from '../domain/runtime-documents.js';
import { readDocument, writeDocument } from '../ports/documents.js';
import type { KeyValueStore } from '../ports/key-value-store.js';
import type { Clock } from '../ports/clock.js';
import { monotonicNow, systemClock } from '../ports/clock.js';

export interface KillPriority {
  /** A kill is being written for `forMs` more at the most. */
  announce(forMs: number): Promise<void>;
  /** The kill was written (or gave up). */
  withdraw(): Promise<void>;
  /** True while a kill announced itself and its time has not run out on this reader's clock. */
  pending(): Promise<boolean>;
}

export function killPriority(kv: KeyValueStore, clock: Clock = systemClock): KillPriority {
  /** The mark seen last and when (monotonic) this reader first saw it. */
  let seen: { id: string; at: number } | null = null;
  return {
    announce: (forMs) =>
      writeDocument(kv, KILL_PENDING_KEY, {
        until: clock.now() + forMs,
        forMs,
        id: randomBytes(8).toString('hex'),
      }),
    withdraw: () => kv.delete(KILL_PENDING_KEY),
    async pending() {
      // A mark that does not decode is no kill's: the compare-and-set still decides, fairly or not.
      const mark = await readDocument(kv, KILL_PENDING_KEY).catch((err: unknown) => {
        if (err instanceof DocumentError) return null;
        throw err;
      });
      if (mark === null) return false;
      if (mark.id === undefined || mark.forMs === undefined) return mark.until > clock.now(); // an earlier release's
      const now = monotonicNow(clock);
      if (seen?.id !== mark.id) seen = { id: mark.id, at: now };
      return now - seen.at < mark.forMs;
    },
  };
}
