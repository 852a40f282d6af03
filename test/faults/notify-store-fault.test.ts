/**
 * `tcs notify` over a store that fails (issue 35: store faults as notices). The notices about the
 * store cannot go through the store, so they are posted from the notifier's memory: a loopback
 * receiver of the test's own gets `store_fault` once the fault has lasted NOTIFY_STORE_FAULT_MS and
 * `store_recovered` when it ends, both under ids named by the fault's start. A redis-server of the
 * test's own refuses writes (maxmemory), is killed and restarted from its append-only file, then
 * comes back empty and is written on by someone else: the notifier never reads that as a fresh
 * start (nothing of the new trail is sent) and loses no position. A read-only SQLite file (the
 * notifier run as nobody, whom file modes bind) is a store fault too.
 */
import { Redis } from 'ioredis';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../src/adapters/redis/redis-store.js';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { verifySignature } from '../../src/domain/notifications/webhook.js';
import type { Store } from '../../src/ports/store.js';
import type { RunningProcess } from '../support/processes.js';
import { startTcs } from '../support/processes.js';
import { startOwnRedis } from '../support/redis-server.js';
import type { OwnRedis } from '../support/redis-server.js';
import { initialised } from '../support/stores.js';

const SECRET = 's'.repeat(40);
const NOBODY = 65534;
const dir = mkdtempSync(join(tmpdir(), 'tcs-notify-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Got {
  delivery: string;
  valid: boolean;
  kind: string;
  text: string;
  data: Record<string, unknown>;
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function receiver(): Promise<{ server: Server; url: string; got: Got[] }> {
  const got: Got[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const json = JSON.parse(body) as { kind: string; text: string; data: Record<string, unknown> };
      got.push({
        delivery: String(req.headers['x-tcs-delivery']),
        valid: verifySignature(SECRET, body, String(req.headers['x-tcs-signature']), Date.now() / 1000),
        kind: json.kind,
        text: json.text,
        data: json.data,
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}

const kill = (store: Store, reason: string) =>
  store.events.append({
    kind: 'control',
    at: new Date().toISOString(),
    body: { event: 'control.kill', outcome: 'changed', reason, actor: 'api' },
  });

const of = (got: Got[], kind: string) => got.filter((g) => g.kind === kind);

describe('tcs notify over a failing store', () => {
  let redis: OwnRedis;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let notifier: RunningProcess | undefined;

  beforeEach(async () => {
    rx = await receiver();
  });
  afterEach(async () => {
    if (notifier) await notifier.stop('SIGKILL');
    notifier = undefined;
    await redis?.cleanup();
    await new Promise<void>((r) => rx.server.close(() => r()));
  });

  it('Redis refusing writes, killed, restarted, then back empty and written on: told once each, nothing re-sent', async () => {
    redis = await startOwnRedis({ appendOnly: true });
    const writer = await initialised(await openRedisStore({ url: redis.url, onError: () => {} }));
    const admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    try {
      await kill(writer, 'before');
      const proc = startTcs(
        ['notify'],
        {
          STORE_URL: redis.url,
          NOTIFY_WEBHOOK_URLS: rx.url,
          NOTIFY_WEBHOOK_SECRET: SECRET,
          NOTIFY_STORE_FAULT_MS: '1500',
          STORE_TIMEOUT_MS: '500',
        },
        dir,
      );
      notifier = proc;
      await until(() => of(rx.got, 'kill').length === 1, 20_000, 'the kill is told');

      // 1. Writes refused (OOM): the notifier's own status write fails every round.
      await admin.config('SET', 'maxmemory', '1');
      await until(() => of(rx.got, 'store_fault').length === 1, 20_000, 'the refusal is told');
      expect(of(rx.got, 'store_fault')[0]!.text).toMatch(/OOM/);
      await admin.config('SET', 'maxmemory', '0');
      await until(() => of(rx.got, 'store_recovered').length === 1, 20_000, 'its end is told');
      const [fault1] = of(rx.got, 'store_fault');
      expect(of(rx.got, 'store_recovered')[0]!.data.fault_since).toBe(fault1!.data.fault_since);

      // 2. Unreachable: killed, then restarted from its append-only file (the outbox with it).
      await redis.kill();
      await until(() => of(rx.got, 'store_fault').length === 2, 20_000, 'the outage is told');
      await redis.restart();
      await until(() => of(rx.got, 'store_recovered').length === 2, 30_000, 'the return is told');
      await kill(writer, 'after the restart');
      await until(() => of(rx.got, 'kill').length >= 2, 20_000, 'the next kill is told');

      // 3. Back empty, and someone writes a trail of their own on it: a fault, never a fresh start.
      await redis.restart({ empty: true });
      const other = await initialised(await openRedisStore({ url: redis.url, onError: () => {} }));
      for (let i = 0; i < 3; i++) await kill(other, `other store ${i}`);
      await other.close();
      await until(() => of(rx.got, 'store_fault').length === 3, 30_000, 'the empty store is told');
      expect(of(rx.got, 'store_fault')[2]!.text).toMatch(/behind|empty/);
      // A few more rounds: still nothing of the other trail, and no recovery claimed.
      const errors = () => proc.stderr().split('notifier_error').length - 1;
      const rounds = errors();
      await until(() => errors() >= rounds + 4, 20_000, 'more rounds');

      expect(of(rx.got, 'kill').map((g) => g.text)).toEqual([
        'control.kill by api: before',
        'control.kill by api: after the restart',
      ]);
      expect(of(rx.got, 'store_recovered')).toHaveLength(2);
      const ids = rx.got.map((g) => g.delivery);
      expect(new Set(ids).size).toBe(ids.length);
      expect(rx.got.every((g) => g.valid)).toBe(true);
      // Neither the webhook's address in the notifier's lines nor the store's in what receivers get.
      expect(proc.stdout() + proc.stderr()).not.toContain(rx.url);
      expect(JSON.stringify(rx.got)).not.toContain(String(redis.port));
    } finally {
      admin.disconnect();
      await writer.close();
    }
  }, 180_000);

  it('a read-only SQLite file (the notifier as nobody): store_fault naming the refusal', async () => {
    // A directory of its own in the temp root: nobody cannot enter the test's (root's, mode 0700).
    const sub = mkdtempSync(join(tmpdir(), 'tcs-notify-ro-'));
    const path = join(sub, 'store.db');
    const seeded = await initialised(await openSqliteStore({ path }));
    await kill(seeded, 'seeded');
    await seeded.close();
    chmodSync(sub, 0o755);
    for (const file of [sub, path]) chownSync(file, NOBODY, NOBODY);
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
    chmodSync(path, 0o444);
    notifier = startTcs(
      ['notify'],
      {
        STORE_URL: `sqlite:${path}`,
        NOTIFY_WEBHOOK_URLS: rx.url,
        NOTIFY_WEBHOOK_SECRET: SECRET,
        NOTIFY_STORE_FAULT_MS: '1000',
      },
      { cwd: sub, uid: NOBODY, gid: NOBODY },
    );
    await until(() => of(rx.got, 'store_fault').length === 1, 30_000, 'the read-only file is told');
    expect(of(rx.got, 'store_fault')[0]!.text).toMatch(/readonly|read-only|refused/i);
    expect(JSON.stringify(rx.got)).not.toContain(sub);
    expect(rx.got.every((g) => g.valid)).toBe(true);
    rmSync(sub, { recursive: true, force: true });
  }, 60_000);
});
