/**
 * A Redis that may evict our keys (a redis-server of the test's own with `maxmemory-policy` other
 * than `noeviction`) is a fault, not a healthy store: the trading process refuses to start on it
 * (exit 2, naming the policy and the command that fixes it) before it creates or writes anything,
 * and the API's /health is 503 `evicting` on every check until the policy is fixed. A policy changed
 * while it trades halts it (`store_evicting`) within a safety tick, until the policy is fixed. A user that may
 * not read the policy (INFO denied by an ACL) is judged the same way, fail-closed. The control
 * routes keep working meanwhile: a kill is still recorded while nothing is evicted yet. Entries
 * evicted all the same are found: `audit verify` reports the first missing one, and an evicted chain
 * head is the `rolled_back` fault for a process that saw the head further on.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../src/adapters/redis/redis-store.js';
import { trustedControl } from '../../src/application/trusted-control.js';
import { NO_MEMORY } from '../../src/domain/store-identity.js';
import type { Store } from '../../src/ports/store.js';
import { eventually, listenApi } from '../support/fault-api.js';
import type { ListeningApi } from '../support/fault-api.js';
import { exitWithin, startTcs } from '../support/processes.js';
import { startOwnRedis } from '../support/redis-server.js';
import type { OwnRedis } from '../support/redis-server.js';
import { initialised } from '../support/stores.js';
import { expectHealthDown } from './expect-store-failure.js';
import { scratch, SLOW_BOUND_MS, traderEnv } from './support.js';

const FIX = /CONFIG SET maxmemory-policy noeviction/;

describe('a Redis that may evict our keys (own redis-server)', () => {
  let redis: OwnRedis;
  let admin: Redis;
  const dirs = scratch();

  beforeAll(async () => {
    redis = await startOwnRedis({ extraArgs: ['--maxmemory-policy', 'allkeys-lru'] });
    admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  });

  afterAll(async () => {
    admin.disconnect();
    await redis.cleanup();
    dirs.removeAll();
  });

  afterEach(async () => {
    await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
    await admin.flushall();
  });

  it(
    'the trading process refuses to start (exit 2) naming the policy and the fix, and writes nothing',
    async () => {
      const trader = startTcs(['trade'], traderEnv(redis.url), dirs.dir('evicting-trader'));
      try {
        const exit = await exitWithin(trader, SLOW_BOUND_MS);
        expect(exit.code, trader.stderr()).toBe(2);
        expect(trader.stderr()).toMatch(/maxmemory-policy is allkeys-lru/);
        expect(trader.stderr()).toMatch(FIX);
        // Refused before the first start created the control record: nothing was written at all.
        expect(await admin.dbsize()).toBe(0);
      } finally {
        await trader.stop('SIGKILL');
      }
    },
    SLOW_BOUND_MS + 10_000,
  );

  it(
    'a policy changed while trading halts it (store_evicting, nothing opened meanwhile) until it is fixed',
    async () => {
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      const trader = startTcs(
        ['trade'],
        traderEnv(redis.url, { CONTROL_PLANE_TIMEOUT: '0' }),
        dirs.dir('policy-changed-trader'),
      );
      try {
        await trader.waitFor(/"event":"cycle_end","cycle":1\b/, SLOW_BOUND_MS);
        await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
        await trader.waitFor(/"event":"trading_halted","reason":"store_evicting"/, SLOW_BOUND_MS);
        expect(trader.stderr()).toMatch(/maxmemory-policy is allkeys-lru/);
        await admin.config('SET', 'maxmemory-policy', 'noeviction');
        await trader.waitFor(/"event":"trading_halt_ended"/, SLOW_BOUND_MS);
        // Between the halt and its end, no cycle ran.
        const during = trader.stdout().split('"reason":"store_evicting"')[1]!.split('"event":"trading_halt_ended"')[0]!;
        expect(during).not.toMatch(/"event":"cycle_start"/);
      } finally {
        await trader.stop('SIGKILL');
      }
    },
    3 * SLOW_BOUND_MS,
  );

  it('entries evicted anyway are found: an early entry breaks `audit verify`, an evicted head is rolled_back', async () => {
    const store = await initialised(await openRedisStore({ url: redis.url, onError: () => {} }));
    try {
      const events = store.events;
      const trusted = trustedControl(store.control, { memory: NO_MEMORY, events });
      for (const reason of ['one', 'two', 'three']) {
        const record = await trusted.read();
        await store.control.compareAndSet({
          expectedEpoch: record.epoch,
          expectedStoreId: record.store_id,
          next: { ...record, state: 'paused', epoch: record.epoch + 1, reason, changed_at: new Date().toISOString() },
          audit: { kind: 'control', at: new Date().toISOString(), body: { event: 'control.pause', reason } },
        });
      }
      await trusted.checkHead(); // the head this process has seen: entry 3 or later
      // What allkeys-lru does to a key it picks, done to the ones that matter, deterministically.
      await admin.del('tcs:events:entry:1');
      const verdict = await events.verify();
      expect(verdict.ok).toBe(false);
      expect(verdict.ok ? null : verdict.firstBad).toMatchObject({ seq: 1, reason: expect.stringMatching(/missing/) });
      await admin.del('tcs:events:head');
      await expect(trusted.checkHead()).rejects.toMatchObject({ name: 'StoreFaultError', kind: 'rolled_back' });
    } finally {
      await store.close();
    }
  });

  describe('the API', () => {
    let store: Store;
    let api: ListeningApi;

    beforeAll(async () => {
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      store = await initialised(await openRedisStore({ url: redis.url, onError: () => {} }));
      api = await listenApi(store);
    });

    afterAll(async () => {
      await api.close();
      await store.close();
    });

    it('/health is 503 `evicting` for allkeys-lru and for volatile-lru (the lease has a TTL); ok again once fixed', async () => {
      for (const policy of ['allkeys-lru', 'volatile-lru', 'allkeys-random']) {
        await admin.config('SET', 'maxmemory-policy', policy);
        const health = await api.call('GET', '/health');
        expectHealthDown(health, /^evicting$/);
        expect(JSON.stringify(health.body)).toContain(`maxmemory-policy is ${policy}`);
        expect(JSON.stringify(health.body)).toMatch(FIX);
      }
      // Nothing is evicted yet, so control still works: a kill pressed now is recorded.
      expect((await api.call('POST', '/control/kill-switch', { reason: 'evicting redis' })).status).toBe(200);
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      await eventually(async () => (await api.call('GET', '/health')).status === 200, '/health 200 once noeviction');
    });

    it('a user that may not read the policy (INFO denied): 503 `evicting`, saying it cannot tell (fail-closed)', async () => {
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      await admin.call('ACL', 'SETUSER', 'noinfo', 'on', '>secret-pw', '~*', '&*', '+@all', '-info');
      const limited = await initialised(
        await openRedisStore({ url: redis.url.replace('//', '//noinfo:secret-pw@'), onError: () => {} }),
      );
      const limitedApi = await listenApi(limited);
      try {
        const health = await limitedApi.call('GET', '/health');
        expectHealthDown(health, /^evicting$/);
        expect(JSON.stringify(health.body)).toMatch(/cannot read maxmemory-policy/);
        expect(JSON.stringify(health.body)).not.toContain('secret-pw');
      } finally {
        await limitedApi.close();
        await limited.close();
        await admin.call('ACL', 'DELUSER', 'noinfo');
      }
    });
  });
});
