/**
 * Waiting for another process's write lock without stopping the event loop (issue 18, finding 5):
 * the retry schedule with an injected clock, then the store on a real file whose lock a real other
 * process holds (fixtures/lock-holder.ts): calls wait from timers while the loop turns, reads answer
 * meanwhile, a write commits once and whole when the lock is let go, and past the deadline it is a
 * StoreUnavailableError that wrote nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIRST_PAUSE_MS, lockWaiter, MAX_PAUSE_MS } from '../../../src/adapters/sqlite/lock-wait.js';
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.js';
import { applyControl } from '../../../src/application/control-transition.js';
import { StoreUnavailableError } from '../../../src/ports/store-errors.js';
import type { Store } from '../../../src/ports/store.js';
import { initialised } from '../../support/stores.js';
import { holdWriteLock } from './hold-write-lock.js';
import type { LockHolder } from './hold-write-lock.js';
import { cancelPayload } from '../../support/commands.js';

function busy(): Error {
  return Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
}

/** Lets every pending promise callback run (one full turn of the real event loop). */
const settle = () => nextTurn();

/** Fake time: sleepers wake at their time, in time order, when the test lets time pass. */
function fakeClock() {
  const timers: Array<{ at: number; wake: () => void }> = [];
  const clock = {
    t: 0,
    pauses: [] as number[],
    now: () => clock.t,
    sleep(ms: number): Promise<void> {
      clock.pauses.push(ms);
      return new Promise((wake) => timers.push({ at: clock.t + ms, wake }));
    },
    /** Lets time pass until `until` (or until nobody sleeps any more). */
    async pass(until = Number.POSITIVE_INFINITY): Promise<void> {
      for (;;) {
        await settle();
        timers.sort((x, y) => x.at - y.at);
        const next = timers[0];
        if (next === undefined || next.at > until) break;
        timers.shift();
        clock.t = next.at;
        next.wake();
      }
      if (Number.isFinite(until)) clock.t = until;
    },
  };
  return clock;
}

