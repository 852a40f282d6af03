/**
 * The API over a redis-server of the test's own that answers but refuses to do what it is asked:
 * out of memory (`maxmemory` with `noeviction`), too few replicas (`min-replicas-to-write`), a
 * failed snapshot (`MISCONF`) and a script that keeps it busy (`BUSY`). Each is a real refusal of a
 * real server; inside MULTI Redis discards the whole transaction (`EXECABORT`) with the refusal as
 * the cause. Every control write answers the documented 503 "NOT recorded" naming the refusal,
 * never `500 TCS_INTERNAL`, and once the server takes writes again the kill is recorded.
 */
import { Redis } from 'ioredis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../src/adapters/redis/redis-store.js';
import type { Store } from '../../src/ports/store.js';
import { eventually, listenApi } from '../support/fault-api.js';
import type { ListeningApi } from '../support/fault-api.js';
import { startOwnRedis } from '../support/redis-server.js';
import type { OwnRedis } from '../support/redis-server.js';
import { initialised } from '../support/stores.js';
import { expectHealthDown, expectStoreFailure } from './expect-store-failure.js';

/** Every control write the API offers: none may answer 500 while Redis refuses. */
const CONTROL_WRITES: Array<[string, unknown]> = [
  ['/control/kill-switch', { reason: 'refused store' }],
  ['/control/kill-switch', { reason: 'refused store', flatten: true }],
  ['/control/pause', { reason: 'refused store' }],
  ['/control/resume', {}],
  ['/control/cancel-all', { symbols: null }],
  ['/control/deleverage', { symbol: 'BTCUSDT', reduce_pct: 0.5 }],
  ['/control/flatten', { symbols: null }],
];

describe('API over a Redis that refuses (own redis-server)', () => {
  let redis: OwnRedis;
  let store: Store;
  let api: ListeningApi;
  let admin: Redis;

  beforeEach(async () => {
    // Protected configs allowed: the MISCONF case points the snapshot directory elsewhere.
    redis = await startOwnRedis({ extraArgs: ['--enable-protected-configs', 'yes'] });
    store = await initialised(await openRedisStore({ url: redis.url, onError: () => {} }));
    api = await listenApi(store);
    admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    expect((await api.call('GET', '/health')).status).toBe(200);
  });

  afterEach(async () => {
    admin.disconnect();
    await api.close();
    await redis.cleanup();
    await store.close();
  });

  /** Every control write is a 503 naming `refusal`; /health is down with the write refused. */
  async function expectRefused(refusal: RegExp): Promise<void> {
    for (const [path, body] of CONTROL_WRITES) {
      const answer = await api.call('POST', path, body);
      expectStoreFailure(answer, 'TCS_STORE_UNAVAILABLE');
      expect(String(answer.body.message), path).toMatch(refusal);
    }
    const health = await api.call('GET', '/health');
    expectHealthDown(health, /write_refused|unreachable/);
    expect(JSON.stringify(health.body)).toMatch(refusal);
  }

  /** Writes taken again: the kill is recorded and shows in the status. */
  async function expectKillRecorded(): Promise<void> {
    await eventually(async () => (await api.call('GET', '/health')).status === 200, '/health 200 again');
    expect((await api.call('POST', '/control/kill-switch', { reason: 'after the refusal' })).status).toBe(200);
    expect((await api.call('GET', '/control/status')).body).toMatchObject({ state: 'killed' });
  }

  it('out of memory (maxmemory, noeviction): 503 naming OOM for every write, the transaction refusal included', async () => {
    // One byte: whatever the server holds is over it, so every write (and every MULTI) is refused.
    await admin.config('SET', 'maxmemory', '1');
    await expectRefused(/OOM command not allowed/);
    await admin.config('SET', 'maxmemory', '0');
    await expectKillRecorded();
  });

  it('not enough replicas (min-replicas-to-write): 503 naming NOREPLICAS', async () => {
    await admin.config('SET', 'min-replicas-to-write', '1');
    await expectRefused(/NOREPLICAS/);
    await admin.config('SET', 'min-replicas-to-write', '0');
    await expectKillRecorded();
  });

  it('a snapshot that failed (MISCONF): 503 naming it', async () => {
    // A save directory removed under the server: its next snapshot fails, and with a save schedule
    // and stop-writes-on-bgsave-error (the default) Redis refuses every write until one succeeds.
    const gone = mkdtempSync(join(tmpdir(), 'tcs-redis-gone-'));
    await admin.config('SET', 'dir', gone);
    await admin.config('SET', 'save', '3600 1');
    rmSync(gone, { recursive: true, force: true });
    await admin.bgsave();
    await eventually(
      async () => (await admin.info('persistence')).includes('rdb_last_bgsave_status:err'),
      'the failed snapshot',
    );
    await expectRefused(/MISCONF/);
    await admin.config('SET', 'save', '');
    await expectKillRecorded();
  });

  it('a script that keeps it busy (BUSY): 503 naming it, and the kill goes through once the script is killed', async () => {
    await admin.config('SET', 'busy-reply-threshold', '20');
    // A read-only busy loop bounded by the server's own clock (at most 20 s), so SCRIPT KILL can end
    // it and a test that fails never leaves a server spinning for long.
    const busy = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    const spinning = busy
      .eval(
        "local t = redis.call('TIME'); local limit = tonumber(t[1]) + 20; " +
          "while tonumber(redis.call('TIME')[1]) < limit do end; return 1",
        0,
      )
      .catch((err: unknown) => err);
    try {
      await eventually(
        async () =>
          (
            await admin.ping().then(
              () => 'ok',
              (err: Error) => err.message,
            )
          ).startsWith('BUSY'),
        'the script to make the server busy',
      );
      await expectRefused(/BUSY/);
    } finally {
      await admin.call('SCRIPT', 'KILL').catch(() => {});
      await spinning;
      busy.disconnect();
    }
    await expectKillRecorded();
  });
});
