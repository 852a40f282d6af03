/**
 * Fairness for the kill switch among control writers. Control changes are compare-and-set on the
 * record's epoch, so a writer that decided on a record another process changed meanwhile must decide
 * again; under a flood of pause/resume from other processes (each with a queue of callers) a writer
 * that lost once kept losing, and a kill could be lost to it. So a kill that loses a race says so in
 * the store (KILL_PENDING_KEY, until its deadline), and every other control change stands aside while
 * one is pending: it answers "contended, try again" at once instead of writing. The kill then meets
 * at most the changes already in flight, and wins. This is only about who goes first: correctness
 * stays with the compare-and-set. The mark names its own end, judged on each reader's clock; a mark
 * left by a process that died expires with the kill's deadline.
 */
import { DocumentError } from '../domain/documents/document-error.js';
import { KILL_PENDING_KEY } from '../domain/runtime-documents.js';
import { readDocument, writeDocument } from '../ports/documents.js';
import type { KeyValueStore } from '../ports/key-value-store.js';

export interface KillPriority {
  /** A kill is being written until `untilMs` (epoch ms) at the latest. */
  announce(untilMs: number): Promise<void>;
  /** The kill was written (or gave up). */
  withdraw(): Promise<void>;
  /** True while a kill announced itself and its deadline has not passed at `now`. */
  pending(now: number): Promise<boolean>;
}

export function killPriority(kv: KeyValueStore): KillPriority {
  return {
    announce: (untilMs) => writeDocument(kv, KILL_PENDING_KEY, { until: untilMs }),
    withdraw: () => kv.delete(KILL_PENDING_KEY),
    async pending(now) {
      // A mark that does not decode is no kill's: the compare-and-set still decides, fairly or not.
      const mark = await readDocument(kv, KILL_PENDING_KEY).catch((err: unknown) => {
        if (err instanceof DocumentError) return null;
        throw err;
      });
      return mark !== null && mark.until > now;
    },
  };
}