describe('lock wait: the schedule', () => {
  it('answers from the first try without a pause when there is no lock', async () => {
    const clock = fakeClock();
    expect(await lockWaiter(500, clock).now(() => 42)).toBe(42);
    expect(clock.pauses).toEqual([]);
  });

  it('tries again after short, growing pauses and takes the lock as soon as it is free', async () => {
    const clock = fakeClock();
    let tries = 0;
    const written = lockWaiter(500, clock).now(() => {
      tries += 1;
      if (tries <= 7) throw busy();
      return 'written';
    });
    await clock.pass();
    expect(await written).toBe('written');
    expect(tries).toBe(8);
    expect(clock.pauses).toEqual([FIRST_PAUSE_MS, 2, 4, 8, MAX_PAUSE_MS, MAX_PAUSE_MS, MAX_PAUSE_MS]);
  });

  it('past the deadline gives the last SQLITE_BUSY, after one last try at the deadline itself', async () => {
    const clock = fakeClock();
    const tried: number[] = [];
    const errors: Error[] = [];
    const refusal = lockWaiter(100, clock)
      .now(() => {
        tried.push(clock.t);
        const err = busy();
        errors.push(err);
        throw err;
      })
      .catch((err: unknown) => err);
    await clock.pass();
    expect(await refusal).toBe(errors.at(-1));
    expect(errors.length).toBeGreaterThan(1);
    expect(tried.at(-1)).toBe(100);
    expect(clock.pauses.every((ms) => ms > 0 && ms <= MAX_PAUSE_MS)).toBe(true);
  });

  it('writes land in the order they were made: a later one waits behind an earlier one still waiting', async () => {
    const clock = fakeClock();
    const lock = lockWaiter(500, clock);
    const landed: string[] = [];
    // The lock comes free at 22 ms. The first write tries at 0, 1, 3, 7, 15, 31 ms; the second, made
    // at 20 ms, would try at 20, 21, 23 ms: on its own schedule it would land first.
    const write = (name: string) => () => {
      if (clock.t < 22) throw busy();
      landed.push(name);
    };
    const first = lock.inOrder(write('first'));
    await clock.pass(20);
    const second = lock.inOrder(write('second'));
    await clock.pass();
    await Promise.all([first, second]);
    expect(landed).toEqual(['first', 'second']);
    // Once none waits, a write runs in its caller's turn again.
    let ran = false;
    const third = lock.inOrder(() => (ran = true));
    expect(ran).toBe(true);
    await third;
  });

  it('a write queued behind one that waited out its deadline keeps its own deadline, from its call', async () => {
    const clock = fakeClock();
    const lock = lockWaiter(100, clock);
    const first = lock
      .inOrder(() => {
        throw busy();
      })
      .catch((err: unknown) => err);
    await clock.pass(30);
    const triedAt: number[] = [];
    const second = lock
      .inOrder(() => {
        triedAt.push(clock.t);
        throw busy();
      })
      .catch((err: unknown) => err);
    await clock.pass();
    expect(await first).toMatchObject({ code: 'SQLITE_BUSY' });
    expect(await second).toMatchObject({ code: 'SQLITE_BUSY' });
    expect(triedAt[0]).toBe(100); // not before the first had given up
    expect(triedAt.at(-1)).toBe(130);
  });

  it('does not retry anything but a lock: other errors reach the caller at once', async () => {
    const clock = fakeClock();
    let tries = 0;
    const failure = Object.assign(new Error('no such table: kv'), { code: 'SQLITE_ERROR' });
    await expect(
      lockWaiter(500, clock).now(() => {
        tries += 1;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(tries).toBe(1);
    expect(clock.pauses).toEqual([]);
  });
});

describe('lock wait: a store whose file another process has locked', () => {
  let dir: string;
  let path: string;
  let store: Store | undefined;
  let holder: LockHolder | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-sqlite-lock-'));
    path = join(dir, 'tcs.db');
  });

  afterEach(async () => {
    await holder?.stop();
    await store?.close();
    holder = undefined;
    store = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes wait from timers while the loop turns and reads answer; each commits once, whole, when the lock is let go', async () => {
    store = await initialised(await openSqliteStore({ path, timeoutMs: 5_000 }));
    holder = await holdWriteLock(path);
    const at = new Date().toISOString();
    const pending = new Set<string>();
    const track = <T>(name: string, p: Promise<T>): Promise<T> => {
      pending.add(name);
      return p.finally(() => pending.delete(name));
    };

    const writes = Promise.all([
      track('control', applyControl(store.control, { type: 'control.pause', reason: 'locked' }, { actor: 't', at })),
      track('append', store.events.append({ kind: 'decision', at, symbol: null, body: { n: 1 } })),
      track('kv', store.kv.set('k', { v: 1 })),
      track(
        'enqueue',
        store.commands.enqueue({ id: 'c1', type: 'cancel_all', payload: cancelPayload(), enqueued_at: at }),
      ),
    ]);
    // Two full turns of the event loop: a write that waited inside its call would have ended already.
    await nextTurn();
    await nextTurn();
    expect([...pending].sort()).toEqual(['append', 'control', 'enqueue', 'kv']);
    // WAL: reads do not need the write lock, and are served while the writes wait.
    expect(await store.control.read()).toMatchObject({ state: 'running', epoch: 0 });
    expect(await store.kv.get('k')).toBeNull();
    expect(await store.events.count()).toBe(0);

    await holder.release();
    const [control, appended] = await writes;
    expect(control.outcome).toBe('changed');
    expect(await store.control.read()).toMatchObject({ state: 'paused', epoch: 1 });
    expect(appended.seq).toBeGreaterThanOrEqual(1);
    // Each write once: one control entry and one decision, on an intact chain; the holder's write is gone.
    expect(await store.events.verify()).toMatchObject({ ok: true, count: 2 });
    expect(await store.kv.get('k')).toEqual({ v: 1 });
    expect(await store.kv.get('lock-holder')).toBeNull();
    expect(await store.commands.get('c1')).toMatchObject({ status: 'pending' });
  });

  it('past the deadline a write is a StoreUnavailableError and writes nothing; after the release it goes through', async () => {
    store = await initialised(await openSqliteStore({ path, timeoutMs: 200 }));
    holder = await holdWriteLock(path);
    const at = new Date().toISOString();

    await expect(store.kv.set('k', 1)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(
      applyControl(store.control, { type: 'control.kill', reason: 'locked' }, { actor: 't', at }),
    ).rejects.toThrow(/database is locked/);
    expect(await store.kv.get('k')).toBeNull();
    expect(await store.control.read()).toMatchObject({ state: 'running', epoch: 0 });
    expect(await store.events.count()).toBe(0);

    await holder.release();
    await store.kv.set('k', 1);
    expect(await store.kv.get('k')).toBe(1);
  });

  it('a store opens while another process holds the write lock, and reads at once', async () => {
    await (await initialised(await openSqliteStore({ path }))).close();
    holder = await holdWriteLock(path);
    store = await openSqliteStore({ path, mustExist: true, timeoutMs: 5_000 });
    expect(await store.control.read()).toMatchObject({ state: 'running', epoch: 0 });
  });
});
