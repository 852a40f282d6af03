/**
 * The API over a redis-server of the test's own that is paused (SIGSTOP), killed (connections
 * refused), restarted empty or turned read-only (a replica of a master that does not exist): /health
 * answers 503 naming the reason, every control route and the reports route answer 503 in the
 * standard error body, and nothing waits for the store to come back.
 */
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../src/adapters/redis/redis-store.js';
import type { Store } from '../../src/ports/store.js';
import { eventually, listenApi } from '../support/fault-api.js';
import type { ListeningApi } from '../support/fault-api.js';
import { freePort, startOwnRedis } from '../support/redis-server.js';
import type { OwnRedis } from '../support/redis-server.js';
import { expectHealthDown, expectStoreFailure } from './expect-store-failure.js';
import { initialised } from '../support/stores.js';

const CONTROL_CALLS: Array<['GET' | 'POST', string, unknown?]> = [
  ['GET', '/control/status'],
  ['POST', '/control/pause', { reason: 'fault test' }],
  ['POST', '/control/resume'],
  ['POST', '/control/kill-switch', { reason: 'fault test' }],
  ['POST', '/control/cancel-all', { symbols: null }],
  ['POST', '/control/deleverage', { symbol: 'BTCUSDT', reduce_pct: 0.5 }],
  ['GET', '/reports/decisions?limit=5'],
];

describe('API over a Redis that fails', () => {
  let redis: OwnRedis;
  let store: Store;
  let api: ListeningApi;

  beforeEach(async () => {
    redis = await startOwnRedis();
    store = await initialised(await openRedisStore({ url: redis.url, onError: () => {} }));
    api = await listenApi(store);
    expect((await api.call('GET', '/health')).status).toBe(200);
  });

  afterEach(async () => {
    await api.close();
    await redis.cleanup();
    await store.close();
  });

  it('paused (SIGSTOP): /health and every control call answer 503 instead of hanging', async () => {
    redis.pause();
    expectHealthDown(await api.call('GET', '/health'), /unreachable|deadline/);
    expectStoreFailure(
      await api.call('POST', '/control/kill-switch', { reason: 'hung store' }),
      'TCS_STORE_UNAVAILABLE',
    );
    expectStoreFailure(await api.call('GET', '/control/status'), 'TCS_STORE_UNAVAILABLE');
    redis.resume();
    // Back to normal once it answers again.
    await eventually(async () => (await api.call('GET', '/health')).status === 200, '/health 200 after resume');
  });

  it('killed (connection refused): /health and every control and report route answer 503', async () => {
    await redis.kill();
    for (const [method, path, body] of CONTROL_CALLS) {
      expectStoreFailure(await api.call(method, path, body), 'TCS_STORE_UNAVAILABLE');
    }
    expectHealthDown(await api.call('GET', '/health'), /unreachable/);
  });

  it('restarted empty: a fault (never "running, epoch 0"), on /health, status and the kill switch', async () => {
    await redis.restart({ empty: true });
    await eventually(() => store.ping().then(() => true), 'reconnect to the restarted redis-server');
    expectHealthDown(await api.call('GET', '/health'), /empty/);
    expectStoreFailure(await api.call('GET', '/control/status'), 'TCS_STORE_FAULT');
    expectStoreFailure(await api.call('POST', '/control/kill-switch', { reason: 'empty store' }), 'TCS_STORE_FAULT');
    expectStoreFailure(await api.call('POST', '/control/pause'), 'TCS_STORE_FAULT');
  });

  it('read-only (a replica): /health runs a real write and says so; the kill switch answers 503', async () => {
    const admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    try {
      // A master that does not exist: the server keeps its data and refuses every write (READONLY).
      await admin.call('REPLICAOF', '127.0.0.1', String(await freePort()));
      const health = await api.call('GET', '/health');
      expectHealthDown(health, /write_refused/);
      expect(JSON.stringify(health.body)).toMatch(/READONLY/);
      expectStoreFailure(
        await api.call('POST', '/control/kill-switch', { reason: 'read-only' }),
        'TCS_STORE_UNAVAILABLE',
      );
      expectStoreFailure(await api.call('POST', '/control/cancel-all', { symbols: null }), 'TCS_STORE_UNAVAILABLE');
      await admin.call('REPLICAOF', 'NO', 'ONE');
      await eventually(async () => (await api.call('GET', '/health')).status === 200, '/health 200 once writable');
    } finally {
      admin.disconnect();
    }
  });
});
