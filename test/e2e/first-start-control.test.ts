/**
 * Issue 30, finding 1: on a first start (a new SQLite file, an empty Redis prefix) a kill pressed as
 * soon as the API answered was refused 503 ("the store is not the one this service knew (empty) …
 * `tcs store adopt`"), and the trading process then created the control record as `running` and
 * traded. `tcs start` now creates the record (and the latch's entry) before either process serves,
 * so control works from the API's first answer, and the trading process obeys what was recorded
 * before its first cycle: killed or paused, it runs no cycle at all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { TEST_REDIS_URL, deletePrefix, requireRedis, uniquePrefix } from '../support/redis.js';
import { PERMISSIVE_ENV } from '../support/trading.js';

interface HealthBody {
  status: string;
  state?: string;
  reason?: string;
  components: { trading_process: { status: string; last_cycle: number | null } };
}

describe.each(['sqlite', 'redis'] as const)('control from the first answer of a first start on %s', (kind) => {
  let dir = '';
  let prefix = '';
  let proc: RunningProcess | undefined;
  afterEach(async () => {
    await proc?.stop();
    proc = undefined;
    if (prefix) await deletePrefix(prefix);
    prefix = '';
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  let env: Record<string, string> = {};
  async function firstStart(): Promise<{ call: (method: string, path: string, body?: unknown) => Promise<Response> }> {
    dir = mkdtempSync(join(tmpdir(), 'tcs-first-control-'));
    const key = generateKey();
    env = {
      ...PERMISSIVE_ENV,
      CYCLE_SECONDS: '0.25',
      SERVICE_API_KEY: key,
      RISK_HMAC_SECRET: generateKey(),
      PORT: '0',
      LOG_LEVEL: 'info',
      HEARTBEAT_MS: '200',
      STORE_TIMEOUT_MS: '3000',
    };
    if (kind === 'redis') {
      await requireRedis();
      prefix = uniquePrefix('first-control');
      env.STORE_URL = `${TEST_REDIS_URL}?prefix=${encodeURIComponent(prefix)}`;
    }
    return startAgain(key);
  }

  async function startAgain(key = env.SERVICE_API_KEY!) {
    proc = startTcs(['start'], env, dir);
    const [, base] = await proc.waitFor(/"address":"(http:\/\/127\.0\.0\.1:\d+)"/, 60_000);
    const call = (method: string, path: string, body?: unknown) =>
      fetch(base + path, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    return { call };
  }

  /** Waits until the trading process beats, then until it has lived `cycles` cycle lengths. */
  async function tradingProcessUpFor(call: (m: string, p: string) => Promise<Response>, ms: number): Promise<void> {
    const seen: number[] = [];
    await vi.waitFor(
      async () => {
        const body = (await (await call('GET', '/health')).json()) as HealthBody;
        expect(body.components.trading_process.status).toBe('ok');
        seen.push(performance.now());
        expect(seen.at(-1)! - seen[0]!).toBeGreaterThanOrEqual(ms);
      },
      { timeout: 60_000, interval: 50 },
    );
  }

  it('records a kill pressed at the first answer, and the trading process starts killed and trades nothing', async () => {
    const { call } = await firstStart();
    const kill = await call('POST', '/control/kill-switch', { reason: 'wrong keys, caught at once' });
    expect(kill.status, await kill.clone().text()).toBe(200);
    expect(((await kill.json()) as { action: string }).action).toBe('killed');
    const status = await call('GET', '/control/status');
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ state: 'killed' });
    const events = await call('GET', '/control/events');
    expect(events.status).toBe(200);

    await tradingProcessUpFor(call, 1500);
    const lines = proc!.stdout();
    expect(lines).not.toMatch(/"event":"cycle_start"/);
    expect(lines).not.toMatch(/"event":"order_submitted"/);
    expect(((await (await call('GET', '/health')).json()) as HealthBody).state).toBe('killed');
  }, 120_000);

  it('a pause pressed at the first answer holds: the trading process starts paused and runs no cycle', async () => {
    const { call } = await firstStart();
    const pause = await call('POST', '/control/pause', { reason: 'checking the settings first' });
    expect(pause.status, await pause.clone().text()).toBe(200);
    await tradingProcessUpFor(call, 1500);
    expect(proc!.stdout()).not.toMatch(/"event":"cycle_start"/);
    // Resumed, it trades: the pause was the only thing holding it.
    expect((await call('POST', '/control/resume', {})).status).toBe(200);
    await proc!.waitFor(/"event":"cycle_start"/, 30_000);
  }, 120_000);

  it('a store that lost its data after this host saw it is still the empty fault: never created again', async () => {
    const { call } = await firstStart();
    expect((await call('POST', '/control/kill-switch', { reason: 'before the loss' })).status).toBe(200);
    await proc!.stop();
    // The data is lost while nothing runs: the Redis prefix flushed, the SQLite file deleted.
    if (kind === 'redis') await deletePrefix(prefix);
    else rmSync(join(dir, 'var', 'tcs.db'), { force: true });
    const again = await startAgain();
    const kill = await again.call('POST', '/control/kill-switch', { reason: 'after the loss' });
    expect(kill.status).toBe(503);
    expect(await kill.json()).toMatchObject({ code: 'TCS_STORE_FAULT' });
    const status = await again.call('GET', '/control/status');
    expect(status.status).toBe(503);
    const health = await again.call('GET', '/health');
    expect(health.status).toBe(503);
    expect(proc!.stderr()).not.toMatch(/first start on/);
    // The trading process waits on the fault and trades nothing.
    await proc!.waitFor(/not trading: /, 30_000);
    expect(proc!.stdout()).not.toMatch(/"event":"cycle_start"/);
  }, 120_000);
});
