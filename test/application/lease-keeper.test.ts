/**
 * The lease keeper on a real Redis lease: a renewal that fails is not a renewal (the standing turns
 * unconfirmed a quarter of a lease before it could run out); a lease that ran out with nobody taking
 * it meanwhile is taken back with the next token; one that another process held meanwhile is lost,
 * and the token this process got by trying is handed back; one held under this process's own name (a
 * take-back whose reply was lost) is taken back from itself (found in review).
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { redisKeys } from '../../src/adapters/redis/keys.js';
import { createLeaseKeeper } from '../../src/application/lease-keeper.js';
import type { TradingLease } from '../../src/ports/trading-lease.js';
import { TEST_REDIS_URL } from '../support/redis.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

describe('lease keeper', () => {
  let t: TestStore | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  const keep = async (ttlMs: number, now: () => number = Date.now, lease?: TradingLease) => {
    t ??= await openTestStore('redis');
    const attempt = await t.store.lease.acquire('me#1', ttlMs);
    if (!attempt.acquired) throw new Error('not acquired');
    return createLeaseKeeper({
      lease: lease ?? t.store.lease,
      grant: attempt.grant,
      grantedAt: now(),
      ttlMs,
      clock: { now },
      log: () => {},
    });
  };

  /**
   * The keeper's own clock for the tests of a lease that ran out in Redis (a real 50 ms TTL): standing()
   * judges the time since the last confirmed renewal against the lease, so on the wall clock a slow
   * machine (three Redis round trips in one take-back) could read "unconfirmed" after 37.5 ms and
   * fail a test about fences. Time-based standing has its own test above, on an injected clock.
   */
  const frozen = () => 1_000_000;

  /** Waits (bounded) until the lease key ran out in Redis (read directly: taking it would change it). */
  const ranOut = async () => {
    const prefix = new URL(t!.url).searchParams.get('prefix') ?? '';
    const redis = new Redis(TEST_REDIS_URL);
    try {
      const deadline = Date.now() + 5_000;
      while ((await redis.exists(redisKeys(prefix).lease)) === 1) {
        if (Date.now() > deadline) throw new Error('the lease did not run out');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      redis.disconnect();
    }
  };

  it('a failed renewal does not count: unconfirmed once three quarters of the lease have passed', async () => {
    let now = 1_000_000;
    t = await openTestStore('redis');
    const failing: TradingLease = { ...t.store.lease, renew: () => Promise.reject(new Error('Command timed out')) };
    const keeper = await keep(10_000, () => now, failing);
    await keeper.renew();
    expect(keeper.standing()).toEqual({ kind: 'held' });
    now += 7_499;
    await keeper.renew();
    expect(keeper.standing()).toEqual({ kind: 'held' });
    now += 1;
    expect(keeper.standing()).toEqual({ kind: 'unconfirmed', sinceConfirmedMs: 7_500 });
  });

  it('a lease that ran out with nobody taking it is taken back with the next token', async () => {
    const keeper = await keep(50, frozen);
    const fence = keeper.fence();
    await ranOut();
    await keeper.renew();
    expect(keeper.standing()).toEqual({ kind: 'held' });
    expect(keeper.fence()).toBe(fence + 1);
  });

  it('a lease someone else held meanwhile is lost, and the token got by trying is handed back', async () => {
    const keeper = await keep(50, frozen);
    await ranOut();
    const other = await t!.store.lease.acquire('other#2', 10_000);
    if (!other.acquired) throw new Error('the other process must get it');
    await t!.store.lease.release(other.grant);
    await keeper.renew();
    expect(keeper.standing()).toMatchObject({ kind: 'lost' });
    // Handed back: a third process takes it at once.
    expect(await t!.store.lease.acquire('third#3', 10_000)).toMatchObject({ acquired: true });
  });

  it('a take-back that landed though its reply was lost is taken back from ourselves, not lost to another', async () => {
    const keeper = await keep(50, frozen);
    const fence = keeper.fence();
    await ranOut();
    // Our own take-back, applied by the store, its reply never seen: held under our name, fence + 1.
    expect(await t!.store.lease.acquire('me#1', 10_000)).toMatchObject({ acquired: true, grant: { fence: fence + 1 } });
    await keeper.renew();
    expect(keeper.standing()).toEqual({ kind: 'held' });
    expect(keeper.fence()).toBe(fence + 2);
  });
});
