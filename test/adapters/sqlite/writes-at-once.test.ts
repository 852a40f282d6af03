/**
 * Issue 30, finding 5: a flood of commands halted trading on `lease_unconfirmed`, because the trading
 * lease's renewals (and the safety monitor's write probe) took their turn behind every write of the
 * process that was waiting for another connection's lock. Now they are written at once: they keep no
 * order with the other writes (a renewal counts up and stamps its own time; nobody reads the probe)
 * and never queue behind them. A real file; the lock is held by a second real connection; the wait
 * of the queued write runs on an injected clock that does not move, so it stays queued for as long as
 * the test looks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.js';
import type { Store } from '../../../src/ports/store.js';
import { initialised } from '../../support/stores.js';

/** A clock whose pauses never end by themselves: a write that met the lock waits until `wake()`. */
function stoppedClock() {
  const sleepers: Array<() => void> = [];
  return {
    now: () => 0,
    sleep: () => new Promise<void>((wake) => sleepers.push(wake)),
    wake: () => sleepers.splice(0).forEach((wake) => wake()),
    get sleeping() {
      return sleepers.length;
    },
  };
}

/** Whether `p` has settled after a few turns of the event loop. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i++) await nextTurn();
  return done;
}

describe('writes that never wait behind the queue (SQLite)', () => {
  let dir = '';
  let store: Store | undefined;
  let other: Database.Database | undefined;
  afterEach(async () => {
    other?.close();
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    other = store = undefined;
  });

  async function queuedBehindTheLock() {
    dir = mkdtempSync(join(tmpdir(), 'tcs-at-once-'));
    const path = join(dir, 'tcs.db');
    const clock = stoppedClock();
    const s = (store = await initialised(await openSqliteStore({ path, timeoutMs: 60_000, lockWaitClock: clock })));
    const grant = await s.lease.acquire('trader-1', 10_000);
    if (!grant.acquired) throw new Error('the lease was not free');
    // Another connection takes the write lock: the next write of the store meets it and waits.
    other = new Database(path);
    other.prepare('BEGIN IMMEDIATE').run();
    const queued = s.kv.set('paper:state', { waiting: true });
    await nextTurn();
    expect(clock.sleeping).toBe(1);
    // The lock is let go, but the queued write's pause has not ended: it is still waiting its turn.
    other.prepare('COMMIT').run();
    return { s, clock, queued, fence: grant.grant.fence, grant: grant.grant };
  }

  it('a lease renewal is written while an earlier write still waits for its turn', async () => {
    const { s, clock, queued, grant } = await queuedBehindTheLock();
    const renewal = s.lease.renew(grant, 10_000);
    expect(await settled(renewal)).toBe(true);
    expect(await renewal).toBe(true);
    expect(await settled(queued)).toBe(false);
    clock.wake();
    await queued;
  });

  it('a write probe (kv set at once) is written while an earlier write still waits for its turn', async () => {
    const { s, clock, queued, fence } = await queuedBehindTheLock();
    const probe = s.kv.set('trading:write-probe', { ts: 1 }, fence, { atOnce: true });
    expect(await settled(probe)).toBe(true);
    expect(await s.kv.get('trading:write-probe')).toEqual({ ts: 1 });
    expect(await settled(queued)).toBe(false);
    clock.wake();
    await queued;
    expect(await s.kv.get('paper:state')).toEqual({ waiting: true });
  });
});
