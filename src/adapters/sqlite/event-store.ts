/**
 * EventStore over the `events` table: chained appends (one IMMEDIATE transaction each), indexed
 * newest-first queries, and verification that re-hashes the chain and holds its tail against the
 * `event_head` row (from one snapshot of the head, page by page, yielding between pages).
 */
import { ChainWalk } from '../../domain/chain-walk.js';
import type { ChainProblem } from '../../domain/chain-walk.js';
import type { AuditEvent, ChainVerification, EventQuery, EventStore, NewAuditEvent } from '../../ports/event-store.js';
import { setImmediate as yieldTurn } from 'node:timers/promises';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './connection.js';
import { headReader, rowToEvent } from './event-chain.js';
import type { AppendChained, EventRow } from './event-chain.js';
import { buildEventQuery } from './event-query.js';
import type { BuiltQuery } from './event-query.js';
import type { StoreAccess } from './store-access.js';
import type { ThreadedAudit } from './threaded-audit.js';

type QueryStatement = Statement<Array<string | number>, EventRow>;

/** Entries re-hashed between two turns of the event loop while verifying (a few ms each). */
const VERIFY_PAGE = 500;

export class SqliteEventStore implements EventStore {
  private readonly queries = new Map<string, QueryStatement>();
  private readonly appendTx: (event: NewAuditEvent) => AuditEvent;
  private readonly verifyWalk: () => Promise<ChainVerification>;
  private readonly countStmt;

  constructor(
    private readonly db: SqliteDatabase,
    appendChained: AppendChained,
    private readonly access: StoreAccess,
    /** A run store's threaded appends (threaded-audit.ts): appends go there, not to this connection. */
    private readonly threaded?: ThreadedAudit,
  ) {
    const tx = db.transaction((event: NewAuditEvent) => appendChained(event));
    this.appendTx = (event) => tx.immediate(event);
    this.countStmt = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM events');
    const page = db.prepare<[number, number], EventRow>(
      'SELECT seq, at, kind, symbol, body, prev_hash, hash FROM events WHERE seq > ? AND seq <= ? ORDER BY seq',
    );
    const firstBeyond = db.prepare<[number], EventRow>(
      'SELECT seq, at, kind, symbol, body, prev_hash, hash FROM events WHERE seq > ? ORDER BY seq LIMIT 1',
    );
    const readHead = headReader(db);
    // One deferred transaction pins one snapshot for the head, the count and the first entry beyond
    // the head, so a concurrent append cannot make them disagree. Entries at or below the head are
    // written once and never change (a change is what verify exists to find), so they are then read
    // page by page outside it, yielding between pages: the process keeps serving while it walks.
    const start = db.transaction(() => {
      const head = readHead();
      const count = this.countStmt.get()?.n ?? 0;
      return { head, count, beyond: head === undefined ? undefined : firstBeyond.get(head.seq) };
    });
    this.verifyWalk = async () => {
      const { head, count, beyond } = await access.read(() => start.deferred());
      if (head === undefined)
        return { ok: false, count, firstBad: { seq: Math.max(count, 1), reason: 'the chain head record is missing' } };
      const walk = new ChainWalk(head);
      for (let from = 0; from === 0 || from < head.seq; from += VERIFY_PAGE) {
        if (from > 0) await yieldTurn();
        // The first page starts below seq 1 too: a row slipped in at seq 0 or below is found, not skipped.
        const after = from === 0 ? Number.MIN_SAFE_INTEGER : from;
        const rows = await access.read(() => page.all(after, Math.min(from + VERIFY_PAGE, head.seq)));
        const problem = walkRows(walk, rows);
        if (problem) return { ok: false, count, firstBad: problem };
      }
      const problem = (beyond ? walkRows(walk, [beyond]) : null) ?? walk.end();
      return problem ? { ok: false, count, firstBad: problem } : { ok: true, count, head: head.hash };
    };
  }

  append(event: NewAuditEvent): Promise<AuditEvent> {
    if (this.threaded) {
      try {
        return Promise.resolve(this.threaded.append(event));
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return this.access.write(() => this.appendTx(event));
  }

  async query(query: EventQuery): Promise<AuditEvent[]> {
    const built = buildEventQuery(query);
    const stmt = this.statementFor(built);
    return (await this.access.read(() => stmt.all(...built.params))).map(rowToEvent);
  }

  /** One prepared statement per query shape, made on first use. */
  private statementFor(built: BuiltQuery): QueryStatement {
    let stmt = this.queries.get(built.key);
    if (stmt === undefined) {
      stmt = this.db.prepare<Array<string | number>, EventRow>(built.sql);
      this.queries.set(built.key, stmt);
    }
    return stmt;
  }

  verify(): Promise<ChainVerification> {
    return this.verifyWalk();
  }

  count(): Promise<number> {
    return this.access.read(() => this.countStmt.get()?.n ?? 0);
  }
}

/** Feeds rows (in seq order) to the walk; the first problem, or null. */
function walkRows(walk: ChainWalk, rows: readonly EventRow[]): ChainProblem | null {
  for (const row of rows) {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(row.body) as Record<string, unknown>;
    } catch {
      return walk.gapBefore(row.seq) ?? { seq: row.seq, reason: 'body is not valid JSON' };
    }
    const problem = walk.next({ ...row, body });
    if (problem) return problem;
  }
  return null;
}
