/**
 * The store's floor held against the archive, read-only (issue 35, GET /reports/audit-chain): the
 * archive must hold the last entry trimmed from the store with the same hash, or the history below
 * the window is lost (a truncated or replaced archive). Only the seam: re-hashing the archive itself
 * is `tcs audit verify`'s (it remembers what it verified; the API writes nothing).
 */
import type { AuditArchive } from '../ports/audit-archive.js';
import type { EventStore } from '../ports/event-store.js';

export interface SeamCheck {
  /** `none`: never trimmed; `linked`: the archive holds the floor entry; `broken`: it does not; `unavailable`: it could not be read. */
  status: 'none' | 'linked' | 'broken' | 'unavailable';
  /** The last entry trimmed from the store (0: none). */
  floor: number;
  /** What is wrong, for the response (seqs only, never a path or a host). */
  problem: string | null;
  /** Why the archive could not be read, for the log only. */
  detail?: string;
}

const UNAVAILABLE = 'the audit archive could not be read (the API log says why)';

export async function checkSeam(events: EventStore, archive: AuditArchive | null): Promise<SeamCheck> {
  const floor = await events.floor();
  if (floor.seq === 0) return { status: 'none', floor: 0, problem: null };
  if (archive === null)
    return { status: 'unavailable', floor: floor.seq, problem: UNAVAILABLE, detail: 'no audit archive is configured' };
  let hash: string | null;
  try {
    hash = await archive.hashAt(floor.seq);
  } catch (err) {
    return { status: 'unavailable', floor: floor.seq, problem: UNAVAILABLE, detail: (err as Error).message };
  }
  if (hash === null)
    return {
      status: 'broken',
      floor: floor.seq,
      problem: `the archive does not hold entry ${floor.seq}, the last one trimmed from the store (the archive was truncated?)`,
    };
  if (hash !== floor.hash)
    return {
      status: 'broken',
      floor: floor.seq,
      problem: `the archive's entry ${floor.seq} is not the one the store was trimmed after (another archive?)`,
    };
  return { status: 'linked', floor: floor.seq, problem: null };
}
