/**
 * Issue 19: /health says why. Issue 30: /health and the control routes never disagree. On a real
 * SQLite store and a real latch file, with the clock injected: an uninitialised store nobody is known
 * to have seen is 503 `not_initialised` (no kill can be recorded on it), naming `tcs store init`,
 * never `tcs store adopt`, however long the API has run; one the trading latch here remembers, or this
 * API saw, is the `empty` fault, with the command that accepts it. A store the trading process refuses (judged against its latch entry)
 * while the API serves it is `degraded` with that fault as the reason, not a bare `degraded`.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { latchFile } from '../../src/adapters/latch/latch-file.js';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { healthChecker } from '../../src/api/health.js';
import type { Store } from '../../src/ports/store.js';
import { apiStoreView } from '../../src/runtime/api-store-view.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const DEADLINE_MS = 5_000; // behaviour, not speed, on a loaded machine

describe('/health and the store view', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setup() {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tcs-health-')));
    const path = join(dir, 'tcs.db');
    const store = await openSqliteStore({ path });
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    cleanups.push(() => store.close());
    let now = T0;
    let seen = false;
    const latchPath = join(dir, 'latch.json');
    const view = apiStoreView({ raw: store, storeUrl: `sqlite:${path}`, latchPath, seenRecord: () => seen });
    return {
      store,
      path,
      latch: latchFile(latchPath, `sqlite:${path}`),
      view,
      clock: { now: () => now },
      advance: (ms: number) => (now += ms),
      see: () => (seen = true),
      checker: (s: Store = store) => healthChecker(s, { now: () => now }, DEADLINE_MS, view),
    };
  }

  it('an uninitialised store nobody saw is 503 not_initialised, resolved by tcs store init, at any age', async () => {
    const t = await setup();
    const health = t.checker();
    for (const _ of [0, 1]) {
      const answer = await health.check();
      expect(answer.statusCode).toBe(503);
      expect(answer.body).toMatchObject({
        status: 'down',
        state: null,
        components: { store: { status: 'down', reason: 'not_initialised', resolve: 'tcs store init' } },
      });
      expect(answer.body.reason).toMatch(/not_initialised.*to initialise it: tcs store init/);
      expect(answer.body.reason).not.toMatch(/adopt/);
      t.advance(3_600_000);
    }
  });

  it('an empty store the latch remembers, or this API saw, is the fault at once', async () => {
    const t = await setup();
    await t.latch.save({ storeId: 'known', epoch: 2, state: 'killed', updatedAt: new Date(T0).toISOString() });
    expect((await t.checker().check()).statusCode).toBe(503);

    const u = await setup();
    u.see();
    expect((await u.checker().check()).statusCode).toBe(503);
  });

  it('an empty store with an audit trail lost its record: the fault at once', async () => {
    const t = await setup();
    await t.store.control.initialise(new Date(T0).toISOString());
    await t.store.events.append({ kind: 'note', at: new Date(T0).toISOString(), symbol: null, body: {} });
    // The record removed behind everyone's back (as sqlite-faults.test.ts does); the trail stays.
    const tamper = new Database(t.path);
    tamper.prepare('DELETE FROM control').run();
    tamper.close();
    const answer = await t.checker().check();
    expect(answer.statusCode).toBe(503);
    expect(answer.body.components.store).toMatchObject({ status: 'down', reason: 'empty' });
  });

  it('a store the trading process refuses is degraded with that fault and the command, not a bare degraded', async () => {
    const t = await setup();
    await t.store.control.initialise(new Date(T0).toISOString());
    // The latch here remembers another store at this path: the trading process waits, "replaced".
    await t.latch.save({ storeId: 'another', epoch: 0, state: 'running', updatedAt: new Date(T0).toISOString() });
    const answer = await t.checker().check();
    expect(answer.statusCode).toBe(200);
    expect(answer.body.status).toBe('degraded');
    expect(answer.body.components.trading_process).toMatchObject({
      status: 'unknown',
      reason: expect.stringMatching(/^not trading: the store is not the one this process knew/),
      resolve: `STORE_URL=sqlite:${t.path} tcs store adopt --reason "…"`,
    });
    expect(answer.body.reason).toMatch(/not the one this process knew.*tcs store adopt/);
  });

  it('a store the latch agrees with has no trading fault; degraded still says why', async () => {
    const t = await setup();
    await t.store.control.initialise(new Date(T0).toISOString());
    const record = await t.store.control.read();
    await t.latch.save({ storeId: record.store_id, epoch: 0, state: 'running', updatedAt: new Date(T0).toISOString() });
    const answer = await t.checker().check();
    expect(answer.statusCode).toBe(200);
    expect(answer.body.components.trading_process.reason).toBeUndefined();
    expect(answer.body.reason).toMatch(/no heartbeat from the trading process/);
  });
});
