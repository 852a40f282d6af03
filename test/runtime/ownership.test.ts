/**
 * One trading process per store, by the lease: a live holder (here or elsewhere) refuses the start;
 * a dead predecessor on this host, or a previous life of this pid, is taken over at once.
 */
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AnotherTradingProcessError,
  holderName,
  isDeadHere,
  takeTradingLease,
} from '../../src/runtime/trading/ownership.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

/** The pid of a process that ran and exited: certainly dead now. */
function deadPid(): number {
  const run = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(run.stdout.toString());
}

describe('trading ownership by lease', () => {
  let t: TestStore | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('refuses while a live process holds the lease, on this host or another', async () => {
    const s = (t = await openTestStore('sqlite'));
    // A live holder renews (every third of its lease, as the lease keeper does): on SQLite the taker
    // watches the renewals move and refuses.
    const held = await takeTradingLease(s.store.lease, holderName(process.ppid), 3_000);
    const renewing = setInterval(() => void s.store.lease.renew(held, 3_000), 1_000);
    try {
      const taker = await s.openAnother();
      const refused = takeTradingLease(taker.lease, holderName(), 3_000);
      await expect(refused).rejects.toThrow(AnotherTradingProcessError);
      await expect(refused).rejects.toThrow(/renewed it while this process watched/);
    } finally {
      clearInterval(renewing);
    }
    const other = await openTestStore('redis');
    try {
      await takeTradingLease(other.store.lease, holderName(123, 'elsewhere'), 10_000);
      await expect(takeTradingLease(other.store.lease, holderName(), 10_000)).rejects.toThrow(/123@elsewhere/);
    } finally {
      await other.cleanup();
    }
  });

  it('SQLite: takes over from a holder elsewhere whose renewals stood still for a whole lease, not before', async () => {
    t = await openTestStore('sqlite');
    const gone = await takeTradingLease(t.store.lease, holderName(123, 'elsewhere'), 2_000);
    const taker = await t.openAnother();
    const started = performance.now();
    const mine = await takeTradingLease(taker.lease, holderName(), 2_000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(mine.fence).toBe(gone.fence + 1);
  });

  it('takes over at once from a dead predecessor on this host, with a higher fence', async () => {
    t = await openTestStore('sqlite');
    const dead = await takeTradingLease(t!.store.lease, holderName(deadPid()), 60_000);
    const mine = await takeTradingLease(t!.store.lease, holderName(), 60_000);
    expect(mine.fence).toBeGreaterThan(dead.fence);
  });

  it('judges holders: dead here, this pid, alive, another host, unparseable', () => {
    expect(isDeadHere(holderName(deadPid()))).toBe(true);
    expect(isDeadHere(holderName(process.pid))).toBe(true);
    expect(isDeadHere(holderName(process.ppid))).toBe(false);
    expect(isDeadHere(holderName(deadPid(), `not-${hostname()}`))).toBe(false);
    expect(isDeadHere('garbage')).toBe(false);
  });
});
