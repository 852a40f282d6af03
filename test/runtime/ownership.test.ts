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
    await takeTradingLease(s.store.lease, holderName(process.ppid), 10_000);
    await expect(takeTradingLease(t!.store.lease, holderName(), 10_000)).rejects.toThrow(AnotherTradingProcessError);
    const other = await openTestStore('redis');
    try {
      await takeTradingLease(other.store.lease, holderName(123, 'elsewhere'), 10_000);
      await expect(takeTradingLease(other.store.lease, holderName(), 10_000)).rejects.toThrow(/123@elsewhere/);
    } finally {
      await other.cleanup();
    }
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
