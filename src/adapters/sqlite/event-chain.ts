/**
 * The one place that writes to the audit chain. Every writer (the event store's append, a control
 * change, a kill reset) calls `appendChained` inside its own IMMEDIATE transaction, so the head it
 * reads cannot be taken by another writer before the insert. The head row (`event_head`) is moved
 * in that same transaction: it is what the next entry chains to and what verify() holds the tail
 * against, so rows deleted from the end, or a last row rewritten, no longer go unnoticed.
 */
import { canonicalJson } from '../../domain/canonical-json.js';
import { chainedAt, chainHashOfCanonical } from '../../domain/hash-chain.js';
import { restampedWith } from '../../domain/clock-skew.js';
import type { AuditEvent, NewAuditEvent } from '../../ports/event-store.js';
import { ClockSkewError } from '../../ports/store-errors.js';
import type { SqliteDatabase } from './connection.js';

/** An `events` row as stored (body is canonical JSON text). */
export interface EventRow {
  seq: number;
  at: string;
  kind: string;
  symbol: string | null;
  body: string;
  prev_hash: string;
  hash: string;
}

export function rowToEvent(row: EventRow): AuditEvent {
  return {
    seq: row.seq,
    at: row.at,
    kind: row.kind,
    symbol: row.symbol,
    body: JSON.parse(row.body) as Record<string, unknown>,
    prev_hash: row.prev_hash,
    hash: row.hash,
  };
}

/** The `event_head` row: the last entry's seq, hash and at (seq 0, GENESIS_HASH, null when empty). */
export interface HeadRow {
  seq: number;
  hash: string;
  at: string | null;
}

/** `storeClockIfSkewed`: a kill's entry, stamped with the store's clock rather than refused (clock-skew.ts). */
export type AppendChained = (event: NewAuditEvent, options?: { storeClockIfSkewed?: boolean }) => AuditEvent;

/** Prepares the head read once per connection; undefined means the row was removed behind our back. */
export function headReader(db: SqliteDatabase): () => HeadRow | undefined {
  const stmt = db.prepare<[], HeadRow>('SELECT seq, hash, at FROM event_head WHERE id = 1');
  return () => stmt.get();
}

/** A row before its hash: what the threaded writer hands its worker, which chains it (threaded-audit.ts). */
export type UnhashedRow = Omit<EventRow, 'prev_hash' | 'hash'>;

/**
 * The row that follows `head` for `event`, numbered and timed but not yet hashed. Pure: the caller
 * holds the head (under the write lock, or as the chain's only writer, threaded-audit.ts). `nowMs` is
 * the writer's clock once checked against the store's (host-clock.ts); a run's private file has no such check.
 */
export function unhashedRow(head: Omit<HeadRow, 'hash'>, event: NewAuditEvent, nowMs?: number): UnhashedRow {
  // Fixed against the entry it follows: seq order is time order.
  const at = chainedAt(event.at, head.at, nowMs);
  return { seq: head.seq + 1, at, kind: event.kind, symbol: event.symbol ?? null, body: canonicalJson(event.body) };
}

/** The row that follows `head` for `event`: numbered, timed and hashed (pure, as unhashedRow). */
export function chainedRow(head: HeadRow, event: NewAuditEvent, nowMs?: number): EventRow {
  const { seq, at, kind, symbol, body } = unhashedRow(head, event, nowMs);
  const prev_hash = head.hash;
  // Hash what will be read back (the canonical text), so verify() re-derives the same bytes.
  const hash = chainHashOfCanonical(prev_hash, { seq, at, kind, symbol }, body);
  return { seq, at, kind, symbol, body, prev_hash, hash };
}

/**
 * The entry as an append returns it. The body (as it will be read back, parsed from the stored text)
 * is parsed only if someone looks: the trading process appends a decision every cycle and never reads it.
 */
export function appendedEvent(row: EventRow): AuditEvent {
  let body: Record<string, unknown> | undefined;
  return {
    seq: row.seq,
    at: row.at,
    kind: row.kind,
    symbol: row.symbol,
    get body() {
      return (body ??= JSON.parse(row.body) as Record<string, unknown>);
    },
    prev_hash: row.prev_hash,
    hash: row.hash,
  };
}

/**
 * Prepares the statements once per connection; the returned function must run inside a transaction.
 * `checkClock` (host-clock.ts) refuses a writer whose clock is too far from the host's, before
 * anything is written (it throws, and the caller's transaction rolls back whatever it wrote before).
 */
export function chainAppender(db: SqliteDatabase, checkClock?: () => number): AppendChained {
  const readHead = headReader(db);
  const insert = db.prepare<[EventRow]>(
    'INSERT INTO events (seq, at, kind, symbol, body, prev_hash, hash) VALUES (@seq, @at, @kind, @symbol, @body, @prev_hash, @hash)',
  );
  const moveHead = db.prepare<[HeadRow]>('UPDATE event_head SET seq = @seq, hash = @hash, at = @at WHERE id = 1');
  /** The writer's checked clock, or (for a kill) the store's when the writer's is off: [entry, clock]. */
  const checked = (event: NewAuditEvent, lenient: boolean): [NewAuditEvent, number | undefined] => {
    try {
      return [event, checkClock?.()];
    } catch (err) {
      if (!lenient || !(err instanceof ClockSkewError) || err.storeMs === undefined) throw err;
      return [restampedWith(event, err.storeMs), err.storeMs];
    }
  };
  return (input, options) => {
    if (!db.inTransaction) throw new Error('appendChained must run inside a transaction');
    const [event, nowMs] = checked(input, options?.storeClockIfSkewed === true);
    // Chained to the head, not to the last row: after rows were deleted from the end, the next entry
    // must not quietly take their seqs and re-anchor a shortened trail.
    const head = readHead();
    if (head === undefined) throw new Error('sqlite: audit chain head missing (the file was tampered with)');
    const row = chainedRow(head, event, nowMs);
    insert.run(row);
    moveHead.run(row);
    return appendedEvent(row);
  };
}
