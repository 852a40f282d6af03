/**
 * Issue 35, "Done when": a receiver that answers 500 forever does not hold up a cycle or a kill. A
 * real `tcs start` (API and trading process, SQLite, quarter-second cycles) and a real `tcs notify`
 * beside it, whose only target answers every post with 500. While the notifier retries, the trading
 * process keeps cycling, a kill over the API is accepted and recorded, and /health shows the backlog
 * with the target's last error without calling the service degraded for it. (How long a kill takes
 * with and without such a receiver is measured in bench/, not asserted here.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { PERMISSIVE_ENV } from '../support/trading.js';

interface HealthBody {
  status: string;
  state: string | null;
  components: {
    trading_process: { status: string; last_cycle: number | null };
    notifier: { status: string; backlog: number | null; targets: { pending: number; last_error: string | null }[] };
  };
}

const SECRET = 'w'.repeat(40);

describe('tcs notify with a receiver that answers 500 forever', () => {
  let dir = '';
  const procs: RunningProcess[] = [];
  let server: Server | undefined;
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.stop();
    server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('never holds up the cycles or a kill; /health shows the backlog and the 500', async () => {
    let posts = 0;
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        posts += 1;
        res.writeHead(500).end();
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

    dir = mkdtempSync(join(tmpdir(), 'tcs-notify-500-'));
    const key = generateKey();
    const store = `sqlite:${join(dir, 'tcs.db')}`;
    const system = startTcs(
      ['start'],
      {
        ...PERMISSIVE_ENV,
        STORE_URL: store,
        CYCLE_SECONDS: '0.25',
        HEARTBEAT_MS: '200',
        SERVICE_API_KEY: key,
        RISK_HMAC_SECRET: generateKey(),
        PORT: '0',
        LOG_LEVEL: 'info',
        STORE_TIMEOUT_MS: '3000',
      },
      dir,
    );
    procs.push(system);
    const [, base] = await system.waitFor(/"address":"(http:\/\/127\.0\.0\.1:\d+)"/, 60_000);
    const call = (method: string, path: string, body?: unknown) =>
      fetch(base + path, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const health = async () => (await (await call('GET', '/health')).json()) as HealthBody;
    await vi.waitFor(async () => expect((await health()).components.trading_process.status).toBe('ok'), {
      timeout: 60_000,
      interval: 100,
    });

    const notifier = startTcs(
      ['notify'],
      { STORE_URL: store, NOTIFY_WEBHOOK_URLS: hook, NOTIFY_WEBHOOK_SECRET: SECRET },
      dir,
    );
    procs.push(notifier);
    await notifier.waitFor(/notifier_started/, 30_000);

    // A pause and a resume are notices: the receiver refuses them, again and again.
    expect((await call('POST', '/control/pause', { reason: 'drill' })).status).toBe(200);
    expect((await call('POST', '/control/resume', { reason: 'drill' })).status).toBe(200);
    await vi.waitFor(
      async () => {
        const h = await health();
        expect(h.components.notifier.backlog).toBeGreaterThan(0);
        expect(h.components.notifier.targets[0]?.last_error).toBe('HTTP 500');
        expect(posts).toBeGreaterThanOrEqual(2);
      },
      { timeout: 60_000, interval: 100 },
    );
    const during = await health();
    expect(during.components.trading_process.status).toBe('ok');
    expect(during.status).toBe('ok'); // the notifier's trouble is shown, not a reason to degrade
    const cycleThen = during.components.trading_process.last_cycle ?? 0;
    const postsThen = posts;

    // Cycles go on while the notifier keeps retrying into the 500s.
    await vi.waitFor(
      async () => {
        expect((await health()).components.trading_process.last_cycle ?? 0).toBeGreaterThanOrEqual(cycleThen + 4);
      },
      { timeout: 30_000, interval: 100 },
    );

    const kill = await call('POST', '/control/kill-switch', { reason: 'drill with a receiver down' });
    expect(kill.status).toBe(200);
    expect(((await kill.json()) as { action: string }).action).toBe('killed');
    expect(await (await call('GET', '/control/status')).json()).toMatchObject({ state: 'killed' });
    // The notifier went on trying meanwhile: the receiver's refusals were no reason to wait.
    await vi.waitFor(() => expect(posts).toBeGreaterThan(postsThen), { timeout: 30_000, interval: 100 });
  }, 180_000);
});
