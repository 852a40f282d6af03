/**
 * EventStore over the `events` table: chained appends (one IMMEDIATE transaction each), indexed
 * newest-first queries, and verification that re-hashes the chain and holds its tail against the
 * `event_head` row (from one snapshot of the head, page by page, yielding between pages).
 */
import { ChainWalk, checkFloor } from '../../domain/chain-walk.js';
import type { ChainFloor, ChainProblem } from '../../domain/chain-walk.js';
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

/** Rows deleted per write transaction while trimming: the write lock is held for a few ms at a time. */
const TRIM_CHUNK = 2000;

/** One trimming step: rows deleted and whether the floor reached its target. */
interface TrimStep {
  deleted: number;
  done: boolean;
}

export class SqliteEventStore implements EventStore {
  private readonly queries = new Map<string, QueryStatement>();
  private readonly appendTx: (event: NewAuditEvent) => AuditEvent;
  private readonly verifyWalk: () => Promise<ChainVerification>;
  private readonly countStmt;
  private readonly readFloor: () => ChainFloor;
  private readonly trimTx: (through: ChainFloor) => TrimStep;

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
    const floorStmt = db.prepare<[], ChainFloor>('SELECT seq, hash FROM event_floor WHERE id = 1');
    this.readFloor = () => {
      const floor = floorStmt.get();
      if (floor === undefined)
        throw new Error('sqlite: the audit floor record is missing (the file was tampered with)');
      return floor;
    };
    const hashAt = db.prepare<[number], { hash: string }>('SELECT hash FROM events WHERE seq = ?');
    const deleteThrough = db.prepare<[number]>('DELETE FROM events WHERE seq <= ?');
    const moveFloor = db.prepare<[number, string]>('UPDATE event_floor SET seq = ?, hash = ? WHERE id = 1');
    const trim = db.transaction((through: ChainFloor): TrimStep => {
      const floor = this.readFloor();
      if (floor.seq >= through.seq) return { deleted: 0, done: true };
      const head = readHead();
      if (head === undefined || through.seq >= head.seq)
        throw new Error(`audit trim: entry ${through.seq} is not older than the head (${head?.seq ?? 'missing'})`);
      if (hashAt.get(through.seq)?.hash !== through.hash)
        throw new Error(`audit trim: entry ${through.seq} is not the one archived (absent, or another hash)`);
      // One chunk per transaction; the floor lands on a stored entry each time, so a crash between
      // chunks leaves a window that still verifies from where it stopped.
      const upTo = Math.min(floor.seq + TRIM_CHUNK, through.seq);
      const last = hashAt.get(upTo);
      if (last === undefined) throw new Error(`audit trim: entry ${upTo} is missing from the hot store`);
      const { changes } = deleteThrough.run(upTo);
      moveFloor.run(upTo, last.hash);
      return { deleted: changes, done: upTo === through.seq };
    });
    this.trimTx = (through) => trim.immediate(through);
    // One deferred transaction pins one snapshot for the head, the count and the first entry beyond
    // the head, so a concurrent append cannot make them disagree. Entries at or below the head are
    // written once and never change (a change is what verify exists to find), so they are then read
    // page by page outside it, yielding between pages: the process keeps serving while it walks.
    const start = db.transaction(() => {
      const head = readHead();
      const count = this.countStmt.get()?.n ?? 0;
      const floor = this.readFloor();
      return { head, count, floor, beyond: head === undefined ? undefined : firstBeyond.get(head.seq) };
    });
    this.verifyWalk = async () => {
      const { head, count, floor, beyond } = await access.read(() => start.deferred());
      if (head === undefined)
        return { ok: false, count, firstBad: { seq: Math.max(count, 1), reason: 'the chain head record is missing' } };
      const walk = new ChainWalk(head, floor);
      for (let from = floor.seq; from === floor.seq || from < head.seq; from += VERIFY_PAGE) {
        if (from > floor.seq) await yieldTurn();
        // The first page starts below the floor too: a row slipped in at or below it (seq 0 or less,
        // or one put back after trimming) is found, not skipped.
        const after = from === floor.seq ? Number.MIN_SAFE_INTEGER : from;
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

  floor(): Promise<ChainFloor> {
    return this.access.read(() => this.readFloor());
  }

  async trimThrough(through: ChainFloor): Promise<number> {
    checkFloor(through);
    let deleted = 0;
    for (;;) {
      const step = await this.access.write(() => this.trimTx(through));
      deleted += step.deleted;
      if (step.done) return deleted;
      await yieldTurn(); // let appends and reads in between chunks
    }
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
