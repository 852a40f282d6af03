/**
 * Issue 30, finding 8: one writer with a skewed clock pinned every later audit timestamp. The real
 * `tcs api` runs under Debian's libfaketime a year ahead (its monotonic clock left real), on SQLite
 * and on Redis; a pause through it was recorded a year ahead, and since `at` never goes back along
 * the chain, every later entry — the trader's decisions included — was stamped with that future time
 * and `until=` queries missed them. Now the store checks every chained write against its one clock
 * (Redis `TIME`; the host's, as its kernel stamps files, for SQLite): the pause is refused with a
 * 503 that names the skew, nothing is recorded, and the next writer's entry keeps its own time. The
 * kill alone is never refused for a clock: it is recorded, stamped with the store's clock. A
 * `tcs trade` an hour ahead records nothing in the future and halts `clock_skew` on its first safety
 * tick (it used to go on cycling, each cycle failing to record, with /health saying ok): nothing is
 * submitted while its clock is off.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { callApi } from '../support/fault-api.js';
import { startApi, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { openTestStore, STORE_KINDS } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';
import { scratch, traderEnv } from './support.js';

const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

/** The environment that puts one child process's wall clock `offset` away (libfaketime's syntax). */
function fakeWallClock(offset: string): Record<string, string> {
  if (!existsSync(LIBFAKETIME)) throw new Error(`${LIBFAKETIME} is missing: apt-get install faketime`);
  return { LD_PRELOAD: LIBFAKETIME, FAKETIME: offset, FAKETIME_DONT_FAKE_MONOTONIC: '1' };
}

describe.each(STORE_KINDS)('an API whose clock is a year ahead, on %s', (kind) => {
  let test: TestStore | undefined;
  let api: RunningProcess | undefined;
  afterEach(async () => {
    await api?.stop();
    await test?.cleanup();
    api = test = undefined;
  });

  it('is refused (503 naming the skew) and records nothing, later entries keep their own time; its kill is recorded all the same', async () => {
    test = await openTestStore(kind);
    const key = generateKey();
    const started = await startApi(
      { SERVICE_API_KEY: key, STORE_URL: test.url, ...fakeWallClock('+365d') },
      {},
      60_000,
    );
    api = started.proc;

    const pause = await callApi(
      started.baseUrl,
      key,
      'POST',
      '/control/pause',
      { reason: 'from a skewed host' },
      10_000,
    );
    expect(pause.status, JSON.stringify(pause.body)).toBe(503);
    expect(pause.body.code).toBe('TCS_STORE_UNAVAILABLE');
    expect(String(pause.body.message)).toMatch(/NOT recorded.*clock is 365d \d\d:\d\d:\d\d ahead of the store's clock/);
    expect((await test.store.control.read()).state).toBe('running');
    expect(await test.store.events.query({ limit: 10, kind: 'control' })).toEqual([]);

    // The next writer with a right clock (here, standing in for the trading process) keeps its time.
    const now = new Date().toISOString();
    const decision = await test.store.events.append({ kind: 'decision', at: now, body: { cycle: 1 } });
    expect(decision.at).toBe(now);
    const until = new Date(Date.now() + 60_000).toISOString();
    expect((await test.store.events.query({ limit: 10, until })).map((e) => e.seq)).toContain(decision.seq);

    // The kill is never refused for a clock: it is recorded, stamped with the store's clock.
    const kill = await callApi(
      started.baseUrl,
      key,
      'POST',
      '/control/kill-switch',
      { reason: 'from a skewed host' },
      10_000,
    );
    expect(kill.status, JSON.stringify(kill.body)).toBe(200);
    expect((await test.store.control.read()).state).toBe('killed');
    const [entry] = await test.store.events.query({ limit: 1, kind: 'control' });
    expect(Math.abs(Date.parse(entry!.at) - Date.now())).toBeLessThan(60_000);
    // The writer's own time is kept for whoever reads the trail: a year ahead.
    expect(Date.parse(String(entry!.body.writer_at)) - Date.now()).toBeGreaterThan(300 * 86_400_000);
  }, 90_000);
});

describe.each(STORE_KINDS)('a trading process whose clock is an hour ahead, on %s', (kind) => {
  const dirs = scratch();
  let test: TestStore | undefined;
  let trader: RunningProcess | undefined;
  afterEach(async () => {
    await trader?.stop();
    await test?.cleanup();
    dirs.removeAll();
    trader = test = undefined;
  });

  it('halts clock_skew, submits nothing and records nothing in the future', async () => {
    test = await openTestStore(kind);
    const dir = dirs.dir(`skewed-trader-${kind}`);
    trader = startTcs(
      ['trade'],
      {
        ...traderEnv(test.url, { TRADING_LATCH_PATH: `${dir}/latch.json`, CONTROL_PLANE_TIMEOUT: '0' }),
        ...fakeWallClock('+1h'),
      },
      dir,
    );
    await trader.waitFor(/"event":"trading_halted","reason":"clock_skew"/, 60_000);
    await trader.waitFor(/clock is 01:00:\d\d ahead of the store's clock/, 30_000);
    // Found before the root started (the preflight): not one cycle ran, nothing was submitted.
    const before = trader.stdout().split('"event":"trading_halted"')[0]!;
    expect(before).not.toMatch(/"event":"cycle_start"/);
    expect(trader.stdout()).not.toMatch(/"event":"order_submitted"/);
    const latest = Date.now() + 5_000;
    const entries = await test.store.events.query({ limit: 1000 });
    expect(entries.filter((e) => Date.parse(e.at) > latest)).toEqual([]);
  }, 120_000);
});
