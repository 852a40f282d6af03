/**
 * The entries an archive write adds beyond the archive's head, as one segment: those at or below the
 * head are the caller's to check against what is held; the rest must start right after the head
 * (the next seq, linked to its hash) and run without a gap. Shared by every archive adapter, so a
 * segment that would leave a hole or fork the chain is refused the same way everywhere.
 */
import type { AuditEvent } from '../../ports/event-store.js';

export interface NextSegment {
  entries: AuditEvent[];
  first: AuditEvent;
  last: AuditEvent;
}

/** The segment after `head` in `given`, or null when `given` adds nothing; throws when it does not follow. */
export function nextSegment(given: readonly AuditEvent[], head: { seq: number; hash: string }): NextSegment | null {
  const entries = given.filter((e) => e.seq > head.seq);
  const first = entries[0];
  const last = entries.at(-1);
  if (first === undefined || last === undefined) return null;
  if (first.seq !== head.seq + 1 || first.prev_hash !== head.hash)
    throw new Error(`archive: entries from ${first.seq} do not follow the archive's head (entry ${head.seq})`);
  entries.forEach((e, i) => {
    if (e.seq !== first.seq + i) throw new Error(`archive: entries are not contiguous at ${e.seq}`);
  });
  return { entries, first, last };
}
