/**
 * The audit archive contract on PostgreSQL (`postgres://`), each backend a database of its own on
 * the local server, dropped afterwards; and what only a database can get wrong: a row beyond the head
 * with another hash is an error, never kept silently, no password ever reaches the description, and
 * opened read-only (the API process) it creates and writes nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { postgresArchive } from '../../../src/adapters/archive/postgres-archive.js';
import { auditArchiveContract, chainOf } from '../../contracts/audit-archive.contract.js';
import { createTestDatabase } from '../../support/postgres.js';
import type { TestDatabase } from '../../support/postgres.js';

auditArchiveContract('postgres', async () => {
  const db = await createTestDatabase();
  return {
    open: async () => postgresArchive(db.url),
    openReadOnly: async () => postgresArchive(db.url, { readOnly: true }),
    deleteSegment: async (first) =>
      void (await db.query('DELETE FROM tcs_audit_segments WHERE first_seq = $1', [first])),
    deleteEntry: async (seq) => void (await db.query('DELETE FROM tcs_audit_entries WHERE seq = $1', [seq])),
    dispose: () => db.drop(),
  };
});

describe('postgresArchive', () => {
  const dbs: TestDatabase[] = [];
  afterEach(async () => {
    for (const db of dbs.splice(0)) await db.drop();
  });

  it('refuses a row left beyond its head (written by hand) that holds another hash', async () => {
    const db = await createTestDatabase();
    dbs.push(db);
    const archive = postgresArchive(db.url);
    try {
      const chain = chainOf(20);
      await archive.write(chain.slice(0, 10));
      await db.query(
        `INSERT INTO tcs_audit_entries (seq, at, kind, symbol, body, prev_hash, hash) VALUES (11, 'x', 'k', NULL, '{}', 'p', $1)`,
        ['e'.repeat(64)],
      );
      await expect(archive.write(chain.slice(10, 20))).rejects.toThrow(/entry 11 .*another hash/);
      expect(await archive.head()).toEqual({ seq: 10, hash: chain[9]!.hash });
    } finally {
      await archive.close();
    }
  });

  it('a full verification names a row edited behind its back', async () => {
    const db = await createTestDatabase();
    dbs.push(db);
    const archive = postgresArchive(db.url);
    try {
      const chain = chainOf(30);
      for (const from of [0, 10, 20]) await archive.write(chain.slice(from, from + 10));
      await db.query(`UPDATE tcs_audit_entries SET body = '{"i":99}' WHERE seq = 15`);
      const result = await archive.verify();
      expect(result).toMatchObject({ ok: false, firstBad: { seq: 15 } });
      if (!result.ok) expect(result.firstBad.reason).toMatch(/does not match the entry contents/);
    } finally {
      await archive.close();
    }
  });

  it('opened read-only, creates no table and remembers no verification', async () => {
    const db = await createTestDatabase();
    dbs.push(db);
    const reader = postgresArchive(db.url, { readOnly: true });
    try {
      await expect(reader.query({ limit: 5 }, 10)).rejects.toThrow(
        /^audit archive .*tcs_audit_entries.* does not exist/,
      );
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'tcs_audit_%'`);
      expect(rows[0]).toEqual({ n: 0 });
      // Even a verification (which remembers its mark when writable) writes nothing.
      const writer = postgresArchive(db.url);
      try {
        await writer.write(chainOf(10));
      } finally {
        await writer.close();
      }
      expect((await reader.verify({ incremental: true })).ok).toBe(true);
      const marks = await db.query('SELECT count(*)::int AS n FROM tcs_audit_verified');
      expect(marks.rows[0]).toEqual({ n: 0 });
    } finally {
      await reader.close();
    }
  });

  it('describes itself without the password, also when it cannot be reached', async () => {
    const archive = postgresArchive('postgres://tcs:s3cret@127.0.0.1:5432/tcs_no_such_database');
    try {
      expect(archive.description).toBe('postgres://tcs@127.0.0.1:5432/tcs_no_such_database');
      const failure = archive.head().then(
        () => null,
        (err: unknown) => (err as Error).message,
      );
      expect(await failure).toMatch(/^audit archive postgres:\/\/tcs@127\.0\.0\.1:5432\/tcs_no_such_database: /);
      expect(await failure).not.toContain('s3cret');
    } finally {
      await archive.close();
    }
  });
});
