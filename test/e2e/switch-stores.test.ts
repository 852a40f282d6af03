/**
 * Issue 19, item 5: switching STORE_URL just works. One working directory (so one latch,
 * var/trading-latch.json, as a user's checkout has): `tcs start` on the default SQLite store trades;
 * then on a Redis store (db 15, a fresh prefix) it trades too, without `tcs store adopt` or
 * `--reset-kill`, where before it waited forever because the latch remembered the SQLite store. A
 * kill on the Redis store stays with the Redis store: back on SQLite it trades again, and back on
 * Redis it is still killed. The latch keeps one entry per store, keyed without credentials.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { TEST_REDIS_URL, deletePrefix, requireRedis, uniquePrefix } from '../support/redis.js';
import { PERMISSIVE_ENV } from '../support/trading.js';

const BOUND_MS = 60_000;

describe('switching STORE_URL between SQLite and Redis', () => {
  let dir = '';
  let prefix = '';
  let proc: RunningProcess | undefined;
  afterEach(async () => {
    await proc?.stop();
    if (prefix) await deletePrefix(prefix);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is a first start on each new store, and each store keeps its own kill', async () => {
    await requireRedis();
    dir = mkdtempSync(join(tmpdir(), 'tcs-switch-'));
    prefix = uniquePrefix('switch');
    const key = generateKey();
    const base = {
      ...PERMISSIVE_ENV,
      CYCLE_SECONDS: '0.25',
      SERVICE_API_KEY: key,
      RISK_HMAC_SECRET: generateKey(),
      PORT: '0',
      LOG_LEVEL: 'info',
      HEARTBEAT_MS: '200',
      TCS_TEST_STORE_RETRY_MS: '100',
      STORE_TIMEOUT_MS: '3000',
    };
    const redisUrl = `${TEST_REDIS_URL}?prefix=${encodeURIComponent(prefix)}`;
    let address = '';
    const start = async (env: Record<string, string>) => {
      await proc?.stop();
      proc = startTcs(['start'], { ...base, ...env }, dir);
      address = (await proc.waitFor(/"address":"(http:\/\/127\.0\.0\.1:\d+)"/, BOUND_MS))[1]!;
      return proc;
    };
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(address + path, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };

    // 1. The default store (sqlite:var/tcs.db in this directory): a first start, it trades.
    await (await start({})).waitFor(/"event":"order_submitted"/, BOUND_MS);
    expect(proc!.stderr()).toMatch(/first start on sqlite:.*created its control record/);

    // 2. Redis: a first start there too: it trades, without adopt or reset.
    const onRedis = await start({ STORE_URL: redisUrl });
    await onRedis.waitFor(/"event":"order_submitted"/, BOUND_MS);
    expect(onRedis.stderr()).not.toMatch(/not trading/);
    expect((await call('GET', '/health')).status).toBe(200);
    expect((await call('POST', '/control/kill-switch', { reason: 'switch test' })).status).toBe(200);
    await onRedis.waitFor(/"event":"control_changed","state":"killed"/, BOUND_MS);

    // 3. Back to SQLite: the store it knew, not killed (the kill was Redis's): it trades again (its
    // paper account already holds the always-long position from step 1, so cycles, not new orders).
    const back = await start({});
    await back.waitFor(/"event":"cycle_end","cycle":3,/, BOUND_MS);
    expect(back.stderr()).not.toMatch(/not trading|KILLED/);
    expect((await call('GET', '/control/status')).body).toMatchObject({ state: 'running' });

    // 4. Redis again: still killed, as its store and its latch entry say.
    const again = await start({ STORE_URL: redisUrl });
    await again.waitFor(/KILLED since/, BOUND_MS);
    expect((await call('GET', '/control/status')).body).toMatchObject({ state: 'killed' });
    expect(again.stdout()).not.toMatch(/"event":"order_submitted"/);

    // One entry per store, keyed by the canonical URL, no credentials anywhere.
    const latch = JSON.parse(readFileSync(join(dir, 'var/trading-latch.json'), 'utf8')) as {
      version: number;
      stores: Record<string, { state: string }>;
    };
    expect(latch.version).toBe(2);
    const sqliteKey = `sqlite:${join(realpathSync(dir), 'var/tcs.db')}`;
    const server = new URL(TEST_REDIS_URL);
    const redisKey = `redis://${server.hostname}:${server.port || 6379}/${server.pathname.slice(1) || 0}?prefix=${encodeURIComponent(prefix)}`;
    expect(Object.keys(latch.stores).sort()).toEqual([redisKey, sqliteKey].sort());
    expect(latch.stores[redisKey]!.state).toBe('killed');
    expect(latch.stores[sqliteKey]!.state).toBe('running');
  }, 240_000);
});
