/**
 * GET /reports/audit-chain on a store trimmed after archiving (issue 35): besides re-hashing the
 * store's window it holds the store's floor against the archive, read-only (the seam `tcs audit
 * verify` checks): linked when the archive holds the last trimmed entry with its hash, broken (and
 * `ok: false`, naming the entry) when the archive was truncated, unavailable (the window's verdict
 * kept, a 200) when the archive cannot be read; nothing to check on a store never trimmed.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileArchive } from '../../src/adapters/archive/file-archive.js';
import { archiveAndTrim } from '../../src/application/audit-archiver.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

describe('GET /reports/audit-chain across the archive', () => {
  let api: TestApi | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await api?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    api = dir = undefined;
  });

  async function trimmed({ trim = true } = {}) {
    dir = mkdtempSync(join(tmpdir(), 'tcs-audit-chain-archive-'));
    const path = join(dir, 'archive');
    api = await openTestApi('sqlite', { archive: fileArchive(path, { readOnly: true }) });
    for (let i = 1; i <= 2500; i++)
      await api.store.events.append({ kind: 'note', at: new Date().toISOString(), body: { i } });
    if (trim) await archiveAndTrim(api.store.events, fileArchive(path), { entries: 100 }, Date.now());
    return path;
  }
  const chain = async () => {
    const res = await api!.app.inject({ method: 'GET', url: '/reports/audit-chain', headers: api!.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, unknown>;
  };

  it('a store never trimmed: nothing to hold against the archive', async () => {
    await trimmed({ trim: false });
    expect(await chain()).toMatchObject({
      ok: true,
      count: 2500,
      archive: { status: 'none', floor: 0, problem: null },
    });
  });

  it('trimmed, with the archive holding the last trimmed entry: linked', async () => {
    await trimmed();
    expect(await chain()).toMatchObject({
      ok: true,
      count: 100,
      first_bad: null,
      archive: { status: 'linked', floor: 2400, problem: null },
    });
  });

  it('the archive truncated (its last segment gone): broken, naming the entry', async () => {
    const path = await trimmed();
    const last = readdirSync(path)
      .filter((f) => f.endsWith('.jsonl.gz'))
      .sort()
      .at(-1)!;
    expect(last).toBe('000000002001-000000002400.jsonl.gz');
    rmSync(join(path, last));
    const body = await chain();
    expect(body).toMatchObject({
      ok: false,
      head: null,
      first_bad: { seq: 2400 },
      archive: { status: 'broken', floor: 2400 },
    });
    expect((body.first_bad as { reason: string }).reason).toMatch(/archive does not hold entry 2400/);
  });

  it('the archive gone: the window verified, the archive said unavailable, no path or stack', async () => {
    const path = await trimmed();
    rmSync(path, { recursive: true });
    const body = await chain();
    expect(body).toMatchObject({ ok: true, count: 100, archive: { status: 'unavailable', floor: 2400 } });
    expect(JSON.stringify(body)).not.toContain(path);
    expect(JSON.stringify(body)).not.toMatch(/ENOENT|\sat\s/);
  });
});
