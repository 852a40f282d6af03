/**
 * The console's decision pages across the archive (issue 35, item 4): the page's X-Audit-Archive
 * header reaches the panel through Api.getPage (here against the real API, listening on loopback,
 * on a store trimmed into an archive that is gone), and the panel's note says what it means.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Api } from '../../console/lib/api.js';
import { archiveNote } from '../../console/lib/archive-note.js';
import { fileArchive } from '../../src/adapters/archive/file-archive.js';
import { archiveAndTrim } from '../../src/application/audit-archiver.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

describe('archiveNote', () => {
  it('says nothing when the archive was not needed or was read, and why a page is short when it was not', () => {
    expect(archiveNote('unused')).toBeNull();
    expect(archiveNote('read')).toBeNull();
    expect(archiveNote(null)).toBeNull(); // an older API without the header
    expect(archiveNote('unavailable')).toMatch(/archive.*cannot be read.*older decisions/i);
  });
});

describe('Api.getPage', () => {
  let api: TestApi | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await api?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    api = dir = undefined;
  });

  it('hands the page and the X-Audit-Archive header of /reports/decisions to the panel', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-console-archive-'));
    const path = join(dir, 'archive');
    api = await openTestApi('sqlite', { archive: fileArchive(path, { readOnly: true }) });
    for (let cycle = 1; cycle <= 30; cycle++)
      await api.store.events.append({ kind: 'decision', at: new Date().toISOString(), body: { cycle } });
    await archiveAndTrim(api.store.events, fileArchive(path), { entries: 10 }, Date.now());
    rmSync(path, { recursive: true });
    const base = await api.app.listen({ host: '127.0.0.1', port: 0 });
    const client = new Api(api.key);
    const first = await client.getPage<{ seq: number }[]>(`${base}/reports/decisions`, { limit: 5 });
    expect(first).toMatchObject({ archive: 'unused' });
    expect(first.body.map((d) => d.seq)).toEqual([30, 29, 28, 27, 26]);
    const seam = await client.getPage<{ seq: number }[]>(`${base}/reports/decisions`, { limit: 20 });
    expect(seam.archive).toBe('unavailable');
    expect(seam.body).toHaveLength(10);
  });
});
