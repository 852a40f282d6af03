/**
 * Issue 19, item 5: the latch is kept per store, and switching STORE_URL forgets nothing about the
 * store left behind. `tcs start` on a SQLite file is killed; the same directory (the same latch) then
 * runs on a Redis store, where it is a first start and trades; the SQLite file is deleted meanwhile.
 * Back on SQLite the trading process still knows that store: it does not create a new file, says
 * it is not trading and trades nothing; `tcs store adopt` accepts the loss on purpose and the kill
 * that was latched for that store survives it (the adopted store starts killed).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { TEST_REDIS_URL, deletePrefix, requireRedis, uniquePrefix } from '../support/redis.js';
import {
  COUNTED_RETRIES_ENV,
  endAll,
  expectWaitingWithoutTrading,
  scratch,
  SLOW_BOUND_MS,
  traderEnv,
} from './support.js';

describe('a switch of STORE_URL keeps what is remembered of the store left', () => {
  const dirs = scratch();
  const procs: RunningProcess[] = [];
  let prefix = '';
  afterEach(async () => {
    await endAll(procs.splice(0));
    if (prefix) await deletePrefix(prefix);
    dirs.removeAll();
  });

  it('a kill latched for the SQLite store holds there after a run on Redis, even once the file is gone', async () => {
    await requireRedis();
    prefix = uniquePrefix('switch-kill');
    const dir = dirs.dir('switch-kill');
    const path = join(dir, 'tcs.db');
    const key = generateKey();
    const sqlite = `sqlite:${path}`;
    const redis = `${TEST_REDIS_URL}?prefix=${encodeURIComponent(prefix)}`;
    let address = '';
    const start = async (url: string, extra: Record<string, string> = {}) => {
      await endAll(procs);
      const proc = startTcs(['start'], { ...traderEnv(url, extra), SERVICE_API_KEY: key, PORT: '0' }, dir);
      procs.push(proc);
      address = (await proc.waitFor(/"address":"(http:\/\/127\.0\.0\.1:\d+)"/, SLOW_BOUND_MS))[1]!;
      return proc;
    };

    const first = await start(sqlite);
    await first.waitFor(/"event":"order_submitted"/, SLOW_BOUND_MS);
    const killed = await fetch(`${address}/control/kill-switch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'switch test' }),
    });
    expect(killed.status).toBe(200);
    await first.waitFor(/"event":"control_changed","state":"killed"/, SLOW_BOUND_MS);

    const onRedis = await start(redis);
    await onRedis.waitFor(/"event":"order_submitted"/, SLOW_BOUND_MS);
    await endAll(procs);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });

    const back = await start(sqlite, COUNTED_RETRIES_ENV);
    // (The API, started first, opened the path: the trading process finds an empty file there.)
    await expectWaitingWithoutTrading(back, /no control record|does not exist/);
    await endAll(procs);

    const adopt = startTcs(['store', 'adopt', '--reason', 'file lost'], traderEnv(sqlite), dir);
    procs.push(adopt);
    expect((await adopt.exited).code, adopt.stderr()).toBe(0);
    expect(adopt.stderr()).toMatch(/killed at epoch/);
    const adopted = await start(sqlite);
    await adopted.waitFor(/KILLED since/, SLOW_BOUND_MS);
    expect(adopted.stdout()).not.toMatch(/"event":"order_submitted"/);
    expect(existsSync(path)).toBe(true);
  }, 240_000);
});
