/**
 * Issue 18, finding 5 (SQLite): the API over a file whose write lock another OS process holds (BEGIN
 * EXCLUSIVE, as `sqlite3 var/tcs.db` does). better-sqlite3's busy timeout was a busy wait inside the
 * call, so every write that met the lock froze the API's event loop until the store's deadline:
 * /health took 1.0–2.5 s and nothing else was served meanwhile. Now a write waits from timers, so
 * the API goes on serving while it waits, /health answers by its own deadline, a kill is recorded
 * when the lock comes free in time and refused (503, not recorded) when it does not, and writes go
 * through again once the holder lets go. The holder is a real process (fixtures/lock-holder.ts),
 * ended by its pid.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { createApi } from '../../src/api/create-api.js';
import { parseInstruments } from '../../src/domain/instruments.js';
import { generateKey } from '../../src/domain/keys.js';
import type { Store } from '../../src/ports/store.js';
import { holdWriteLock } from '../adapters/sqlite/hold-write-lock.js';
import type { LockHolder } from '../adapters/sqlite/hold-write-lock.js';
import { TEST_SYMBOLS } from '../support/api.js';
import { callApi, eventually } from '../support/fault-api.js';
import { initialised } from '../support/stores.js';
import { expectHealthDown, expectStoreFailure } from './expect-store-failure.js';

/** A store deadline far above /health's (900 ms), so a write can be seen waiting while others are served. */
const LONG_WAIT_MS = 5_000;
/** Bound on each HTTP answer: generous for a loaded 2-core machine; what is asserted is the order of things. */
const CALL_BOUND_MS = 20_000;

type Answer = { status: number; body: Record<string, unknown> };
type Call = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<Answer>;

/** The same port object; `entered` resolves when `method` is first called (when that call starts waiting). */
function watchEntry<T extends object>(target: T, method: keyof T & string): { target: T; entered: Promise<void> } {
  let enter!: () => void;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const watched = new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (property !== method || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        enter();
        return Reflect.apply(value, object, args) as unknown;
      };
    },
  });
  return { target: watched, entered };
}

describe('SQLite write lock held by another process', () => {
  const key = generateKey();
  let dir: string;
  let path: string;
  let store: Store | undefined;
  let app: FastifyInstance | undefined;
  let holder: LockHolder | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-sqlite-locked-'));
    path = join(dir, 'tcs.db');
  });

  afterEach(async () => {
    await holder?.stop();
    await app?.close();
    await store?.close();
    holder = undefined;
    app = undefined;
    store = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /** The real API (createApi) on `api`, listening on loopback. */
  async function listen(api: Store): Promise<Call> {
    app = await createApi({
      store: api,
      apiKeys: [key],
      instruments: parseInstruments(TEST_SYMBOLS),
      defaultMode: 'paper',
      controlRateLimit: 10_000,
    });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    return (method, route, body) => callApi(base, key, method, route, body, CALL_BOUND_MS);
  }

  it('a kill waits for the lock without stopping the API: status is served meanwhile, the kill recorded once the lock is let go', async () => {
    store = await initialised(await openSqliteStore({ path, timeoutMs: LONG_WAIT_MS }));
    const cas = watchEntry(store.control, 'compareAndSet');
    const call = await listen({ ...store, control: cas.target });
    holder = await holdWriteLock(path);

    let killAnswered = false;
    const kill = call('POST', '/control/kill-switch', { reason: 'while locked' }).finally(() => {
      killAnswered = true;
    });
    await Promise.race([cas.entered, kill]);
    // A busy wait would hold the whole process until the kill is answered: status could only come after.
    const status = await call('GET', '/control/status');
    expect(status.body).toMatchObject({ state: 'running', epoch: 0 });
    expect(killAnswered, 'the kill was answered before status was served: its wait blocked the API').toBe(false);

    await holder.release();
    const killed = await kill;
    expect(killed.status, JSON.stringify(killed.body)).toBe(200);
    expect((await call('GET', '/control/status')).body).toMatchObject({ state: 'killed', epoch: 1 });
    // Recorded once, whole: one control entry with its audit, on an intact chain.
    const control = await store.events.query({ kind: 'control', limit: 10 });
    expect(control.map((e) => e.body)).toMatchObject([{ event: 'control.kill', to: 'killed', epoch: 1 }]);
    expect(await store.events.verify()).toMatchObject({ ok: true });
  });

  it('/health answers by its own deadline while its write probe waits for the lock, and is ok again after', async () => {
    store = await initialised(await openSqliteStore({ path, timeoutMs: LONG_WAIT_MS }));
    const call = await listen(store);
    holder = await holdWriteLock(path);

    // The store would wait 5 s; only an event loop that keeps running answers at the check's 900 ms
    // deadline (a busy wait answered write_refused once the store gave up, 5 s later).
    expectHealthDown(await call('GET', '/health'), /^deadline$/);

    await holder.release();
    await eventually(async () => (await call('GET', '/health')).status === 200, '/health 200 after the release');
  });

  it('held past the store deadline (default 500 ms): the kill is refused, /health says write_refused; after the release both go through', async () => {
    store = await initialised(await openSqliteStore({ path }));
    const call = await listen(store);
    holder = await holdWriteLock(path);

    const [kill, health] = await Promise.all([
      call('POST', '/control/kill-switch', { reason: 'while locked' }),
      call('GET', '/health'),
    ]);
    expectStoreFailure(kill, 'TCS_STORE_UNAVAILABLE');
    expect(kill.body.message).toMatch(/NOT recorded/);
    expectHealthDown(health, /^write_refused$/);
    expect((await call('GET', '/control/status')).body).toMatchObject({ state: 'running', epoch: 0 });

    await holder.release();
    const killed = await call('POST', '/control/kill-switch', { reason: 'after the release' });
    expect(killed.status, JSON.stringify(killed.body)).toBe(200);
    expect((await call('GET', '/control/status')).body).toMatchObject({ state: 'killed', epoch: 1 });
    expect((await call('GET', '/health')).status).toBe(200);
  });
});
