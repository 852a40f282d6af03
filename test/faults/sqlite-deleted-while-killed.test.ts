/**
 * Issue 8, finding 2: a SQLite file deleted while the system is killed must not bring trading back.
 * The real `tcs api` and `tcs trade` run as separate processes (each in its own cwd) on one file;
 * the system is killed over HTTP; the file and its -wal/-shm are removed and the trading process is
 * SIGKILLed and started again in the same cwd (so with the same latch). Before issue 8 it created a
 * fresh database seeded `running` and traded, while the API, still on the deleted inode, reported
 * `killed`, /health ok, and took a new kill switch (200) into a file nobody would read again. Now the
 * restarted process must not create the file, must say it is not trading and trade nothing, and the
 * API must answer 503 on /health, status and the kill switch, saying the kill was NOT recorded.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { callApi } from '../support/fault-api.js';
import { startApi, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { expectHealthDown, expectStoreFailure } from './expect-store-failure.js';
import {
  COUNTED_RETRIES_ENV,
  endAll,
  expectWaitingWithoutTrading,
  scratch,
  SLOW_BOUND_MS,
  traderEnv,
} from './support.js';

describe('SQLite file deleted while killed', () => {
  const dirs = scratch();
  const procs: RunningProcess[] = [];

  afterEach(async () => {
    await endAll(procs.splice(0));
    dirs.removeAll();
  });

  it('the restarted trading process creates no database and trades nothing; the API answers 503', async () => {
    const path = join(dirs.dir('sqlite-store'), 'tcs.db');
    const files = [path, `${path}-wal`, `${path}-shm`];
    const key = generateKey();
    const env = traderEnv(`sqlite:${path}`);
    const tradeDir = dirs.dir('sqlite-trade');
    const trade = (extra: Record<string, string> = {}) => {
      const proc = startTcs(['trade'], { ...env, ...extra }, tradeDir);
      procs.push(proc);
      return proc;
    };

    // A first start creates the database (and the latch); the API then lets it trade.
    const first = trade();
    await first.waitFor(/trading process started/, SLOW_BOUND_MS);
    const api = await startApi(
      { SERVICE_API_KEY: key, STORE_URL: `sqlite:${path}`, STORE_TIMEOUT_MS: '3000' },
      {
        cwd: dirs.dir('sqlite-api'),
      },
      SLOW_BOUND_MS,
    );
    procs.push(api.proc);
    const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
      callApi(api.baseUrl, key, method, path, body, SLOW_BOUND_MS);
    await first.waitFor(/"event":"order_submitted"/, SLOW_BOUND_MS); // it trades while all is well

    const killed = await call('POST', '/control/kill-switch', { reason: 'fault test' });
    expect(killed.status, JSON.stringify(killed.body)).toBe(200);
    expect((await call('GET', '/control/status')).body).toMatchObject({ state: 'killed', epoch: 1 });
    await first.waitFor(/"event":"control_changed","state":"killed","epoch":1/, SLOW_BOUND_MS);

    // The database goes; the trading process dies and comes back with the same latch.
    for (const file of files) rmSync(file, { force: true });
    first.child.kill('SIGKILL');
    await first.exited;
    const second = trade(COUNTED_RETRIES_ENV);

    await expectWaitingWithoutTrading(second, /does not exist: it was deleted/, async () => {
      expect(existsSync(path), 'a new database file was created').toBe(false);
    });

    // The API, on the deleted inode, knows the file is gone and records nothing in it.
    expectHealthDown(await call('GET', '/health'), /replaced|deleted/);
    expectStoreFailure(await call('GET', '/control/status'), 'TCS_STORE_FAULT');
    const again = await call('POST', '/control/kill-switch', { reason: 'again' });
    expectStoreFailure(again, 'TCS_STORE_FAULT');
    expect(again.body.message).toMatch(/NOT recorded/);
    expect(second.child.exitCode).toBeNull();
    expect(second.stdout()).not.toMatch(/"event":"(cycle_start|order_submitted)"/);
    // Nor does the API, closing its store on the deleted inode, leave a file behind at the path.
    await api.proc.stop('SIGTERM');
    for (const file of files) expect(existsSync(file), file).toBe(false);
  }, 180_000);
});
