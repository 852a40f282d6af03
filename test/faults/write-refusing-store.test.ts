/**
 * Issue 18, findings 4 and 5, on a redis-server of the test's own with a trading system on real time:
 *  - a store that reads but refuses writes (Redis turned replica: every write answers READONLY)
 *    halts the trader within STORE_LOSS_HALT_MS through a write probe, not after the control plane
 *    goes stale; writes back, the halt heals;
 *  - the same on SQLite with its write lock held by another OS process (BEGIN EXCLUSIVE): reads answer
 *    (WAL), writes wait until their deadline;
 *  - a store that holds writes back (CLIENT PAUSE WRITE: reads answer, every write and script waits)
 *    longer than the lease: a renewal that timed out is not a renewal, so the trader stops opening
 *    exposure before its lease can expire, and once writes go through it takes its lease back (no one
 *    else held it) and the halt heals — not "the lease passed to another process" and an exit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../src/adapters/redis/redis-store.js';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import type { Store } from '../../src/ports/store.js';
import { openLiveTrading, until } from '../support/live-trading.js';
import type { LiveTrading } from '../support/live-trading.js';
import { freePort, startOwnRedis } from '../support/redis-server.js';
import type { OwnRedis } from '../support/redis-server.js';
import { initialised } from '../support/stores.js';
import { holdWriteLock } from '../adapters/sqlite/hold-write-lock.js';
import type { LockHolder } from '../adapters/sqlite/hold-write-lock.js';

const STORE_LOSS_HALT_MS = 600;
const LEASE_MS = 2_000;

describe('a store that stops taking writes (own redis-server)', () => {
  let redis: OwnRedis | undefined;
  let store: Store | undefined;
  let admin: Redis | undefined;
  let trading: LiveTrading | undefined;
  afterEach(async () => {
    await admin?.call('CLIENT', 'UNPAUSE').catch(() => {});
    await admin?.call('REPLICAOF', 'NO', 'ONE').catch(() => {});
    await trading?.close().catch(() => {});
    await store?.close();
    admin?.disconnect();
    await redis?.cleanup();
    trading = store = admin = redis = undefined;
  }, 30_000);

  const open = async () => {
    redis = await startOwnRedis();
    store = await initialised(await openRedisStore({ url: redis.url, timeoutMs: 250 }));
    admin = new Redis(redis.url);
    trading = await openLiveTrading(store, redis.url, {
      STORE_LOSS_HALT_MS: String(STORE_LOSS_HALT_MS),
      STORE_TIMEOUT_MS: '250',
      TRADING_LEASE_MS: String(LEASE_MS),
    });
    await until(() => trading!.lines.some((l) => l.event === 'cycle_end'), 'a first cycle');
    return trading;
  };

  it('refusing writes (turned replica) halts the trader through its write probe; writes back, it heals', async () => {
    const t = await open();
    expect(t.halt()).toBeNull();
    // A replica of a master that does not exist: reads still answer, every write is READONLY.
    await admin!.call('REPLICAOF', '127.0.0.1', String(await freePort()));
    const refusedAt = Date.now();
    await until(() => t.halt() !== null, 'a halt', 5_000);
    const haltedAfter = Date.now() - refusedAt;
    expect(t.halt()).toBe('store_write_refused');
    // Within STORE_LOSS_HALT_MS and a few safety ticks; the control plane is not involved here at all.
    expect(haltedAfter).toBeLessThan(STORE_LOSS_HALT_MS + 2_000);

    await admin!.call('REPLICAOF', 'NO', 'ONE');
    await until(() => t.halt() === null, 'the halt to heal', 10_000);
    expect(t.leaseLost()).toBe(0);
  });

  it('writes held back past the lease: halted before the lease can expire, then it takes the lease back and heals', async () => {
    const t = await open();
    const lease = (await admin!.keys('*lease'))[0]!;
    await until(async () => (await admin!.pttl(lease)) > LEASE_MS * 0.8, 'a fresh renewal');
    const fenceBefore = Number((await admin!.get(lease))!.split(':')[0]);
    await admin!.call('CLIENT', 'PAUSE', String(LEASE_MS * 2), 'WRITE');
    const expiresAt = Date.now() + (await admin!.pttl(lease));
    // The moment the lease would have run out, the trader must already have stopped opening exposure.
    await until(() => Date.now() >= expiresAt, 'the lease to run out', LEASE_MS * 2);
    expect(t.halt()).not.toBeNull();

    await admin!.call('CLIENT', 'UNPAUSE');
    await until(() => t.halt() === null, 'the halt to heal', 10_000);
    expect(t.leaseLost()).toBe(0);
    // Taken back with the very next token: nobody held it while it had run out.
    expect(Number((await admin!.get(lease))!.split(':')[0])).toBe(fenceBefore + 1);
    const cycles = t.lines.filter((l) => l.event === 'cycle_end').length;
    await until(() => t.lines.filter((l) => l.event === 'cycle_end').length > cycles, 'trading again');
  });
});

describe('a SQLite store whose write lock another process holds', () => {
  let dir = '';
  let store: Store | undefined;
  let holder: LockHolder | undefined;
  let trading: LiveTrading | undefined;
  afterEach(async () => {
    await holder?.stop();
    await trading?.close().catch(() => {});
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    trading = store = holder = undefined;
  }, 30_000);

  it('halts the trader through its write probe within STORE_LOSS_HALT_MS; the lock released, it heals', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-locked-'));
    const path = join(dir, 'tcs.db');
    store = await initialised(await openSqliteStore({ path, timeoutMs: 250 }));
    trading = await openLiveTrading(store, `sqlite:${path}`, {
      STORE_LOSS_HALT_MS: String(STORE_LOSS_HALT_MS),
      STORE_TIMEOUT_MS: '250',
      TRADING_LEASE_MS: '10000',
    });
    const t = trading;
    await until(() => t.lines.some((l) => l.event === 'cycle_end'), 'a first cycle');
    holder = await holdWriteLock(path); // BEGIN EXCLUSIVE in another OS process; reads still answer (WAL)
    const lockedAt = Date.now();
    await until(() => t.halt() !== null, 'a halt', 5_000);
    expect(t.halt()).toBe('store_write_refused');
    expect(Date.now() - lockedAt).toBeLessThan(STORE_LOSS_HALT_MS + 2_000);

    await holder.release();
    await until(() => t.halt() === null, 'the halt to heal', 10_000);
    expect(t.leaseLost()).toBe(0);
  });
});
