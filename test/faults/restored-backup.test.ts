/**
 * Issue 18, finding 1: a backup restored at the same control epoch. `tcs trade` runs on a SQLite
 * file; a backup is taken while it trades (SQLite's online backup, no control call afterwards); it
 * trades on, stops, the backup is put back in place and `tcs trade` starts again. The control record
 * is the same (same identity, same epoch), so judging epochs alone took the store for the one it knew
 * and traded on without the entries and fills made after the backup. The latch remembers the audit
 * trail's head beside the epoch: a trail that ends before it is a store gone back in time, and the
 * process waits for the operator instead of trading; `tcs audit verify` run beside the latch says so.
 * `tcs store adopt` accepts it on purpose (the trading process then starts killed). The same on Redis
 * under a running trader: `SAVE`, more trading, the server killed and restarted from its snapshot:
 * the trader halts (`store_rolled_back`) and stays halted; and an API that saw the trail move answers
 * 503 once it comes back shorter.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../src/adapters/redis/redis-store.js';
import { generateKey } from '../../src/domain/keys.js';
import type { Store } from '../../src/ports/store.js';
import { API_HEARTBEAT_KEY } from '../../src/domain/runtime-documents.js';
import { readDocument } from '../../src/ports/documents.js';
import { callApi, eventually } from '../support/fault-api.js';
import { openLiveTrading, until } from '../support/live-trading.js';
import type { LiveTrading } from '../support/live-trading.js';
import { exitWithin, startApi, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { startOwnRedis } from '../support/redis-server.js';
import type { OwnRedis } from '../support/redis-server.js';
import { initialised } from '../support/stores.js';
import { PERMISSIVE_ENV } from '../support/trading.js';

const cycles = (proc: RunningProcess) => (proc.stdout().match(/"event":"cycle_end"/g) ?? []).length;

describe('a SQLite backup restored at the same control epoch', () => {
  let dir = '';
  const procs: RunningProcess[] = [];
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is a store gone back in time: nothing trades on it, and audit verify beside the latch says so', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-restore-'));
    const path = join(dir, 'tcs.db');
    const env = {
      ...PERMISSIVE_ENV,
      STORE_URL: `sqlite:${path}`,
      TRADING_LATCH_PATH: join(dir, 'latch.json'),
      RISK_HMAC_SECRET: generateKey(),
      CYCLE_SECONDS: '0.2',
      CONTROL_PLANE_TIMEOUT: '0',
      LOG_LEVEL: 'info',
    };
    const first = startTcs(['trade'], env, dir);
    procs.push(first);
    await eventually(async () => cycles(first) >= 3, 'three cycles', 30_000);

    // SQLite's online backup while the process trades; no control call before or after it.
    const backup = join(dir, 'backup.db');
    const reader = new Database(path, { readonly: true });
    await reader.backup(backup);
    reader.close();
    const atBackup = cycles(first);
    await eventually(async () => cycles(first) >= atBackup + 5, 'five more cycles', 30_000);
    first.child.kill('SIGTERM');
    expect((await exitWithin(first, 15_000)).code).toBe(0);

    // The restore: the backup in place of the file, without the newer WAL.
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
    copyFileSync(backup, path);

    const second = startTcs(['trade'], env, dir);
    procs.push(second);
    await second.waitFor(/not trading: .*went back in time.*audit trail/, 20_000);
    expect(second.stdout()).not.toMatch(/"event":"cycle_start"/);

    const verify = startTcs(['audit', 'verify'], env, dir);
    procs.push(verify);
    expect((await exitWithin(verify, 15_000)).code).toBe(1);
    expect(verify.stderr()).toMatch(/latch/);

    // Accepted on purpose: the operator's adoption, audited; the trading process then starts killed
    // (entries were lost, and a kill may have been among them).
    await second.stop();
    const adopt = startTcs(['store', 'adopt', '--reason', 'restored from the backup on purpose'], env, dir);
    procs.push(adopt);
    expect((await exitWithin(adopt, 15_000)).code).toBe(0);
    const third = startTcs(['trade'], env, dir);
    procs.push(third);
    await third.waitFor(/"event":"control_changed","state":"killed"/, 20_000);
  }, 90_000);
});

describe('a Redis restarted from an older snapshot under a running trader', () => {
  let redis: OwnRedis | undefined;
  let store: Store | undefined;
  let admin: Redis | undefined;
  let trading: LiveTrading | undefined;
  afterEach(async () => {
    await trading?.close().catch(() => {});
    await store?.close();
    admin?.disconnect();
    await redis?.cleanup();
    trading = store = admin = redis = undefined;
  }, 30_000);

  it('halts it as a store gone back in time (same epoch), and it stays halted', async () => {
    redis = await startOwnRedis();
    store = await initialised(await openRedisStore({ url: redis.url, timeoutMs: 1_000 }));
    admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    trading = await openLiveTrading(store, redis.url, { STORE_LOSS_HALT_MS: '3000' });
    const t = trading;
    const ends = () => t.lines.filter((l) => l.event === 'cycle_end').length;
    await until(() => ends() >= 3, 'three cycles');
    await admin.call('SAVE'); // the snapshot: no control call before or after it
    const atSave = ends();
    await until(() => ends() >= atSave + 5, 'five more cycles');
    admin.disconnect();
    await redis.kill();
    await redis.restart(); // loads dump.rdb: the trail as it was at SAVE

    await until(() => t.halt() === 'store_rolled_back', 'a store_rolled_back halt', 15_000);
    expect(t.haltMessage()).toMatch(/audit trail ends at entry \d+/);
    const cycles = ends();
    // Still halted a good while later (no heal: only the operator's adoption accepts it).
    const later = Date.now() + 1_500;
    await until(() => Date.now() > later, 'a while');
    expect(t.halt()).toBe('store_rolled_back');
    expect(ends()).toBe(cycles);
  }, 60_000);
});

describe('an API whose Redis comes back from an older snapshot', () => {
  let redis: OwnRedis | undefined;
  let api: { proc: RunningProcess; baseUrl: string } | undefined;
  let look: Store | undefined;
  afterEach(async () => {
    await api?.proc.stop();
    await look?.close();
    await redis?.cleanup();
    api = look = redis = undefined;
  }, 30_000);

  it('answers 503 (rolled back) for what it has seen go back, at the same epoch', async () => {
    redis = await startOwnRedis();
    look = await initialised(await openRedisStore({ url: redis.url, timeoutMs: 1_000 }));
    const key = generateKey();
    api = await startApi({ STORE_URL: redis.url, SERVICE_API_KEY: key, API_HEARTBEAT_MS: '100', LOG_LEVEL: 'info' });
    const { baseUrl } = api;
    const admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    await admin.call('SAVE');
    admin.disconnect();
    // Two audited calls after the snapshot that move no epoch (a resume while running, a cancel-all):
    // the trail moves on, the control record stays exactly as it was at the snapshot.
    expect((await callApi(baseUrl, key, 'POST', '/control/resume', { reason: 'a' })).body).toMatchObject({
      changed: false,
    });
    expect((await callApi(baseUrl, key, 'POST', '/control/cancel-all', { symbols: null })).status).toBe(200);
    // Each API heartbeat judges the trail first: two more beats and the API has seen the new head.
    const beat = async () => (await readDocument(look!.kv, API_HEARTBEAT_KEY))?.seq ?? 0;
    const seen = await beat();
    await eventually(async () => (await beat()) >= seen + 2, 'two API heartbeats', 10_000);
    await look.close();
    look = undefined;

    await redis.kill();
    await redis.restart(); // loads dump.rdb: the trail as it was at SAVE, the same epoch 0
    // Unavailable while Redis restarts, then the fault: the trail it saw is gone.
    const code = async () =>
      (await callApi(baseUrl, key, 'GET', '/control/status').catch(() => ({ body: {} as Record<string, unknown> })))
        .body.code;
    await eventually(async () => (await code()) === 'TCS_STORE_FAULT', 'a 503 store fault', 10_000);
    const status = await callApi(baseUrl, key, 'GET', '/control/status');
    expect(status.body).toMatchObject({ code: 'TCS_STORE_FAULT' });
    expect(String(status.body.message), String(status.body.message)).toMatch(/rolled_back.*audit trail ends at entry/);
  }, 60_000);
});
