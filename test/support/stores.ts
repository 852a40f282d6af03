/**
 * Real stores for tests: a fresh SQLite file in a temp directory, or a fresh key prefix on the test
 * Redis. Each returns the store and a cleanup that closes it and removes its data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRedisStore } from '../../src/adapters/redis/redis-store.js';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import type { Store } from '../../src/ports/store.js';
import { TEST_REDIS_URL, deletePrefix, requireRedis, uniquePrefix } from './redis.js';
import { testControlMac } from './control-secret.js';

export type StoreKind = 'sqlite' | 'redis';

/**
 * The deadline of a test store's commands: the tests here are about behaviour, on a 2-core machine
 * that CI loads heavily, so a healthy store must never miss it; the fault tests that are about the
 * deadline set their own.
 */
export const TEST_STORE_TIMEOUT_MS = 5_000;
export const STORE_KINDS: StoreKind[] = ['sqlite', 'redis'];

export interface TestStore {
  store: Store;
  /** STORE_URL for a child process that must share this store. */
  url: string;
  /** Opens another connection to the same data (another "process"). */
  openAnother(): Promise<Store>;
  cleanup(): Promise<void>;
}

/**
 * A brand-new store as its creator makes it (running, epoch 0, a fresh identity, its MAC): opening a store
 * never creates its control record, `initialise` does (src/ports/control-store.ts).
 */
export async function initialised(store: Store): Promise<Store> {
  // Signed as the test's `tcs` processes expect (./control-secret.ts).
  await store.control.initialise(new Date().toISOString(), testControlMac);
  return store;
}

export async function openTestStore(kind: StoreKind): Promise<TestStore> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tcs-test-'));
    const path = join(dir, 'tcs.db');
    const store = await initialised(await openSqliteStore({ path, timeoutMs: TEST_STORE_TIMEOUT_MS }));
    const others: Store[] = [];
    return {
      store,
      url: `sqlite:${path}`,
      async openAnother() {
        const other = await openSqliteStore({ path, timeoutMs: TEST_STORE_TIMEOUT_MS });
        others.push(other);
        return other;
      },
      async cleanup() {
        for (const s of [store, ...others]) await s.close().catch(() => {});
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  await requireRedis();
  const prefix = uniquePrefix();
  const store = await initialised(
    await openRedisStore({ url: TEST_REDIS_URL, prefix, timeoutMs: TEST_STORE_TIMEOUT_MS }),
  );
  const others: Store[] = [];
  return {
    store,
    url: `${TEST_REDIS_URL}?prefix=${encodeURIComponent(prefix)}`,
    async openAnother() {
      const other = await openRedisStore({ url: TEST_REDIS_URL, prefix, timeoutMs: TEST_STORE_TIMEOUT_MS });
      others.push(other);
      return other;
    },
    async cleanup() {
      for (const s of [store, ...others]) await s.close().catch(() => {});
      await deletePrefix(prefix);
    },
  };
}
