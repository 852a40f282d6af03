/**
 * Issue 35, item 5: a SQLite store that is archived and trimmed as cron would stays the same size
 * on disk. Nothing VACUUMs it and auto_vacuum is off, so the file never shrinks after a trim: what
 * keeps it flat is that trimmed rows' pages go to the freelist and later appends reuse them. A trim
 * that only moved the floor, or pages that were not reused, would grow the file window after window.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.js';
import type { AuditEvent } from '../../../src/ports/event-store.js';
import { initialised } from '../../support/stores.js';

const dir = mkdtempSync(join(tmpdir(), 'tcs-sqlite-trim-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WINDOW = 400;
/** About a decision's size, so each entry takes a good part of a 4 KB page. */
const FILLER = 'x'.repeat(1500);

it('keeps the same number of pages over many windows appended and trimmed (freed pages are reused)', async () => {
  const path = join(dir, 'store.db');
  const store = await initialised(await openSqliteStore({ path, timeoutMs: 5000 }));
  const pages = () => {
    const file = new Database(path, { readonly: true });
    try {
      return {
        total: Number(file.pragma('page_count', { simple: true })),
        free: Number(file.pragma('freelist_count', { simple: true })),
      };
    } finally {
      file.close();
    }
  };
  let last: AuditEvent | undefined;
  const appendWindow = async () => {
    for (let i = 0; i < WINDOW; i++)
      last = await store.events.append({ kind: 'decision', at: new Date().toISOString(), body: { i, FILLER } });
  };
  try {
    // Two windows, the older one trimmed: the window is full and its pages are free for reuse.
    await appendWindow();
    const older = last!;
    await appendWindow();
    await store.events.trimThrough({ seq: older.seq, hash: older.hash });
    const full = pages();
    expect(full.free).toBeGreaterThan(WINDOW / 4);
    // Six more windows, each trimmed as the next is written: 2,400 entries through a file of ~800.
    for (let round = 0; round < 6; round++) {
      const before = last!;
      await appendWindow();
      await store.events.trimThrough({ seq: before.seq, hash: before.hash });
    }
    expect(await store.events.count()).toBe(WINDOW);
    const after = pages();
    expect(after.total).toBeLessThanOrEqual(full.total * 1.1);
  } finally {
    await store.close();
  }
});
