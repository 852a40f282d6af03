/**
 * The one place that writes to the audit chain. Every writer (the event store's append, a control
 * change, a kill reset) calls `appendChained` inside its own IMMEDIATE transaction, so the seq and
 * prev hash it reads from the last row cannot be taken by another writer before the insert.
 */
import { canonicalJson } from '../../domain/canonical-json.js';
import { chainHash, GENESIS_HASH } from '../../domain/hash-chain.js';
import type { AuditEvent, NewAuditEvent } from '../../ports/event-store.js';
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

export type AppendChained = (event: NewAuditEvent) => AuditEvent;

/** Prepares the statements once per connection; the returned function must run inside a transaction. */
export function chainAppender(db: SqliteDatabase): AppendChained {
  const last = db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1');
  const insert = db.prepare<[EventRow]>(
    'INSERT INTO events (seq, at, kind, symbol, body, prev_hash, hash) VALUES (@seq, @at, @kind, @symbol, @body, @prev_hash, @hash)',
  );
  return (event) => {
    if (!db.inTransaction) throw new Error('appendChained must run inside a transaction');
    const head = last.get();
    const seq = (head?.seq ?? 0) + 1;
    const prev_hash = head?.hash ?? GENESIS_HASH;
    const text = canonicalJson(event.body);
    // Hash what will be read back (the parsed canonical text), so verify() re-derives the same bytes.
    const body = JSON.parse(text) as Record<string, unknown>;
    const symbol = event.symbol ?? null;
    const hash = chainHash(prev_hash, { seq, at: event.at, kind: event.kind, symbol, body });
    insert.run({ seq, at: event.at, kind: event.kind, symbol, body: text, prev_hash, hash });
    return { seq, at: event.at, kind: event.kind, symbol, body, prev_hash, hash };
  };
}
