/**
 * Archive-then-trim (issue 35): entries older than the retention window are written to the archive
 * as segments and only then trimmed from the hot store. Every step is idempotent and ordered so a
 * crash anywhere leaves nothing lost and nothing twice: a segment is either whole or absent (the
 * archive writes atomically), the hot store is trimmed only through what the archive holds, and a
 * rerun first trims what an interrupted run archived, then carries on from the archive's head.
 */
import type { AuditArchive } from '../ports/audit-archive.js';
import type { EventStore } from '../ports/event-store.js';

/** How much the hot store keeps: the newest `entries`, or those newer than `ageMs`. */
export type Retention = { entries: number } | { ageMs: number };

/** Entries per segment (one query page). */
export const SEGMENT_ENTRIES = 1000;

const AGE = /^(\d+)(m|h|d)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `10080` (entries) or `7d` / `12h` / `90m` (age); throws a clear RangeError otherwise. */
export function parseRetention(text: string): Retention {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) {
    const entries = Number(trimmed);
    if (entries < 1 || !Number.isSafeInteger(entries)) throw new RangeError('AUDIT_RETAIN must keep at least 1 entry');
    return { entries };
  }
  const m = AGE.exec(trimmed);
  if (!m) throw new RangeError(`AUDIT_RETAIN must be a number of entries or an age like 7d, 12h, 90m; got "${text}"`);
  return { ageMs: Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] };
}

/** The archive ends before the hot store's floor: entries were lost from it (a truncated archive). */
export class ArchiveTruncatedError extends Error {
  override name = 'ArchiveTruncatedError';
}

export interface ArchiveRun {
  archived: number;
  trimmed: number;
  /** The hot store's floor afterwards. */
  floor: number;
}

export async function archiveAndTrim(
  events: EventStore,
  archive: AuditArchive,
  retention: Retention,
  nowMs: number,
  onSegment?: (first: number, last: number) => void,
): Promise<ArchiveRun> {
  const floor = await events.floor();
  const archived = await archive.head();
  if (archived.seq < floor.seq)
    throw new ArchiveTruncatedError(
      `the archive ends at entry ${archived.seq} but the hot store was trimmed through ${floor.seq}: entries ${archived.seq + 1}–${floor.seq} are lost (the archive was truncated)`,
    );
  const cutoff = await cutoffSeq(events, retention, nowMs);
  let trimmed = 0;
  // An interrupted run may have archived without trimming: trim that first (never past the cutoff).
  if (archived.seq > floor.seq && archived.seq <= cutoff) trimmed += await events.trimThrough(archived);
  let count = 0;
  for (let from = archived.seq + 1; from <= cutoff;) {
    const to = Math.min(from + SEGMENT_ENTRIES - 1, cutoff);
    const entries = (await events.query({ limit: to - from + 1, before: to + 1 })).reverse();
    const last = entries.at(-1);
    if (entries[0]?.seq !== from || last?.seq !== to)
      throw new Error(`audit archive: the hot store lacks entries ${from}–${to} (trimmed without archiving?)`);
    await archive.write(entries);
    onSegment?.(from, to);
    trimmed += await events.trimThrough({ seq: last.seq, hash: last.hash });
    count += entries.length;
    from = to + 1;
  }
  return { archived: count, trimmed, floor: (await events.floor()).seq };
}

/** The newest seq that may leave the hot store; the head itself always stays (it anchors the chain). */
async function cutoffSeq(events: EventStore, retention: Retention, nowMs: number): Promise<number> {
  const [newest] = await events.query({ limit: 1 });
  if (newest === undefined) return 0;
  if ('entries' in retention) return Math.max(0, newest.seq - retention.entries);
  const [older] = await events.query({ limit: 1, until: new Date(nowMs - retention.ageMs).toISOString() });
  return Math.min(older?.seq ?? 0, newest.seq - 1);
}
