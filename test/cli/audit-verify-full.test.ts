/**
 * `tcs audit verify --full` (issue 35): the incremental verification of a PostgreSQL archive counts
 * the rows verified before instead of re-hashing them; --full re-hashes the whole archive and so
 * names a row edited behind its back (a database of the test's own, dropped after).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresArchive } from '../../src/adapters/archive/postgres-archive.js';
import { openStore } from '../../src/adapters/open-store.js';
import { archiveAndTrim } from '../../src/application/audit-archiver.js';
import { createTestDatabase } from '../support/postgres.js';
import { startTcs } from '../support/processes.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('tcs audit verify --full', () => {
  it('re-hashes every archived row and names the one edited', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tcs-verify-full-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const db = await createTestDatabase();
    cleanups.push(() => db.drop());
    const storeUrl = `sqlite:${join(dir, 'tcs.db')}`;
    const store = await openStore(storeUrl);
    const archive = postgresArchive(db.url);
    try {
      for (let i = 0; i < 1200; i++)
        await store.events.append({
          kind: 'decision',
          at: new Date(1_767_225_600_000 + i * 1000).toISOString(),
          body: { i },
        });
      await archiveAndTrim(store.events, archive, { entries: 100 }, Date.now());
    } finally {
      await archive.close();
      await store.close();
    }
    const env = { STORE_URL: storeUrl, AUDIT_ARCHIVE_URL: db.url, TRADING_LATCH_PATH: join(dir, 'latch.json') };
    const first = startTcs(['audit', 'verify'], env, dir);
    expect((await first.exited).code, first.stderr()).toBe(0);

    await db.query(`UPDATE tcs_audit_entries SET body = '{"i":-1}' WHERE seq = 500`);
    const full = startTcs(['audit', 'verify', '--full'], env, dir);
    expect((await full.exited).code).toBe(1);
    expect(full.stderr()).toMatch(/archive BROKEN at entry 500: hash does not match the entry contents/);
  });
});
