/**
 * Cycle numbers continue across restarts, so each number names one cycle in the audit trail. The
 * last cycle is read from what the store already holds: the newest decision entry (written at the
 * end of every cycle) and the last heartbeat (which also covers a cycle whose decision was never
 * written). The larger wins; an empty store starts at cycle 1.
 */
import { DocumentError } from '../domain/documents/document-error.js';
import { HEARTBEAT_KEY } from '../domain/runtime-documents.js';
import { readDocument } from '../ports/documents.js';
import type { Store } from '../ports/store.js';

export async function lastRecordedCycle(store: Pick<Store, 'events' | 'kv'>): Promise<number> {
  const [decision] = await store.events.query({ kind: 'decision', limit: 1 });
  // A refused heartbeat says nothing about the last cycle: the decisions alone decide.
  const heartbeat = await readDocument(store.kv, HEARTBEAT_KEY).catch((err: unknown) => {
    if (err instanceof DocumentError) return null;
    throw err;
  });
  return Math.max(0, wholeNumber(decision?.body.cycle), wholeNumber(heartbeat?.lastCycle));
}

function wholeNumber(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
}
