/**
 * The audit archive in PostgreSQL (`AUDIT_ARCHIVE_URL=postgres://…`, issue 35). Two tables, created
 * on first use: `tcs_audit_entries` (one row per entry, seq the primary key, the body as its
 * canonical JSON text so it re-hashes byte for byte) and `tcs_audit_segments` (one row per write:
 * first/last seq, the hash it links from and the last hash). A segment and its entries are written
 * in one transaction under an advisory lock, so a crash leaves a whole segment or none and two
 * archivers never interleave. `tcs_audit_verified` remembers the last entry verify() re-chained;
 * an incremental verification then checks the rows before it by count (an index scan) and only
 * re-chains what came after, falling back to a full walk to name a missing row. Read-only (the API
 * process), it creates no table and its sessions are read-only on the server, so a missing table
 * is an error rather than an empty archive made on the spot.
 */
import type { Pool, PoolClient } from 'pg';
import { canonicalJson } from '../../domain/canonical-json.js';
import { ChainWalk, NO_FLOOR } from '../../domain/chain-walk.js';
import type { ChainFloor, ChainProblem } from '../../domain/chain-walk.js';
import type { ArchiveVerification, AuditArchive } from '../../ports/audit-archive.js';
import type { AuditEvent } from '../../ports/event-store.js';
import { nextSegment } from './next-segment.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tcs_audit_entries (
  seq bigint PRIMARY KEY CHECK (seq >= 1),
  at text NOT NULL,
  kind text NOT NULL,
  symbol text,
  body text NOT NULL,
  prev_hash text NOT NULL,
  hash text NOT NULL
);
CREATE INDEX IF NOT EXISTS tcs_audit_entries_at ON tcs_audit_entries (at);
CREATE TABLE IF NOT EXISTS tcs_audit_segments (
  first_seq bigint PRIMARY KEY,
  last_seq bigint NOT NULL,
  prev_hash text NOT NULL,
  last_hash text NOT NULL,
  archived_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS tcs_audit_verified (
  id int PRIMARY KEY CHECK (id = 1),
  seq bigint NOT NULL,
  hash text NOT NULL
);`;

/** How long a read-only archive waits for a connection, and for one statement. */
const READER_TIMEOUT_MS = 5_000;

/** Serialises archivers (and the schema's creation) on one database. */
const LOCK = `SELECT pg_advisory_xact_lock(hashtext('tcs_audit_archive'))`;

interface EntryRow {
  seq: string;
  at: string;
  kind: string;
  symbol: string | null;
  body: string;
  prev_hash: string;
  hash: string;
}

interface SegmentRow {
  first_seq: string;
  last_seq: string;
  prev_hash: string;
  last_hash: string;
}

const toEntry = (r: EntryRow): AuditEvent => ({
  seq: Number(r.seq),
  at: r.at,
  kind: r.kind,
  symbol: r.symbol,
  body: JSON.parse(r.body) as Record<string, unknown>,
  prev_hash: r.prev_hash,
  hash: r.hash,
});

/** The URL without its password (descriptions end up in log lines). */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

export interface PostgresArchiveOptions {
  /** Create no table, write nothing (the API process reads the archive `tcs audit archive` writes). */
  readOnly?: boolean;
}

export function postgresArchive(url: string, { readOnly = false }: PostgresArchiveOptions = {}): AuditArchive {
  const description = describePostgresUrl(url);
  let pool: Pool | null = null;
  const db = (): Pool => {
    if (pool === null) throw new Error('archive: used before it was ready');
    return pool;
  };
  let schema: Promise<void> | null = null;
  // `pg` is loaded on first use: every process that may look into the archive (the trading
  // process, the API) imports this module, and most never do, or use file:.
  const ready = (): Promise<void> =>
    (schema ??= (async () => {
      const { default: pg } = await import('pg');
      if (pool === null) {
        pool = new pg.Pool({
          connectionString: url,
          max: 2,
          // A reader answers an HTTP request: it gives up sooner, and the server refuses its writes.
          connectionTimeoutMillis: readOnly ? READER_TIMEOUT_MS : 10_000,
          ...(readOnly
            ? { options: `-c default_transaction_read_only=on -c statement_timeout=${READER_TIMEOUT_MS}` }
            : {}),
        });
        // An idle connection the server dropped is replaced on the next query; it must not crash the process.
        pool.on('error', () => {});
      }
      if (readOnly) await pool.query('SELECT 1');
      else
        await transaction(async (c) => {
          await c.query(SCHEMA);
        });
    })().catch((err: unknown) => {
      schema = null;
      // Named, so `tcs audit verify` says it was the archive that could not be reached (no password).
      throw new Error(`audit archive ${description}: ${(err as Error).message}`, { cause: err });
    }));

  async function transaction<T>(run: (c: PoolClient) => Promise<T>): Promise<T> {
    const c = await db().connect();
    try {
      await c.query('BEGIN');
      await c.query(LOCK);
      const out = await run(c);
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      c.release();
    }
  }

  const headOf = async (q: Pool | PoolClient): Promise<ChainFloor> => {
    const { rows } = await q.query<SegmentRow>(
      'SELECT last_seq, last_hash FROM tcs_audit_segments ORDER BY first_seq DESC LIMIT 1',
    );
    const [last] = rows;
    return last === undefined ? NO_FLOOR : { seq: Number(last.last_seq), hash: last.last_hash };
  };

  /** Entries it already holds must be the same entries: another hash under a seq is an error. */
  const checkHeld = async (c: PoolClient, entries: readonly AuditEvent[]): Promise<void> => {
    if (entries.length === 0) return;
    const { rows } = await c.query<{ seq: string; hash: string }>(
      'SELECT seq, hash FROM tcs_audit_entries WHERE seq = ANY($1::bigint[]) ORDER BY seq',
      [entries.map((e) => e.seq)],
    );
    const offered = new Map(entries.map((e) => [e.seq, e.hash]));
    for (const row of rows)
      if (offered.get(Number(row.seq)) !== row.hash)
        throw new Error(`archive: entry ${row.seq} is already archived with another hash; nothing written`);
  };

  const fullWalk = async (segments: SegmentRow[]): Promise<ArchiveVerification> => {
    let expected = 1;
    let prev: ChainFloor = NO_FLOOR;
    for (const s of segments) {
      const first = Number(s.first_seq);
      const last = Number(s.last_seq);
      if (first !== expected) return gapAt(expected, first);
      expected = last + 1;
      if (s.prev_hash !== prev.hash)
        return bad({ seq: first, reason: `segment ${first}–${last} does not link to entry ${prev.seq}` });
      const problem = await chainRange(first, last, s.last_hash, prev);
      if (problem) return bad(problem);
      prev = { seq: last, hash: s.last_hash };
    }
    return { ok: true, head: prev, segments: segments.length, checked: segments.length };
  };

  /** Re-chains entries first…last (stored as canonical text) from `prev`; the first problem, or null. */
  const chainRange = async (
    first: number,
    last: number,
    lastHash: string,
    prev: ChainFloor,
  ): Promise<ChainProblem | null> => {
    const walk = new ChainWalk({ seq: last, hash: lastHash, at: null }, prev);
    const { rows } = await db().query<EntryRow>(
      'SELECT seq, at, kind, symbol, body, prev_hash, hash FROM tcs_audit_entries WHERE seq BETWEEN $1 AND $2 ORDER BY seq',
      [first, last],
    );
    for (const row of rows) {
      let entry: AuditEvent;
      try {
        entry = toEntry(row);
      } catch {
        const gap = walk.gapBefore(Number(row.seq));
        return gap ?? { seq: Number(row.seq), reason: 'its body is not JSON' };
      }
      // Stored canonical: a body that is not (edited by hand) would re-hash differently.
      if (canonicalJson(entry.body) !== row.body)
        return walk.gapBefore(entry.seq) ?? { seq: entry.seq, reason: 'its body is not as written (edited?)' };
      const problem = walk.next(entry);
      if (problem) return problem;
    }
    return walk.end();
  };

  return {
    description,
    async head() {
      await ready();
      return headOf(db());
    },
    async write(given) {
      if (readOnly) throw new Error(`audit archive ${description} is opened read-only`);
      await ready();
      await transaction(async (c) => {
        const at = await headOf(c);
        await checkHeld(
          c,
          given.filter((e) => e.seq <= at.seq),
        );
        const segment = nextSegment(given, at);
        if (segment === null) return;
        const { entries, first, last } = segment;
        // Rows beyond the head without a segment (written by hand) are kept only when identical.
        await checkHeld(c, entries);
        await c.query(
          `INSERT INTO tcs_audit_entries (seq, at, kind, symbol, body, prev_hash, hash)
           SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
           ON CONFLICT (seq) DO NOTHING`,
          [
            entries.map((e) => e.seq),
            entries.map((e) => e.at),
            entries.map((e) => e.kind),
            entries.map((e) => e.symbol),
            entries.map((e) => canonicalJson(e.body)),
            entries.map((e) => e.prev_hash),
            entries.map((e) => e.hash),
          ],
        );
        await c.query(
          'INSERT INTO tcs_audit_segments (first_seq, last_seq, prev_hash, last_hash) VALUES ($1, $2, $3, $4)',
          [first.seq, last.seq, first.prev_hash, last.hash],
        );
      });
    },
    async hashAt(seq) {
      await ready();
      const { rows } = await db().query<{ hash: string }>('SELECT hash FROM tcs_audit_entries WHERE seq = $1', [seq]);
      return rows[0]?.hash ?? null;
    },
    async read(from, to) {
      await ready();
      const { rows } = await db().query<EntryRow>(
        'SELECT seq, at, kind, symbol, body, prev_hash, hash FROM tcs_audit_entries WHERE seq BETWEEN $1 AND $2 ORDER BY seq',
        [from, to],
      );
      return rows.map(toEntry);
    },
    async query(q, through) {
      await ready();
      const where = ['seq <= $1'];
      const params: Array<string | number> = [through];
      const add = (clause: string, value: string | number | undefined): void => {
        if (value === undefined) return;
        params.push(value);
        where.push(`${clause} $${params.length}`);
      };
      add('seq <', q.before);
      add('kind =', q.kind);
      add('symbol =', q.symbol);
      add('at >=', q.since);
      add('at <', q.until);
      params.push(q.limit);
      try {
        const { rows } = await db().query<EntryRow>(
          `SELECT seq, at, kind, symbol, body, prev_hash, hash FROM tcs_audit_entries
           WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT $${params.length}`,
          params,
        );
        return rows.map(toEntry);
      } catch (err) {
        throw new Error(`audit archive ${description}: ${(err as Error).message}`, { cause: err });
      }
    },
    async verify(options = {}) {
      await ready();
      const { rows: segments } = await db().query<SegmentRow>(
        'SELECT first_seq, last_seq, prev_hash, last_hash FROM tcs_audit_segments ORDER BY first_seq',
      );
      const { rows: marks } = await db().query<{ seq: string; hash: string }>(
        'SELECT seq, hash FROM tcs_audit_verified WHERE id = 1',
      );
      const mark = options.incremental && marks[0] ? { seq: Number(marks[0].seq), hash: marks[0].hash } : null;
      const result = mark === null ? await fullWalk(segments) : await incrementalWalk(segments, mark);
      if (!result.ok) return result;
      const head = await headOf(db());
      const { rows: beyond } = await db().query<{ seq: string | null }>(
        'SELECT min(seq) AS seq FROM tcs_audit_entries WHERE seq > $1',
        [head.seq],
      );
      if (beyond[0]?.seq != null)
        return bad({
          seq: Number(beyond[0].seq),
          reason: `entry lies beyond the archive's last segment (entry ${head.seq})`,
        });
      if (result.head.seq > 0 && !readOnly)
        await db().query(
          `INSERT INTO tcs_audit_verified (id, seq, hash) VALUES (1, $1, $2)
           ON CONFLICT (id) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash`,
          [result.head.seq, result.head.hash],
        );
      return result;
    },
    async close() {
      const open = pool;
      pool = null;
      schema = null;
      await open?.end();
    },
  };

  /**
   * Segments through the mark were re-chained before: their rows are counted (and the mark's entry
   * compared) instead; any shortfall falls back to the full walk, which names the missing entry.
   */
  async function incrementalWalk(segments: SegmentRow[], mark: ChainFloor): Promise<ArchiveVerification> {
    let expected = 1;
    let prev: ChainFloor = NO_FLOOR;
    let checked = 0;
    for (const s of segments) {
      const first = Number(s.first_seq);
      const last = Number(s.last_seq);
      if (first !== expected) return gapAt(expected, first);
      expected = last + 1;
      if (last <= mark.seq) {
        if (last === mark.seq) {
          const { rows } = await db().query<{ n: string; hash: string | null }>(
            `SELECT count(*) AS n, (SELECT hash FROM tcs_audit_entries WHERE seq = $1) AS hash
             FROM tcs_audit_entries WHERE seq <= $1`,
            [mark.seq],
          );
          if (Number(rows[0]?.n) !== mark.seq || rows[0]?.hash !== mark.hash || s.last_hash !== mark.hash)
            return fullWalk(segments);
          prev = mark;
        }
        continue;
      }
      if (s.prev_hash !== prev.hash)
        return bad({ seq: first, reason: `segment ${first}–${last} does not link to entry ${prev.seq}` });
      const problem = await chainRange(first, last, s.last_hash, prev);
      if (problem) return bad(problem);
      prev = { seq: last, hash: s.last_hash };
      checked += 1;
    }
    if (mark.seq >= expected)
      return bad({ seq: expected, reason: `the archive ends before entry ${mark.seq}, verified before (truncated)` });
    return { ok: true, head: prev, segments: segments.length, checked };
  }
}

const bad = (firstBad: ChainProblem): ArchiveVerification => ({ ok: false, firstBad });

const gapAt = (expected: number, first: number): ArchiveVerification =>
  bad({
    seq: expected,
    reason:
      first > expected
        ? `entries ${expected}–${first - 1} are missing in the archive (a segment deleted?)`
        : 'segments overlap',
  });
