/**
 * SIGKILL in the middle of `tcs audit archive` (issue 35), on both archives (a directory, and a
 * PostgreSQL database of the test's own, dropped after): a real process is killed after its first
 * segments land, at several points of its run; a rerun then completes, and the archive plus the hot
 * store hold every entry exactly once, as one chain that `tcs audit verify` passes. Deleting one
 * archived segment (file:) or row (postgres:) then makes `tcs audit verify` fail naming the gap.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileArchive } from '../../src/adapters/archive/file-archive.js';
import { postgresArchive } from '../../src/adapters/archive/postgres-archive.js';
import { openStore } from '../../src/adapters/open-store.js';
import type { AuditArchive } from '../../src/ports/audit-archive.js';
import { archiveProblem } from '../../src/runtime/audit-archive.js';
import { startTcs } from '../support/processes.js';
import { createTestDatabase } from '../support/postgres.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

interface Backend {
  url: string;
  open(): AuditArchive;
  /** No half-written segment left behind. */
  strays(): string[];
  /** Deletes archived entry 2500 (a row) or the segment holding it (a file), behind the archive's back. */
  damage(): Promise<void>;
  /** What `tcs audit verify` must name after damage(). */
  named: RegExp;
}

const backends: Record<string, (dir: string) => Promise<Backend>> = {
  file: async (dir) => {
    const archiveDir = join(dir, 'archive');
    return {
      url: `file:${archiveDir}`,
      open: () => fileArchive(archiveDir),
      strays: () => readdirSync(archiveDir).filter((f) => f.endsWith('.tmp')),
      damage: async () => rmSync(join(archiveDir, '000000002001-000000003000.jsonl.gz')),
      named: /entry 2001: entries 2001–3000 are missing/,
    };
  },
  postgres: async () => {
    const db = await createTestDatabase();
    cleanups.push(() => db.drop());
    return {
      url: db.url,
      open: () => postgresArchive(db.url),
      strays: () => [],
      damage: async () => void (await db.query('DELETE FROM tcs_audit_entries WHERE seq = 2500')),
      named: /entry 2500: entry 2500 is missing/,
    };
  },
};

describe('tcs audit archive killed mid-run', () => {
  it.each([
    ['file', 1],
    ['file', 3],
    ['postgres', 1],
    ['postgres', 3],
  ])('%s: loses and duplicates nothing when SIGKILLed after segment %i', { timeout: 120_000 }, async (kind, k) => {
    const dir = mkdtempSync(join(tmpdir(), 'tcs-archive-kill-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const backend = await backends[kind]!(dir);
    const storeUrl = `sqlite:${join(dir, 'tcs.db')}`;
    const total = 8000;
    const setup = await openStore(storeUrl);
    for (let i = 0; i < total; i++)
      await setup.events.append({
        kind: 'decision',
        at: new Date(1_767_225_600_000 + i * 1000).toISOString(),
        body: { i },
      });
    await setup.close();
    const env = { STORE_URL: storeUrl, AUDIT_ARCHIVE_URL: backend.url, AUDIT_RETAIN: '500' };

    const run = startTcs(['audit', 'archive'], env, dir);
    const segment = new RegExp(`archived entries ${(k - 1) * 1000 + 1}–`);
    await run.waitFor(segment, 60_000);
    run.child.kill('SIGKILL');
    const ended = await run.exited;
    expect(ended.signal).toBe('SIGKILL');

    const rerun = startTcs(['audit', 'archive'], env, dir);
    expect((await rerun.exited).code, rerun.stderr()).toBe(0);

    const store = await openStore(storeUrl);
    const archive = backend.open();
    const verifyEnv = { ...env, TRADING_LATCH_PATH: join(dir, 'latch.json') };
    try {
      expect(backend.strays()).toEqual([]);
      const floor = await store.events.floor();
      expect(floor.seq).toBe(total - 500);
      const archived = await archive.read(1, total);
      expect(archived.map((e) => e.seq)).toEqual(Array.from({ length: floor.seq }, (_, i) => i + 1));
      expect(await store.events.count()).toBe(500);
      expect(await archiveProblem(store.events, archive)).toBeNull();
      expect((await store.events.verify()).ok).toBe(true);
      const verify = startTcs(['audit', 'verify'], verifyEnv, dir);
      expect((await verify.exited).code, verify.stderr()).toBe(0);
    } finally {
      await archive.close();
      await store.close();
    }

    await backend.damage();
    const broken = startTcs(['audit', 'verify'], verifyEnv, dir);
    expect((await broken.exited).code).toBe(1);
    expect(broken.stderr()).toMatch(backend.named);
  });
});
