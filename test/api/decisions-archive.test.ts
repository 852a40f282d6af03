/**
 * GET /reports/decisions across the archive (issue 35, item 4): on a real SQLite store trimmed after
 * archiving, to a `file:` directory and to a PostgreSQL database of the test's own (dropped after),
 * paging with `before` walks archive + store as one sequence, newest first, with no gap and no
 * duplicate at the seam, filters included; `X-Audit-Archive` says whether the archive was read. An
 * archive that cannot be read leaves the store's part answered (200, `unavailable`), never a 500;
 * bad paging is still a 422 that reads nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileArchive } from '../../src/adapters/archive/file-archive.js';
import { postgresArchive } from '../../src/adapters/archive/postgres-archive.js';
import { archiveAndTrim } from '../../src/application/audit-archiver.js';
import type { AuditArchive } from '../../src/ports/audit-archive.js';
import type { AuditEvent } from '../../src/ports/event-store.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

interface Backend {
  /** The archive `tcs audit archive` writes with. */
  writer: AuditArchive;
  /** The same archive as the API opens it. */
  reader: AuditArchive;
  dispose(): Promise<void>;
}

async function fileBackend(): Promise<Backend> {
  const dir = mkdtempSync(join(tmpdir(), 'tcs-decisions-archive-'));
  const path = join(dir, 'archive');
  return {
    writer: fileArchive(path),
    reader: fileArchive(path, { readOnly: true }),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresBackend(): Promise<Backend> {
  const db: TestDatabase = await createTestDatabase();
  const writer = postgresArchive(db.url);
  const reader = postgresArchive(db.url, { readOnly: true });
  return {
    writer,
    reader,
    async dispose() {
      await reader.close();
      await writer.close();
      await db.drop();
    },
  };
}

type Page = { seq: number; symbol: string | null; decision: { cycle: number } }[];

describe.each([
  ['file:', fileBackend],
  ['postgres://', postgresBackend],
] as const)('GET /reports/decisions across a %s archive', (_name, open) => {
  let api: TestApi | undefined;
  let backend: Backend | undefined;
  afterEach(async () => {
    await api?.close();
    await backend?.dispose();
    api = backend = undefined;
  });

  /**
   * 60 cycles, each a decision (BTC and ETH in turn) and every third a control call between them;
   * archived three times (so the archive holds several segments) and trimmed to a window of 12.
   */
  async function trimmedApi(archive: 'reader' | AuditArchive | null = 'reader') {
    backend = await open();
    const reader = archive === 'reader' ? backend.reader : archive;
    api = await openTestApi('sqlite', { archive: reader });
    const decisions: AuditEvent[] = [];
    const append = async (from: number, to: number) => {
      for (let cycle = from; cycle <= to; cycle++) {
        const at = new Date(T0 + cycle * 60_000).toISOString();
        decisions.push(
          await api!.store.events.append({
            kind: 'decision',
            at,
            symbol: cycle % 2 ? 'BTCUSDT' : 'ETHUSDT',
            body: { cycle },
          }),
        );
        if (cycle % 3 === 0) await api!.store.events.append({ kind: 'control_call', at, body: { call: 'noise' } });
      }
    };
    await append(1, 20);
    await archiveAndTrim(api.store.events, backend.writer, { entries: 5 }, Date.now());
    await append(21, 45);
    await archiveAndTrim(api.store.events, backend.writer, { entries: 7 }, Date.now());
    await append(46, 60);
    await archiveAndTrim(api.store.events, backend.writer, { entries: 12 }, Date.now());
    const floor = (await api.store.events.floor()).seq;
    expect(floor).toBeGreaterThan(50); // most of the trail lives only in the archive now
    expect(await api.store.events.count()).toBe(12);
    return { api, decisions, floor };
  }

  const get = (path: string) => api!.app.inject({ method: 'GET', url: path, headers: api!.auth });

  /** Every page from the newest, following `before` = the smallest seq of the page before. */
  async function walk(query: string): Promise<{ pages: Page[]; archive: string[] }> {
    const pages: Page[] = [];
    const archive: string[] = [];
    for (let before: number | undefined; ;) {
      const res = await get(`/reports/decisions?${query}${before === undefined ? '' : `&before=${before}`}`);
      expect(res.statusCode, res.body).toBe(200);
      archive.push(String(res.headers['x-audit-archive']));
      const page = res.json() as Page;
      if (page.length === 0) break;
      pages.push(page);
      before = page.at(-1)!.seq;
    }
    return { pages, archive };
  }

  it('pages across the seam as one sequence: every decision once, newest first, full pages', async () => {
    const { decisions, floor } = await trimmedApi();
    const { pages, archive } = await walk('limit=7');
    const seqs = pages.flat().map((d) => d.seq);
    expect(seqs).toEqual(decisions.map((d) => d.seq).reverse());
    expect(pages.flat().map((d) => d.decision.cycle)).toEqual(decisions.map((d) => d.body.cycle).reverse());
    expect(pages.slice(0, -1).every((p) => p.length === 7)).toBe(true);
    // One page straddles the seam: entries above the floor from the store, the rest from the archive.
    const seam = pages.find((p) => p[0]!.seq > floor && p.at(-1)!.seq <= floor);
    expect(seam).toBeDefined();
    expect(archive[0]).toBe('unused'); // the newest page is the store's alone
    expect(archive.slice(1, -1)).toEqual(archive.slice(1, -1).map(() => 'read'));
    expect(archive.at(-1)).toBe('unused'); // before=1: nothing can lie below entry 1
  });

  it('keeps the filters across the seam: symbol, since and until', async () => {
    const { decisions } = await trimmedApi();
    const since = new Date(T0 + 10 * 60_000).toISOString();
    const until = new Date(T0 + 58 * 60_000).toISOString();
    const wanted = decisions
      .filter((d) => d.symbol === 'ETHUSDT' && d.at >= since && d.at < until)
      .map((d) => d.seq)
      .reverse();
    const { pages } = await walk(`limit=4&symbol=ETHUSDT&since=${since}&until=${until}`);
    expect(pages.flat().map((d) => d.seq)).toEqual(wanted);
    expect(pages.flat().every((d) => d.symbol === 'ETHUSDT')).toBe(true);
  });

  it('a page wholly below the floor comes from the archive, exactly', async () => {
    const { decisions, floor } = await trimmedApi();
    const res = await get(`/reports/decisions?limit=3&before=${floor - 20}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-audit-archive']).toBe('read');
    const wanted = decisions
      .filter((d) => d.seq < floor - 20)
      .slice(-3)
      .reverse();
    expect(res.json()).toEqual(
      wanted.map((d) => ({
        seq: d.seq,
        at: d.at,
        symbol: d.symbol,
        hash: d.hash,
        prev_hash: d.prev_hash,
        decision: d.body,
      })),
    );
  });

  it('bad paging is still a 422 that reads nothing', async () => {
    await trimmedApi();
    for (const q of [
      'limit=0',
      'limit=1001',
      'before=0',
      'before=-3',
      'limit=abc',
      'since=yesterday',
      'kind=decision',
    ]) {
      const res = await get(`/reports/decisions?${q}`);
      expect(res.statusCode, q).toBe(422);
      expect(res.headers['x-audit-archive'], q).toBeUndefined();
    }
  });
});

describe('GET /reports/decisions when the archive cannot be read', () => {
  let api: TestApi | undefined;
  const dirs: string[] = [];
  const readers: AuditArchive[] = [];
  afterEach(async () => {
    await api?.close();
    api = undefined;
    for (const r of readers.splice(0)) await r.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  /** A store trimmed through entry 30 into an archive that is then taken away (or never given). */
  async function trimmedWithout(reader: (dir: string) => AuditArchive | null) {
    const dir = mkdtempSync(join(tmpdir(), 'tcs-decisions-archive-'));
    dirs.push(dir);
    const archive = reader(join(dir, 'archive'));
    if (archive !== null) readers.push(archive);
    api = await openTestApi('sqlite', { archive });
    for (let cycle = 1; cycle <= 40; cycle++)
      await api.store.events.append({
        kind: 'decision',
        at: new Date(T0 + cycle * 60_000).toISOString(),
        symbol: 'BTCUSDT',
        body: { cycle },
      });
    await archiveAndTrim(api.store.events, fileArchive(join(dir, 'archive')), { entries: 10 }, Date.now());
    return { dir, api };
  }

  const get = (path: string) => api!.app.inject({ method: 'GET', url: path, headers: api!.auth });

  it.each([
    ['its directory is gone', (dir: string) => fileArchive(dir, { readOnly: true }), true],
    [
      'PostgreSQL does not answer',
      () => postgresArchive('postgres://tcs:s3cret@127.0.0.1:1/tcs_gone', { readOnly: true }),
      false,
    ],
    ['none is configured', () => null, false],
  ] as const)(
    '%s: the store part is answered and the archive part said to be unavailable',
    async (_name, reader, remove) => {
      const { dir } = await trimmedWithout(reader);
      if (remove) rmSync(join(dir, 'archive'), { recursive: true });
      // The newest page needs nothing from the archive.
      const newest = await get('/reports/decisions?limit=5');
      expect(newest.statusCode).toBe(200);
      expect(newest.headers['x-audit-archive']).toBe('unused');
      // A page across the seam: the store's 10 entries, and the archive's part missing, said so.
      const seam = await get('/reports/decisions?limit=25');
      expect(seam.statusCode, seam.body).toBe(200);
      expect(seam.headers['x-audit-archive']).toBe('unavailable');
      expect((seam.json() as Page).map((d) => d.decision.cycle)).toEqual([40, 39, 38, 37, 36, 35, 34, 33, 32, 31]);
      // Below the floor: an empty page, still 200, still said; never a stack or a password.
      const older = await get('/reports/decisions?before=20');
      expect(older.statusCode).toBe(200);
      expect(older.headers['x-audit-archive']).toBe('unavailable');
      expect(older.json()).toEqual([]);
      expect(older.body + JSON.stringify(older.headers)).not.toMatch(/s3cret|ENOENT|ECONNREFUSED|\sat\s/);
    },
  );
});
