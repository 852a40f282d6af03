/**
 * The KeyValueStore-backed notification outbox against both real stores: a SQLite file of its own and
 * the loopback Redis under a prefix of its own (deleted after).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createKvOutbox } from '../../../src/adapters/notify/kv-outbox.js';
import { openRedisStore } from '../../../src/adapters/redis/redis-store.js';
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.js';
import type { Store } from '../../../src/ports/store.js';
import { notifyOutboxContract } from '../../contracts/notify-outbox.contract.js';
import { deletePrefix, requireRedis, TEST_REDIS_URL, uniquePrefix } from '../../support/redis.js';
import { initialised } from '../../support/stores.js';

const dirs: string[] = [];
const prefixes: string[] = [];
let sqlitePath: string | undefined;

beforeAll(async () => {
  await requireRedis();
});

afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const prefix of prefixes) await deletePrefix(prefix);
});

notifyOutboxContract(
  'sqlite',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tcs-outbox-'));
    dirs.push(dir);
    sqlitePath = join(dir, 'store.db');
    return initialised(await openSqliteStore({ path: sqlitePath }));
  },
  async () => openSqliteStore({ path: sqlitePath! }),
  (store: Store) => createKvOutbox(store.kv),
);

notifyOutboxContract(
  'redis',
  async () => {
    const prefix = uniquePrefix('outbox');
    prefixes.push(prefix);
    return initialised(await openRedisStore({ url: TEST_REDIS_URL, prefix }));
  },
  async () => openRedisStore({ url: TEST_REDIS_URL, prefix: prefixes[prefixes.length - 1]! }),
  (store: Store) => createKvOutbox(store.kv),
);
