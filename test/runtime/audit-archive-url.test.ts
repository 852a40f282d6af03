/**
 * AUDIT_ARCHIVE_URL chooses the archive by its scheme; anything else is a clear error without the
 * password. The start-up latch check's single lookup closes what it opened. The API process opens it
 * read-only, and a URL it cannot use leaves it without an archive (said why) rather than not starting.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postgresArchive } from '../../src/adapters/archive/postgres-archive.js';
import { ConfigError } from '../../src/runtime/config-error.js';
import { archivedHash, openArchive, openArchiveForReading } from '../../src/runtime/audit-archive.js';
import { chainOf } from '../contracts/audit-archive.contract.js';
import { createTestDatabase } from '../support/postgres.js';

describe('openArchive', () => {
  it('opens a directory for file: and a database for postgres:// or postgresql://', async () => {
    expect(openArchive({ AUDIT_ARCHIVE_URL: 'file:/tmp/tcs-archive-url-test' }).description).toBe(
      'file:/tmp/tcs-archive-url-test',
    );
    for (const scheme of ['postgres', 'postgresql']) {
      const archive = openArchive({ AUDIT_ARCHIVE_URL: `${scheme}://tcs:pw@127.0.0.1:5432/audit` });
      try {
        expect(archive.description).toBe(`${scheme}://tcs@127.0.0.1:5432/audit`);
      } finally {
        await archive.close();
      }
    }
  });

  it('refuses another scheme, naming the two it takes and never the password', () => {
    const open = () => openArchive({ AUDIT_ARCHIVE_URL: 'mysql://tcs:hunter2@db/audit' });
    expect(open).toThrow(ConfigError);
    expect(open).toThrow(/file:<directory> or postgres:\/\//);
    expect(open).not.toThrow(/hunter2/);
    expect(() => openArchive({ AUDIT_ARCHIVE_URL: 'file:' })).toThrow(ConfigError);
  });

  it('looks one hash up for the start-up check and leaves no connection open', async () => {
    const db = await createTestDatabase();
    try {
      const chain = chainOf(5);
      const archive = postgresArchive(db.url);
      await archive.write(chain);
      await archive.close();
      expect(await archivedHash({ AUDIT_ARCHIVE_URL: db.url }, 3)).toBe(chain[2]!.hash);
      expect(await archivedHash({ AUDIT_ARCHIVE_URL: db.url }, 9)).toBeNull();
      const { rows } = await db.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [db.name],
      );
      expect(rows[0]).toEqual({ n: 0 });
    } finally {
      await db.drop();
    }
  });
});

describe('archivedHash (the start-up check of a trimmed store)', () => {
  it('reads the archive without writing to it: a file: directory that is not there holds nothing and is not created', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'tcs-archive-url-'));
    try {
      const dir = join(parent, 'archive');
      // The trading process asks; the archive belongs to `tcs audit archive` (its own job, maybe its own user).
      expect(await archivedHash({ AUDIT_ARCHIVE_URL: `file:${dir}` }, 3)).toBeNull();
      expect(existsSync(dir)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('a database the archiver never wrote to holds nothing, and no table is created in it', async () => {
    const db = await createTestDatabase();
    try {
      expect(await archivedHash({ AUDIT_ARCHIVE_URL: db.url }, 3)).toBeNull();
      const { rows } = await db.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'tcs_audit%'");
      expect(rows[0]).toEqual({ n: 0 });
    } finally {
      await db.drop();
    }
  });
});

describe('openArchiveForReading (the API process)', () => {
  it('opens file: read-only: the directory is not created', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'tcs-archive-url-'));
    try {
      const dir = join(parent, 'archive');
      const { archive, problem } = openArchiveForReading({ AUDIT_ARCHIVE_URL: `file:${dir}` });
      expect(problem).toBeNull();
      expect(archive?.description).toBe(`file:${dir}`);
      await expect(archive!.query({ limit: 1 }, 5)).rejects.toThrow(/audit archive/);
      await expect(archive!.write(chainOf(1))).rejects.toThrow(/read-only/);
      expect(existsSync(dir)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('a URL it cannot use: no archive, the reason without the password, and no throw', () => {
    const { archive, problem } = openArchiveForReading({ AUDIT_ARCHIVE_URL: 'mysql://tcs:hunter2@db/audit' });
    expect(archive).toBeNull();
    expect(problem).toMatch(/AUDIT_ARCHIVE_URL must be file:<directory> or postgres:\/\//);
    expect(problem).not.toContain('hunter2');
  });
});
