/**
 * Archive-then-trim end to end on a real SQLite store and a real archive directory, and on a
 * PostgreSQL archive (a database of the test's own, dropped after) (issue 35):
 * the hot store keeps its window, the archive and the window verify as one chain, a deleted
 * segment is named as a gap, and a run interrupted after archiving (before trimming) resumes.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileArchive } from '../../src/adapters/archive/file-archive.js';
import { postgresArchive } from '../../src/adapters/archive/postgres-archive.js';
import { openStore } from '../../src/adapters/open-store.js';
import { archiveAndTrim, ArchiveTruncatedError, parseRetention } from '../../src/application/audit-archiver.js';
import type { AuditArchive } from '../../src/ports/audit-archive.js';
import type { Store } from '../../src/ports/store.js';
import { archiveProblem } from '../../src/runtime/audit-archive.js';
import { createTestDatabase } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function setup(n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'tcs-archive-'));
  dirs.push(dir);
  const store = await openStore(`sqlite:${join(dir, 'tcs.db')}`);
  stores.push(store);
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  for (let i = 0; i < n; i++)
    await store.events.append({
      kind: 'decision',
      at: new Date(t0 + i * 60_000).toISOString(),
      symbol: 'BTC-USD',
      body: { i },
    });
  return { store, archiveDir: join(dir, 'archive'), t0 };
}

describe('archiveAndTrim', () => {
  it('parses retention as entries or age and refuses anything else', () => {
    expect(parseRetention('10080')).toEqual({ entries: 10080 });
    expect(parseRetention('7d')).toEqual({ ageMs: 7 * 86_400_000 });
    expect(() => parseRetention('7 weeks')).toThrow(/AUDIT_RETAIN/);
    expect(() => parseRetention('0')).toThrow(/at least 1/);
  });

  it('keeps the window, archives the rest, and both verify as one chain', async () => {
    const { store, archiveDir } = await setup(2500);
    const archive = fileArchive(archiveDir);
    const run = await archiveAndTrim(store.events, archive, { entries: 300 }, Date.now());
    expect(run).toEqual({ archived: 2200, trimmed: 2200, floor: 2200 });
    expect(await store.events.count()).toBe(300);
    expect(readdirSync(archiveDir).filter((f) => f.endsWith('.gz'))).toEqual([
      '000000000001-000000001000.jsonl.gz',
      '000000001001-000000002000.jsonl.gz',
      '000000002001-000000002200.jsonl.gz',
    ]);
    expect(await archiveProblem(store.events, archive)).toBeNull();
    expect((await store.events.verify()).ok).toBe(true);
    // Idempotent: a second run with nothing new archives and trims nothing.
    expect(await archiveAndTrim(store.events, archive, { entries: 300 }, Date.now())).toEqual({
      archived: 0,
      trimmed: 0,
      floor: 2200,
    });
    expect((await archive.read(999, 1001)).map((e) => e.seq)).toEqual([999, 1000, 1001]);
  });

  it('by age: trims entries older than the window only', async () => {
    const { store, archiveDir, t0 } = await setup(100);
    const run = await archiveAndTrim(store.events, fileArchive(archiveDir), { ageMs: 30 * 60_000 }, t0 + 100 * 60_000);
    // Entries 1..70 are stamped before now - 30 min.
    expect(run.floor).toBe(70);
  });

  it('deleting an archived segment fails verify naming the gap, even incrementally', async () => {
    const { store, archiveDir } = await setup(2500);
    const archive = fileArchive(archiveDir);
    await archiveAndTrim(store.events, archive, { entries: 300 }, Date.now());
    expect(await archiveProblem(store.events, archive)).toBeNull(); // remembers the verified head
    rmSync(join(archiveDir, '000000001001-000000002000.jsonl.gz'));
    expect(await archiveProblem(store.events, archive)).toMatch(/entry 1001: entries 1001–2000 are missing/);
  });

  it('a truncated archive (its last segment gone) is named, and archiving refuses to go on', async () => {
    const { store, archiveDir } = await setup(2500);
    const archive = fileArchive(archiveDir);
    await archiveAndTrim(store.events, archive, { entries: 300 }, Date.now());
    rmSync(join(archiveDir, '000000002001-000000002200.jsonl.gz'));
    rmSync(join(archiveDir, 'verified.json'), { force: true });
    expect(await archiveProblem(store.events, archive)).toMatch(/archive ends at entry 2000 .* trimmed through 2200/);
    await expect(archiveAndTrim(store.events, archive, { entries: 300 }, Date.now())).rejects.toThrow(
      ArchiveTruncatedError,
    );
  });

  it('resumes after a crash between writing a segment and trimming it: nothing lost, nothing twice', async () => {
    const { store, archiveDir } = await setup(1500);
    const archive = fileArchive(archiveDir);
    // The crash: the segment is written, the trim never happened.
    await archive.write((await store.events.query({ limit: 1000, before: 1001 })).reverse());
    const run = await archiveAndTrim(store.events, archive, { entries: 200 }, Date.now());
    expect(run).toEqual({ archived: 300, trimmed: 1300, floor: 1300 });
    expect((await archive.read(1, 1300)).map((e) => e.seq)).toEqual(Array.from({ length: 1300 }, (_, i) => i + 1));
    expect(await archiveProblem(store.events, archive)).toBeNull();
  });
});

describe('archiveAndTrim to PostgreSQL', () => {
  const dbs: TestDatabase[] = [];
  const archives: AuditArchive[] = [];
  afterEach(async () => {
    for (const a of archives.splice(0)) await a.close();
    for (const db of dbs.splice(0)) await db.drop();
  });
  async function pgSetup(n: number) {
    const { store } = await setup(n);
    const db = await createTestDatabase();
    dbs.push(db);
    const archive = postgresArchive(db.url);
    archives.push(archive);
    return { store, db, archive };
  }

  it('keeps the window, archives the rest, both verify as one chain, and a rerun does nothing', async () => {
    const { store, archive } = await pgSetup(2500);
    expect(await archiveAndTrim(store.events, archive, { entries: 300 }, Date.now())).toEqual({
      archived: 2200,
      trimmed: 2200,
      floor: 2200,
    });
    expect(await store.events.count()).toBe(300);
    expect(await archiveProblem(store.events, archive)).toBeNull();
    expect(await archiveAndTrim(store.events, archive, { entries: 300 }, Date.now())).toEqual({
      archived: 0,
      trimmed: 0,
      floor: 2200,
    });
  });

  it('a truncated archive (its last segment and rows gone) is named, and archiving refuses to go on', async () => {
    const { store, db, archive } = await pgSetup(2500);
    await archiveAndTrim(store.events, archive, { entries: 300 }, Date.now());
    await db.query('DELETE FROM tcs_audit_entries WHERE seq > 2000');
    await db.query('DELETE FROM tcs_audit_segments WHERE first_seq = 2001');
    await db.query('DELETE FROM tcs_audit_verified');
    expect(await archiveProblem(store.events, archive)).toMatch(/archive ends at entry 2000 .* trimmed through 2200/);
    await expect(archiveAndTrim(store.events, archive, { entries: 300 }, Date.now())).rejects.toThrow(
      ArchiveTruncatedError,
    );
  });

  it('resumes after a crash between writing a segment and trimming it: nothing lost, nothing twice', async () => {
    const { store, archive } = await pgSetup(1500);
    await archive.write((await store.events.query({ limit: 1000, before: 1001 })).reverse());
    const run = await archiveAndTrim(store.events, archive, { entries: 200 }, Date.now());
    expect(run).toEqual({ archived: 300, trimmed: 1300, floor: 1300 });
    expect((await archive.read(1, 1300)).map((e) => e.seq)).toEqual(Array.from({ length: 1300 }, (_, i) => i + 1));
    expect(await archiveProblem(store.events, archive)).toBeNull();
  });
});
