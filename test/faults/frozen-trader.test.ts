/**
 * A trading process frozen with SIGSTOP (alive, holding its resources, doing nothing) must turn
 * stale in /health after a small multiple of its own HEARTBEAT_MS, not after a fixed 30 s: the
 * heartbeat carries its interval and the API judges it by that.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { generateKey } from '../../src/domain/keys.js';
import type { Store } from '../../src/ports/store.js';
import { eventually, listenApi } from '../support/fault-api.js';
import type { ListeningApi } from '../support/fault-api.js';
import { startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { PERMISSIVE_ENV } from '../support/trading.js';

type Trading = { status: string; heartbeat_age_ms: number | null };

describe('a frozen trading process', () => {
  let dir: string | undefined;
  let store: Store | undefined;
  let api: ListeningApi | undefined;
  let trader: RunningProcess | undefined;

  afterEach(async () => {
    if (trader) {
      trader.child.kill('SIGCONT');
      await trader.stop();
    }
    await api?.close();
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is stale in /health within a few heartbeats (HEARTBEAT_MS=200), not after 30 s', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-frozen-'));
    const path = join(dir, 'tcs.db');
    store = await openSqliteStore({ path });
    api = await listenApi(store);
    trader = startTcs(
      ['trade'],
      {
        ...PERMISSIVE_ENV,
        RISK_HMAC_SECRET: generateKey(),
        STORE_URL: `sqlite:${path}`,
        CYCLE_SECONDS: '3600',
        HEARTBEAT_MS: '200',
        LOG_LEVEL: 'warn',
      },
      dir,
    );
    const trading = async () =>
      ((await api!.call('GET', '/health')).body.components as { trading_process: Trading }).trading_process;
    // Fresh: ok, or halted (no API beats here, so it halts control_plane_lost; it still beats).
    await eventually(async () => ['ok', 'halted'].includes((await trading()).status), 'a fresh heartbeat', 15_000);

    trader.child.kill('SIGSTOP');
    // Bounded well below the old fixed 30 s, well above 3 × 200 ms (and its floor).
    await eventually(async () => (await trading()).status === 'stale', 'the frozen process to turn stale', 10_000);
    const seen = await trading();
    expect(seen.heartbeat_age_ms).toBeGreaterThan(600);
    const health = await api.call('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('degraded');
  });
});
