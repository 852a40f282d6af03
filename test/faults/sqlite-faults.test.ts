/**
 * The API over a real SQLite file that fails: locked by another writer that holds its write lock,
 * missing its control row (tampered or truncated), and read-only. The read-only case runs `tcs api`
 * as a child process with uid/gid 65534 (nobody): root ignores file modes, nobody does not, so the
 * file really refuses every write while reads still work.
 */
import Database from 'better-sqlite3';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { generateKey } from '../../src/domain/keys.js';
import type { Store } from '../../src/ports/store.js';
import { callApi, listenApi } from '../support/fault-api.js';
import type { ListeningApi } from '../support/fault-api.js';
import { startApi } from '../support/processes.js';
import { initialised } from '../support/stores.js';
import { expectHealthDown, expectStoreFailure } from './expect-store-failure.js';

const NOBODY = 65534;

describe('API over a SQLite file that fails', () => {
  let dir: string;
  let path: string;
  let store: Store | undefined;
  let api: ListeningApi | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-sqlite-fault-'));
    path = join(dir, 'tcs.db');
  });

  afterEach(async () => {
    await api?.close();
    await store?.close();
    api = undefined;
    store = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('another connection holds the write lock: the kill switch and /health answer 503, not after 5 s', async () => {
    store = await initialised(await openSqliteStore({ path }));
    api = await listenApi(store);
    const holder = new Database(path);
    try {
      holder.exec('BEGIN IMMEDIATE');
      holder.prepare("INSERT INTO kv (key, value) VALUES ('fault-test', '1')").run();
      expectStoreFailure(await api.call('POST', '/control/kill-switch', { reason: 'locked' }), 'TCS_STORE_UNAVAILABLE');
      expectHealthDown(await api.call('GET', '/health'), /write_refused/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('the control row is gone: a fault on /health, status and the kill switch (never "running, epoch 0")', async () => {
    store = await initialised(await openSqliteStore({ path }));
    api = await listenApi(store);
    const tamper = new Database(path);
    tamper.prepare('DELETE FROM control').run();
    tamper.close();
    expectHealthDown(await api.call('GET', '/health'), /empty/);
    expectStoreFailure(await api.call('GET', '/control/status'), 'TCS_STORE_FAULT');
    expectStoreFailure(await api.call('POST', '/control/kill-switch'), 'TCS_STORE_FAULT');
  });

  it('a read-only file (tcs api as nobody): /health is 503 with the write refused, the kill switch 503', async () => {
    // A store file made by its owner (nobody), then write-protected; the API, also nobody, opens it.
    const seeded = await initialised(await openSqliteStore({ path }));
    await seeded.close();
    chmodSync(dir, 0o755);
    for (const file of [dir, path]) chownSync(file, NOBODY, NOBODY);
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
    chmodSync(path, 0o444);
    const key = generateKey();
    const { proc, baseUrl } = await startApi(
      { SERVICE_API_KEY: key, STORE_URL: `sqlite:${path}` },
      { cwd: dir, uid: NOBODY, gid: NOBODY },
    );
    try {
      const health = await callApi(baseUrl, key, 'GET', '/health');
      expectHealthDown(health, /write_refused/);
      expectStoreFailure(await callApi(baseUrl, key, 'POST', '/control/kill-switch'), 'TCS_STORE_UNAVAILABLE');
    } finally {
      await proc.stop();
    }
  });
});
