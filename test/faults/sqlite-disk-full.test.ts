/**
 * The API over a SQLite file on a filesystem that fills up: a small tmpfs of the test's own (the
 * test runs as root in CI and here; it is skipped, saying so, where `mount` is not allowed), filled
 * to the last byte by a file beside the store. SQLite refuses to grow the file or its WAL
 * (SQLITE_FULL, "database or disk is full"): every control write answers the documented 503 "NOT
 * recorded" naming the full disk, never a 500, reads are still served, and once space is freed the
 * kill is recorded.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeSync, openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import type { Store } from '../../src/ports/store.js';
import { listenApi } from '../support/fault-api.js';
import type { ListeningApi } from '../support/fault-api.js';
import { initialised } from '../support/stores.js';
import { expectHealthDown, expectStoreFailure } from './expect-store-failure.js';

/** Mounts a tmpfs of `size` on a new directory; null when this user may not mount. */
function mountTmpfs(size: string): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'tcs-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

/** Writes zeros to `path` until the filesystem says ENOSPC: nothing is left for anyone else. */
function fillUp(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (let i = 0; i < 100_000; i++) writeSync(fd, chunk);
    throw new Error('the filesystem never filled up');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

const mounted = mountTmpfs('4m');

describe.skipIf(mounted === null)('API over a SQLite file whose disk is full (own tmpfs)', () => {
  const dir = mounted ?? '';
  let store: Store;
  let api: ListeningApi;

  beforeAll(async () => {
    store = await initialised(await openSqliteStore({ path: join(dir, 'tcs.db') }));
    api = await listenApi(store);
  });

  afterAll(async () => {
    await api?.close();
    await store?.close();
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('every control write is a 503 naming the full disk, reads still answer; space freed, the kill is recorded', async () => {
    expect((await api.call('GET', '/health')).status).toBe(200);
    const filler = join(dir, 'filler');
    fillUp(filler);
    const writes: Array<[string, unknown]> = [
      ['/control/pause', { reason: 'full disk' }],
      ['/control/kill-switch', { reason: 'full disk' }],
      ['/control/kill-switch', { reason: 'full disk', flatten: true }],
      ['/control/cancel-all', { symbols: null }],
      ['/control/flatten', { symbols: null }],
    ];
    // Each write lands in a page SQLite already has until the file must grow: keep writing until it
    // must (a bounded number of pauses and resumes), then every write is refused.
    for (let i = 0; i < 200; i++) {
      const answer = await api.call('POST', i % 2 === 0 ? '/control/pause' : '/control/resume', {});
      if (answer.status !== 200) break;
    }
    for (const [path, body] of writes) {
      const answer = await api.call('POST', path, body);
      expectStoreFailure(answer, 'TCS_STORE_UNAVAILABLE');
      expect(String(answer.body.message), path).toMatch(/disk is full|SQLITE_FULL|I\/O/i);
    }
    expect((await api.call('GET', '/control/status')).status).toBe(200);
    expectHealthDown(await api.call('GET', '/health'), /write_refused/);
    rmSync(filler);
    expect((await api.call('POST', '/control/kill-switch', { reason: 'space again' })).status).toBe(200);
    expect((await api.call('GET', '/control/status')).body).toMatchObject({ state: 'killed' });
  });
});
