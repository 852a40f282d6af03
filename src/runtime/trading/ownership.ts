/**
 * One trading process per store, by the trading lease (src/ports/trading-lease.ts) rather than a
 * look at the last heartbeat: taking it is atomic in the store, so of any number of processes started
 * at the same instant exactly one trades, and its fencing token stops a process that lost it from
 * writing the account. A predecessor known to be dead — its holder names this host and a pid that no
 * longer exists, or this very pid (a container restarted with the same pid) — is taken over at once;
 * a live one refuses the start with who holds it and for how long. On SQLite a holder elsewhere is
 * judged by watching its renewals (src/adapters/sqlite/trading-lease.ts): the start waits until they
 * move (refused) or have stood still for a whole lease (taken over).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { LeaseGrant, TradingLease } from '../../ports/trading-lease.js';

export class AnotherTradingProcessError extends Error {
  override name = 'AnotherTradingProcessError';
}

/** `pid@host#session`: unique per process start, and enough for a successor to judge it. */
export function holderName(pid = process.pid, host = hostname()): string {
  return `${pid}@${host}#${randomBytes(4).toString('hex')}`;
}

function parseHolder(holder: string): { pid: number; host: string } | null {
  const match = /^(\d+)@(.*)#[0-9a-f]+$/.exec(holder);
  return match ? { pid: Number(match[1]), host: match[2]! } : null;
}

/** True when `holder` is a process on this host that is gone (or is a previous life of this pid). */
export function isDeadHere(holder: string, host = hostname()): boolean {
  const parsed = parseHolder(holder);
  if (!parsed || parsed.host !== host) return false;
  if (parsed.pid === process.pid) return true;
  try {
    process.kill(parsed.pid, 0);
    return false;
  } catch (err) {
    // EPERM: it exists but belongs to someone else — alive.
    return (err as NodeJS.ErrnoException).code !== 'EPERM';
  }
}

/** How often a taker watching a SQLite holder's renewals looks again (a renewal comes every third of a lease). */
const WATCH_LOOK_MS = 200;

export async function takeTradingLease(lease: TradingLease, holder: string, ttlMs: number): Promise<LeaseGrant> {
  let attempt = await lease.acquire(holder, ttlMs);
  if (!attempt.acquired && isDeadHere(attempt.heldBy.holder))
    attempt = await lease.acquire(holder, ttlMs, { steal: attempt.heldBy.holder });
  // SQLite: the lease passes only once this process has watched the holder's renewals stand still for
  // a whole lease; a renewal seen on the way means a live holder, refused at once. Bounded: a holder
  // that neither renews nor lets go is taken over within its lease, and three leases bound the rest.
  const giveUpAt = performance.now() + 3 * Math.max(ttlMs, attempt.acquired ? 0 : attempt.heldBy.remainingMs);
  while (!attempt.acquired && attempt.heldBy.watched && !attempt.heldBy.watched.renewed) {
    if (performance.now() > giveUpAt) break;
    const waitMs = Math.min(WATCH_LOOK_MS, attempt.heldBy.remainingMs);
    await new Promise((r) => setTimeout(r, waitMs));
    attempt = await lease.acquire(holder, ttlMs);
  }
  if (attempt.acquired) return attempt.grant;
  const { heldBy } = attempt;
  const left = heldBy.watched?.renewed
    ? 'it renewed it while this process watched'
    : `${Math.ceil(heldBy.remainingMs)} ms left unless it renews it`;
  throw new AnotherTradingProcessError(
    `another trading process holds this store's trading lease (${heldBy.holder}, ${left}); ` +
      'stop it first — only one trading process may own a store',
  );
}

/**
 * Refuses while a live trading process owns the store (by taking the lease for a moment and handing
 * it back): for operator actions that must not change the store under a running trader.
 */
export async function assertNoOtherTradingProcess(lease: TradingLease): Promise<void> {
  const grant = await takeTradingLease(lease, holderName(), 5_000);
  await lease.release(grant);
}
