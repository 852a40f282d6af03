/**
 * A range of the audit trail read across the archive and the hot store as one chain (issue 35,
 * `tcs audit export`): bounds by seq (both inclusive) or by time (from inclusive, to exclusive, so
 * `--from 2026-01-01 --to 2026-02-01` is January), resolved to seqs by looking in the hot store and,
 * for times older than it, by bisecting the archive (seq order is time order). Pages come oldest
 * first; every entry is re-hashed and linked to the one before, so a gap or an edited entry stops
 * the read with its seq instead of ending up silently in an accountant's file.
 */
import { chainHash } from '../domain/hash-chain.js';
import type { AuditArchive } from '../ports/audit-archive.js';
import type { AuditEvent, EventStore } from '../ports/event-store.js';

export type RangeBound = { seq: number } | { at: string };

const PAGE = 1000;

/** `123` (a seq) or an ISO 8601 UTC date or time (`2026-01-01`, `2026-01-01T12:00:00Z`). */
export function parseBound(text: string, flag: string): RangeBound {
  const t = text.trim();
  if (/^\d+$/.test(t)) {
    const seq = Number(t);
    if (seq < 1 || !Number.isSafeInteger(seq)) throw new RangeError(`${flag} must be a seq >= 1; got "${text}"`);
    return { seq };
  }
  const ms = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(t) ? Date.parse(t) : NaN;
  if (Number.isNaN(ms))
    throw new RangeError(
      `${flag} must be a seq (123) or an ISO 8601 date or time (2026-01-01, 2026-01-01T12:00:00Z); got "${text}"`,
    );
  return { at: new Date(ms).toISOString() };
}

export interface SeqRange {
  /** Inclusive; from > to is an empty range. */
  from: number;
  to: number;
}

/** The seqs the bounds cover; none given: the whole trail. */
export async function resolveRange(
  events: EventStore,
  archive: AuditArchive,
  from: RangeBound | undefined,
  to: RangeBound | undefined,
): Promise<SeqRange> {
  if (from && to && 'seq' in from && 'seq' in to && from.seq > to.seq)
    throw new RangeError(`--from (entry ${from.seq}) is after --to (entry ${to.seq})`);
  if (from && to && 'at' in from && 'at' in to && from.at > to.at)
    throw new RangeError(`--from (${from.at}) is after --to (${to.at})`);
  const newest = (await events.query({ limit: 1 }))[0]?.seq ?? (await archive.head()).seq;
  const fromSeq = from === undefined ? 1 : 'seq' in from ? from.seq : (await lastBefore(events, archive, from.at)) + 1;
  const toSeq =
    to === undefined ? newest : 'seq' in to ? Math.min(to.seq, newest) : await lastBefore(events, archive, to.at);
  return { from: fromSeq, to: toSeq };
}

/** The newest seq stamped before `at` (0 when none): in the hot store, else bisecting the archive. */
async function lastBefore(events: EventStore, archive: AuditArchive, at: string): Promise<number> {
  const [hot] = await events.query({ limit: 1, until: at });
  if (hot !== undefined) return hot.seq;
  let lo = 0; // stamped before `at` (0: a sentinel)
  let hi = (await archive.head()).seq + 1; // not, or beyond the archive
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const [entry] = await archive.read(mid, mid);
    if (entry === undefined) throw new Error(`entry ${mid} is missing from the archive (run tcs audit verify)`);
    if (entry.at < at) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Entries from…to, oldest first, in pages; throws naming the first entry missing or not linking. */
export async function* readRange(
  events: EventStore,
  archive: AuditArchive,
  { from, to }: SeqRange,
): AsyncGenerator<AuditEvent[]> {
  const archived = (await archive.head()).seq;
  let expected = from;
  let prevHash: string | null = null;
  for (let start = from; start <= to;) {
    const end = Math.min(start + PAGE - 1, to);
    const page =
      end <= archived
        ? await archive.read(start, end)
        : start > archived
          ? (await events.query({ limit: end - start + 1, before: end + 1 })).reverse()
          : await archive.read(start, archived);
    for (const entry of page) {
      if (entry.seq !== expected)
        throw new Error(
          `entry ${expected} is in neither the archive nor the hot store (found ${entry.seq} next); run tcs audit verify`,
        );
      if ((prevHash !== null && entry.prev_hash !== prevHash) || chainHash(entry.prev_hash, entry) !== entry.hash)
        throw new Error(`entry ${entry.seq} does not match the chain (altered?); run tcs audit verify`);
      prevHash = entry.hash;
      expected += 1;
    }
    const last = page.at(-1)?.seq ?? start - 1;
    if (last < Math.min(end, start <= archived ? archived : end))
      throw new Error(`entry ${last + 1} is in neither the archive nor the hot store; run tcs audit verify`);
    if (page.length > 0) yield page;
    start = last + 1;
  }
}
