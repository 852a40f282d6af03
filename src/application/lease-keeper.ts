/**
 * Keeps the trading process's lease (src/ports/trading-lease.ts) and says how sure it is of it.
 * A renewal counts only when the store confirmed it: one that failed or timed out is not a renewal,
 * so the lease is known to last until the start of the last confirmed renewal plus its duration,
 * and the safety monitor stops new exposure a quarter of a lease before that (UNCONFIRMED_SHARE).
 * A renewal the store refuses (the lease is no longer ours) is judged by the fence: when this
 * process can take the lease again with the very next token, nobody held it in between (it only ran
 * out while the store was slow), so nothing was written behind this process's back and trading may
 * heal; a later token means another process held it, and this one must stop (its memory of the
 * account may be stale).
 */
import type { Clock } from '../ports/clock.js';
import { monotonicNow } from '../ports/clock.js';
import type { LeaseGrant, TradingLease } from '../ports/trading-lease.js';

/** Stop opening exposure when less than this share of a lease is left unconfirmed. */
export const UNCONFIRMED_SHARE = 0.25;

export type LeaseStanding =
  /** Confirmed with enough left. */
  | { kind: 'held' }
  /** Not confirmed for too long: it may run out before the next renewal is confirmed. */
  | { kind: 'unconfirmed'; sinceConfirmedMs: number }
  /** Another process held it since: this one must stop. */
  | { kind: 'lost'; to: string };

export interface LeaseKeeper {
  /** The fencing token the process's writes carry now (moves when the lease is taken back). */
  fence(): number;
  /** Renews (or takes back) the lease; never overlapping, never throwing. */
  renew(): Promise<void>;
  standing(): LeaseStanding;
  /** Hands the lease back (a clean stop). */
  release(): Promise<void>;
}

export interface LeaseKeeperDeps {
  lease: TradingLease;
  grant: LeaseGrant;
  ttlMs: number;
  clock: Clock;
  /** When the grant was taken (the clock's monotonic reading: a wall-clock step must not age or renew it). */
  grantedAt: number;
  log(level: 'warn' | 'info' | 'error', message: string, details: Record<string, unknown>): void;
}

export function createLeaseKeeper(deps: LeaseKeeperDeps): LeaseKeeper {
  const { lease, ttlMs, clock } = deps;
  let grant = deps.grant;
  let confirmedAt = deps.grantedAt;
  let lostTo: string | null = null;
  let renewing = false;

  const takeBack = async (startedAt: number) => {
    let attempt = await lease.acquire(grant.holder, ttlMs);
    // Held under our own name: an earlier take-back landed though its reply was lost (its fence is
    // then the next one), so take it from ourselves, allowing for that one fence more.
    let ours = 1;
    if (!attempt.acquired && attempt.heldBy.holder === grant.holder) {
      attempt = await lease.acquire(grant.holder, ttlMs, { steal: grant.holder });
      ours = 2;
    }
    if (!attempt.acquired) {
      lostTo = attempt.heldBy.holder;
      return;
    }
    if (attempt.grant.fence > grant.fence + ours) {
      // Someone held it between our token and this one: hand it back and stop.
      lostTo = `a process that held fence ${grant.fence + 1}…${attempt.grant.fence - 1}`;
      await lease.release(attempt.grant).catch(() => {});
      return;
    }
    deps.log('warn', 'the trading lease ran out while the store was slow; taken back (nobody held it meanwhile)', {
      fence: attempt.grant.fence,
    });
    grant = attempt.grant;
    confirmedAt = startedAt;
  };

  return {
    fence: () => grant.fence,
    async renew() {
      if (renewing || lostTo !== null) return;
      renewing = true;
      const startedAt = monotonicNow(clock);
      try {
        if (await lease.renew(grant, ttlMs)) confirmedAt = startedAt;
        else await takeBack(startedAt);
      } catch (err) {
        // Unconfirmed: the lease is only as good as the last confirmed renewal.
        deps.log('warn', 'the trading lease renewal failed; it counts as not renewed', { err });
      } finally {
        renewing = false;
      }
    },
    standing() {
      if (lostTo !== null) return { kind: 'lost', to: lostTo };
      const sinceConfirmedMs = Math.round(monotonicNow(clock) - confirmedAt);
      if (sinceConfirmedMs < ttlMs * (1 - UNCONFIRMED_SHARE)) return { kind: 'held' };
      return { kind: 'unconfirmed', sinceConfirmedMs };
    },
    release: () => lease.release(grant),
  };
}

/**
 * The renewal the background timer runs: renews, and the first time the lease turns out to have been
 * held by another process since, calls `lost` once (the process halts and stops: its memory of the
 * account may be stale).
 */
export function renewalOf(keeper: LeaseKeeper, lost: (to: string) => void): () => Promise<void> {
  let reported = false;
  return async () => {
    await keeper.renew();
    const standing = keeper.standing();
    if (standing.kind !== 'lost' || reported) return;
    reported = true;
    lost(standing.to);
  };
}
