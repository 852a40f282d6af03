/**
 * EventStore over the `events` table: chained appends (one IMMEDIATE transaction each), indexed
 * newest-first queries, and verification that re-hashes the chain and holds its tail against the
 * `event_head` row, all from a single read snapshot.
 */
import { ChainWalk } from '../../domain/chain-walk.js';
import type { ChainHead } from '../../domain/chain-walk.js';
import type { AuditEvent, ChainVerification, EventQuery, EventStore, NewAuditEvent } from '../../ports/event-store.js';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './connection.js';
import { headReader, rowToEvent } from './event-chain.js';
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
    const readHead = headReader(db);
    // A deferred transaction pins one snapshot (from its first read on), so the head, the count and
    // the rows are of one instant and a concurrent append cannot make them disagree.
    // Read before iterating: better-sqlite3 allows no other statement while an iterator is open.
    const verify = db.transaction((): ChainVerification => {
      const head = readHead();
      const count = this.countStmt.get()?.n ?? 0;
      if (head === undefined)
        return { ok: false, count, firstBad: { seq: Math.max(count, 1), reason: 'the chain head record is missing' } };
      return verifyRows(all.iterate(), count, head);
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

/** Walks rows in seq order against the head; `count` is the number of rows in the trail either way. */
function verifyRows(rows: Iterable<EventRow>, count: number, head: ChainHead): ChainVerification {
  const walk = new ChainWalk(head);
  for (const row of rows) {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(row.body) as Record<string, unknown>;
    } catch {
      const firstBad = walk.gapBefore(row.seq) ?? { seq: row.seq, reason: 'body is not valid JSON' };
      return { ok: false, count, firstBad };
    }
    const problem = walk.next({ ...row, body });
    if (problem) return { ok: false, count, firstBad: problem };
  }
  const problem = walk.end();
  return problem ? { ok: false, count, firstBad: problem } : { ok: true, count, head: head.hash };
}
