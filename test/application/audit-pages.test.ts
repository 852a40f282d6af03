/**
 * queryAcross (issue 35): a page read across a real SQLite store and a real archive directory stays
 * one sequence even when an archive run trims the store between the store's page and the floor's
 * read (the race a live API meets when `tcs audit archive` runs from cron): the overlap is dropped,
 * nothing is lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { fileArchive } from '../../src/adapters/archive/file-archive.js';
import { openStore } from '../../src/adapters/open-store.js';
import { archiveAndTrim } from '../../src/application/audit-archiver.js';
import { queryAcross } from '../../src/application/audit-pages.js';
import type { EventStore } from '../../src/ports/event-store.js';
import type { Store } from '../../src/ports/store.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

it('an archive run trimming between the store page and the floor read leaves no duplicate and no gap', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tcs-audit-pages-'));
  dirs.push(dir);
  const store = await openStore(`sqlite:${join(dir, 'tcs.db')}`);
  stores.push(store);
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  for (let i = 1; i <= 40; i++)
    await store.events.append({ kind: 'decision', at: new Date(t0 + i * 60_000).toISOString(), body: { i } });
  const writer = fileArchive(join(dir, 'archive'));
  await archiveAndTrim(store.events, writer, { entries: 20 }, Date.now());
  expect((await store.events.floor()).seq).toBe(20);

  // The store as the API sees it, with an archive run landing right after its page was read.
  let trimmed = false;
  const racing: EventStore = Object.assign(Object.create(store.events) as EventStore, {
    query: async (q: Parameters<EventStore['query']>[0]) => {
      const page = await store.events.query(q);
      if (!trimmed) {
        trimmed = true;
        await archiveAndTrim(store.events, writer, { entries: 5 }, Date.now());
      }
      return page;
    },
  });
  const page = await queryAcross(racing, fileArchive(join(dir, 'archive'), { readOnly: true }), { limit: 30 });
  expect(trimmed).toBe(true);
  expect((await store.events.floor()).seq).toBe(35);
  expect(page.archive).toBe('read');
  expect(page.entries.map((e) => e.seq)).toEqual(Array.from({ length: 30 }, (_, i) => 40 - i));
});
