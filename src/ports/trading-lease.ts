/**
 * The trading lease: exactly one trading process owns a store at a time. Taking the lease issues a
 * fencing token (a number that grows with every new holder); the owner's account and venue writes
 * carry it (KeyValueStore.set's `fence`) and the store refuses them once a newer token was issued,
 * so a process that lost the lease (frozen, partitioned, slow to notice) can write nothing more.
 * Redis: SET NX PX with renewal (the server's clock runs it out); SQLite: a lease row taken inside
 * BEGIN IMMEDIATE, with a renewal counter a successor watches stand still for a whole lease. Every adapter must
 * pass test/contracts/trading-lease.contract.ts.
 */

export interface LeaseGrant {
  holder: string;
  /** The fencing token. */
  fence: number;
}

export interface LeaseHolder {
  holder: string;
  /** How long until the holder's lease runs out unless renewed, in ms. */
  remainingMs: number;
  /**
   * Present when the store cannot run the lease out by itself (SQLite: no server clock) and this
   * process judges it by watching the holder's renewals on its own monotonic clock: whether it has
   * seen them move (a live holder: no use waiting), and for how long they have stood still. The lease
   * is taken over once they stand still for a whole lease, so the caller may ask again meanwhile.
   */
  watched?: { renewed: boolean; stillForMs: number };
}

export type LeaseAttempt = { acquired: true; grant: LeaseGrant } | { acquired: false; heldBy: LeaseHolder };

export interface TradingLease {
  /**
   * Takes the lease for `ttlMs` when nobody holds it (or it ran out); `steal` names a holder known
   * to be dead (a crashed predecessor on this host) whose lease may be taken at once.
   */
  acquire(holder: string, ttlMs: number, options?: { steal?: string }): Promise<LeaseAttempt>;
  /** Extends the lease by `ttlMs`; false when it is no longer this grant's (expired and taken). */
  renew(grant: LeaseGrant, ttlMs: number): Promise<boolean>;
  /** Gives the lease up (a clean stop), so a successor need not wait for it to run out. */
  release(grant: LeaseGrant): Promise<void>;
}
