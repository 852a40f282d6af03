/**
 * The trading lease on Redis: `<prefix>lease` holds `<fence>:<holder>` with a PX expiry, taken with
 * SET NX PX semantics and renewed only by its holder (lease-scripts.ts). Expiry runs on Redis's
 * clock, so processes on different hosts agree on it. The fence counter `<prefix>lease:fence` only
 * grows; an empty Redis has none, so no earlier token is current on it.
 */
import type { Redis } from 'ioredis';
import type { LeaseAttempt, LeaseGrant, TradingLease } from '../../ports/trading-lease.js';
import type { RedisKeys } from './keys.js';
import { acquireLeaseScript, releaseLeaseScript, renewLeaseScript } from './lease-scripts.js';

export class RedisTradingLease implements TradingLease {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async acquire(holder: string, ttlMs: number, options: { steal?: string } = {}): Promise<LeaseAttempt> {
    const reply = (await acquireLeaseScript.run(
      this.redis,
      [this.keys.lease, this.keys.leaseFence],
      [holder, Math.max(1, Math.round(ttlMs)), options.steal ?? ''],
    )) as [number, number | string, number?];
    if (reply[0] === 1) return { acquired: true, grant: { holder, fence: Number(reply[1]) } };
    return { acquired: false, heldBy: { holder: String(reply[1]), remainingMs: Math.max(0, Number(reply[2] ?? 0)) } };
  }

  async renew(grant: LeaseGrant, ttlMs: number): Promise<boolean> {
    const reply = await renewLeaseScript.run(
      this.redis,
      [this.keys.lease],
      [`${grant.fence}:${grant.holder}`, Math.max(1, Math.round(ttlMs))],
    );
    return reply === 1;
  }

  async release(grant: LeaseGrant): Promise<void> {
    await releaseLeaseScript.run(this.redis, [this.keys.lease], [`${grant.fence}:${grant.holder}`]);
  }
}
