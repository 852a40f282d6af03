/**
 * SIGKILL in the middle of `tcs audit archive` (issue 35): a real process is killed after its
 * first segments land, at several points of its run; a rerun then completes, and the archive plus
 * the hot store hold every entry exactly once, as one chain that verifies.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileArchive } from '../../src/adapters/archive/file-archive.js';
import { openStore } from '../../src/adapters/open-store.js';
import { archiveProblem } from '../../src/runtime/audit-archive.js';
import { startTcs } from '../support/processes.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('tcs audit archive killed mid-run', () => {
  it.each([1, 3])('loses and duplicates nothing when SIGKILLed after segment %i', { timeout: 120_000 }, async (k) => {
    const dir = mkdtempSync(join(tmpdir(), 'tcs-archive-kill-'));
    dirs.push(dir);
    const storeUrl = `sqlite:${join(dir, 'tcs.db')}`;
    const archiveDir = join(dir, 'archive');
    const total = 8000;
    const setup = await openStore(storeUrl);
    for (let i = 0; i < total; i++)
      await setup.events.append({
        kind: 'decision',
        at: new Date(1_767_225_600_000 + i * 1000).toISOString(),
        body: { i },
      });
    await setup.close();
    const env = { STORE_URL: storeUrl, AUDIT_ARCHIVE_URL: `file:${archiveDir}`, AUDIT_RETAIN: '500' };

    const run = startTcs(['audit', 'archive'], env, dir);
    const segment = new RegExp(`archived entries ${(k - 1) * 1000 + 1}–`);
    await run.waitFor(segment, 60_000);
    run.child.kill('SIGKILL');
    const ended = await run.exited;
    expect(ended.signal).toBe('SIGKILL');

    const rerun = startTcs(['audit', 'archive'], env, dir);
    expect((await rerun.exited).code, rerun.stderr()).toBe(0);

    const store = await openStore(storeUrl);
    try {
      const archive = fileArchive(archiveDir);
      expect(readdirSync(archiveDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      const floor = await store.events.floor();
      expect(floor.seq).toBe(total - 500);
      const archived = await archive.read(1, total);
      expect(archived.map((e) => e.seq)).toEqual(Array.from({ length: floor.seq }, (_, i) => i + 1));
      expect(await store.events.count()).toBe(500);
      expect(await archiveProblem(store.events, archive)).toBeNull();
      expect((await store.events.verify()).ok).toBe(true);
      const verify = startTcs(['audit', 'verify'], { ...env, TRADING_LATCH_PATH: join(dir, 'latch.json') }, dir);
      expect((await verify.exited).code, verify.stderr()).toBe(0);
    } finally {
      await store.close();
    }
  });
});
