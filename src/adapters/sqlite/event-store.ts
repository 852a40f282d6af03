/**
 * EventStore over the `events` table: chained appends (one IMMEDIATE transaction each), indexed
 * newest-first queries, and verification that re-hashes the chain from a single read snapshot.
 */
import { chainHash, GENESIS_HASH } from '../../domain/hash-chain.js';
import type { AuditEvent, ChainVerification, EventQuery, EventStore, NewAuditEvent } from '../../ports/event-store.js';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './connection.js';
import { rowToEvent } from './event-chain.js';
import type { AppendChained, EventRow } from './event-chain.js';
import { buildEventQuery } from './event-query.js';
import type { FileIdentity } from './file-identity.js';

type QueryStatement = Statement<Array<string | number>, EventRow>;

export class SqliteEventStore implements EventStore {
  private readonly queries = new Map<string, QueryStatement>();
  private readonly appendTx: (event: NewAuditEvent) => AuditEvent;
  private readonly verifyTx: () => ChainVerification;
  private readonly countStmt;

  constructor(
    private readonly db: SqliteDatabase,
    appendChained: AppendChained,
    private readonly file: FileIdentity,
  ) {
    const tx = db.transaction((event: NewAuditEvent) => appendChained(event));
    this.appendTx = (event) => tx.immediate(event);
    this.countStmt = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM events');
    const all = db.prepare<[], EventRow>(
      'SELECT seq, at, kind, symbol, body, prev_hash, hash FROM events ORDER BY seq',
    );
    // A deferred transaction pins one snapshot, so a concurrent append cannot make the walk inconsistent.
    // Count before iterating: better-sqlite3 allows no other statement while an iterator is open.
    const verify = db.transaction(() => {
      const count = this.countStmt.get()?.n ?? 0;
      return verifyRows(all.iterate(), count);
    });
    this.verifyTx = () => verify.deferred();
  }

  async append(event: NewAuditEvent): Promise<AuditEvent> {
    this.file.assertSame();
    return this.appendTx(event);
  }

  async query(query: EventQuery): Promise<AuditEvent[]> {
    const built = buildEventQuery(query);
    let stmt = this.queries.get(built.key);
    if (stmt === undefined) {
      stmt = this.db.prepare<Array<string | number>, EventRow>(built.sql);
      this.queries.set(built.key, stmt);
    }
    return stmt.all(...built.params).map(rowToEvent);
  }

  async verify(): Promise<ChainVerification> {
    return this.verifyTx();
  }

  async count(): Promise<number> {
    return this.countStmt.get()?.n ?? 0;
  }
}

/** Walks rows in seq order; `count` is the number of entries in the trail either way. */
function verifyRows(rows: Iterable<EventRow>, count: number): ChainVerification {
  let prev = GENESIS_HASH;
  let expectedSeq = 1;
  for (const row of rows) {
    const bad = (reason: string): ChainVerification => ({ ok: false, count, firstBad: { seq: row.seq, reason } });
    if (row.seq !== expectedSeq) return bad(`expected seq ${expectedSeq}, found ${row.seq} (entries missing)`);
    if (row.prev_hash !== prev) return bad('prev_hash does not match the previous entry hash');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(row.body) as Record<string, unknown>;
    } catch {
      return bad('body is not valid JSON');
    }
    const hash = chainHash(prev, { seq: row.seq, at: row.at, kind: row.kind, symbol: row.symbol, body });
    if (hash !== row.hash) return bad('hash does not match the entry contents');
    prev = row.hash;
    expectedSeq += 1;
  }
  return { ok: true, count, head: prev };
}
