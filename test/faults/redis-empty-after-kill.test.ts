/**
 * Issue 8, finding 1: a kill that Redis losing its data must not undo. The real `tcs api` and `tcs
 * trade` run as separate processes on a redis-server of the test's own WITHOUT persistence; the
 * system is killed over HTTP (epoch 1); then Redis restarts empty and the trading process is
 * SIGKILLed and started again in the same cwd (so with the same latch). Before issue 8 the restarted
 * process read an empty store as a new one — `running`, epoch 0 — and submitted orders within
 * seconds. Now it must say it is not trading (the store is empty), keep trying the store without
 * ever trading or writing a control record, and the API still running must answer 503 on status,
 * the kill switch and /health.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { callApi, eventually } from '../support/fault-api.js';
import { startApi, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { startOwnRedis } from '../support/redis-server.js';
import type { OwnRedis } from '../support/redis-server.js';
import { expectHealthDown, expectStoreFailure } from './expect-store-failure.js';
import {
  COUNTED_RETRIES_ENV,
  endAll,
  expectWaitingWithoutTrading,
  scratch,
  SLOW_BOUND_MS,
  traderEnv,
} from './support.js';

/** The control record's key under the default prefix (src/adapters/redis/keys.ts). */
const CONTROL_KEY = 'tcs:control';

describe('Redis restarted empty after a kill', () => {
  const dirs = scratch();
  let redis: OwnRedis | undefined;
  let admin: Redis | undefined;
  const procs: RunningProcess[] = [];

  afterEach(async () => {
    await endAll(procs.splice(0));
    admin?.disconnect();
    await redis?.cleanup();
    dirs.removeAll();
  });

  it('the restarted trading process waits and trades nothing; the API answers 503', async () => {
    redis = await startOwnRedis(); // no persistence: a restart loses everything
    admin = new Redis(redis.url, { maxRetriesPerRequest: 1, lazyConnect: true });
    const key = generateKey();
    const env = traderEnv(redis.url);
    const tradeDir = dirs.dir('redis-trade');
    const trade = (extra: Record<string, string> = {}) => {
      const proc = startTcs(['trade'], { ...env, ...extra }, tradeDir);
      procs.push(proc);
      return proc;
    };

    // A first start creates the control record (and the latch); the API then lets it trade.
    const first = trade();
    await first.waitFor(/trading process started/, SLOW_BOUND_MS);
    const api = await startApi(
      { SERVICE_API_KEY: key, STORE_URL: redis.url, STORE_TIMEOUT_MS: '3000' },
      {
        cwd: dirs.dir('redis-api'),
      },
      SLOW_BOUND_MS,
    );
    procs.push(api.proc);
    const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
      callApi(api.baseUrl, key, method, path, body, SLOW_BOUND_MS);
    await first.waitFor(/"event":"order_submitted"/, SLOW_BOUND_MS); // it trades while all is well

    const killed = await call('POST', '/control/kill-switch', { reason: 'fault test' });
    expect(killed.status, JSON.stringify(killed.body)).toBe(200);
    expect(killed.body).toMatchObject({ action: 'killed' });
    expect((await call('GET', '/control/status')).body).toMatchObject({ state: 'killed', epoch: 1 });
    await first.waitFor(/"event":"control_changed","state":"killed","epoch":1/, SLOW_BOUND_MS);

    // Redis loses everything; the trading process dies and comes back with the same latch.
    await redis.restart({ empty: true });
    first.child.kill('SIGKILL');
    await first.exited;
    const second = trade(COUNTED_RETRIES_ENV);

    // It keeps trying the store (new connections to this redis-server) and never trades.
    await admin.connect();
    const connections = async () => Number(/total_connections_received:(\d+)/.exec(await admin!.info('stats'))![1]);
    const before = await connections();
    await expectWaitingWithoutTrading(second, /no control record/, async () => {
      expect(await admin!.exists(CONTROL_KEY), 'a control record was created').toBe(0);
    });
    expect(await connections(), 'the waiting process retried the store').toBeGreaterThan(before + 1);
    expect(await admin.hgetall(CONTROL_KEY)).toEqual({});

    // The API, still running, calls the empty store a fault on every route, and records nothing.
    await eventually(
      async () => (await call('GET', '/health')).status === 503,
      '/health on the empty store',
      SLOW_BOUND_MS,
    );
    expectHealthDown(await call('GET', '/health'), /empty/);
    expectStoreFailure(await call('GET', '/control/status'), 'TCS_STORE_FAULT');
    expectStoreFailure(await call('POST', '/control/kill-switch', { reason: 'again' }), 'TCS_STORE_FAULT');
    expect(await admin.exists(CONTROL_KEY)).toBe(0);
    expect(second.child.exitCode).toBeNull();
    expect(second.stdout()).not.toMatch(/"event":"(cycle_start|order_submitted)"/);
  }, 180_000);
});
