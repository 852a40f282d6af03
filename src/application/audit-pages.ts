/**
 * A page of the audit trail read across the hot store and the archive as one sequence, newest first
 * (issue 35: /reports/decisions pages across both). The store answers first; only a page it cannot
 * fill goes on into the archive, below the store's floor. The floor is read after the store's page,
 * so an archive run trimming meanwhile can only make the two overlap (removed here by seq), never
 * leave a gap between them. An archive that cannot be read leaves the store's part answered and
 * says so: the hot window must not depend on the archive being reachable.
 */
import type { AuditArchive } from '../ports/audit-archive.js';
import type { AuditEvent, EventQuery, EventStore } from '../ports/event-store.js';

/** `unused`: the store filled the page; `read`: the archive was read for it; `unavailable`: it was needed and could not be. */
export type ArchivePart = 'unused' | 'read' | 'unavailable';

export interface AuditPage {
  entries: AuditEvent[];
  archive: ArchivePart;
  /** Why the archive could not be read (for the log, not the response: it may name hosts and paths). */
  archiveProblem?: string;
}

export async function queryAcross(
  events: EventStore,
  archive: AuditArchive | null,
  query: EventQuery,
): Promise<AuditPage> {
  const hot = await events.query(query);
  if (hot.length >= query.limit) return { entries: hot, archive: 'unused' };
  // After the store's page: at or past the floor that page was read above.
  const floor = (await events.floor()).seq;
  if (floor < 1 || (query.before !== undefined && query.before <= 1)) return { entries: hot, archive: 'unused' };
  if (archive === null)
    return { entries: hot, archive: 'unavailable', archiveProblem: 'no audit archive is configured' };
  let older: AuditEvent[];
  try {
    older = await archive.query(query, floor);
  } catch (err) {
    return { entries: hot, archive: 'unavailable', archiveProblem: (err as Error).message };
  }
  const held = new Set(hot.map((e) => e.seq));
  const entries = [...hot, ...older.filter((e) => !held.has(e.seq))]
    .sort((a, b) => b.seq - a.seq)
    .slice(0, query.limit);
  return { entries, archive: 'read' };
}
