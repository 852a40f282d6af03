/**
 * The trading lease on SQLite: one `lease` row, read and written inside BEGIN IMMEDIATE, so two
 * processes racing for it serialise on the write lock and exactly one wins. The fence only grows — a
 * release keeps the row with `expires_at` 0 — so a token once superseded never becomes current again.
 * Fenced writes compare with the row's fence (kv-store.ts).
 *
 * SQLite has no server clock to run a lease out (Redis has: SET PX), and an expiry written in the
 * holder's wall time read against the taker's is no judgement at all: a second process with its clock
 * an hour ahead read a healthy holder's lease as expired and took it. So every renewal counts up
 * `renewals`, and a taker may take the lease over only after it has itself watched the counter (with
 * the holder and fence) stand still for a whole lease of the holder's (`ttl_ms`) on its own monotonic
 * clock: that needs several calls of `acquire` over that time (takeTradingLease makes them). A
 * released lease, a dead holder named by `steal` and an empty row pass at once. `expires_at` is
 * still written (wall time) for a person reading the row; nothing judges it.
 */
import type { LeaseAttempt, LeaseGrant, TradingLease } from '../../ports/trading-lease.js';
import type { SqliteDatabase } from './connection.js';
import type { StoreAccess } from './store-access.js';

interface LeaseRow {
  holder: string;
  fence: number;
  expires_at: number;
  renewals: number;
  ttl_ms: number;
}

/** `expires_at` of a released lease. */
const RELEASED = 0;

/** What this process has watched of the current holder's lease. */
interface Watch {
  holder: string;
  fence: number;
  renewals: number;
  /** Monotonic ms when the counter was last seen to change (or first seen). */
  since: number;
  /** The counter moved while watched: the holder is alive. */
  renewed: boolean;
}

export interface LeaseClocks {
  /** Wall time, for the `expires_at` a person reads. */
  now(): number;
  /** Monotonic ms, for the watch. */
  monotonic(): number;
}

const realClocks: LeaseClocks = { now: () => Date.now(), monotonic: () => performance.now() };

export class SqliteTradingLease implements TradingLease {
  private readonly acquireTx: (holder: string, ttlMs: number, steal: string | undefined) => LeaseAttempt;
  private readonly renewTx: (grant: LeaseGrant, ttlMs: number) => boolean;
  private readonly releaseTx: (grant: LeaseGrant) => void;
  private watch: Watch | null = null;

  constructor(
    db: SqliteDatabase,
    private readonly access: StoreAccess,
    clocks: LeaseClocks = realClocks,
  ) {
    const select = db.prepare<[], LeaseRow>(
      'SELECT holder, fence, expires_at, renewals, ttl_ms FROM lease WHERE id = 1',
    );
    const upsert = db.prepare<[string, number, number, number]>(
      `INSERT INTO lease (id, holder, fence, expires_at, renewals, ttl_ms) VALUES (1, ?, ?, ?, 0, ?)
       ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, fence = excluded.fence,
         expires_at = excluded.expires_at, renewals = 0, ttl_ms = excluded.ttl_ms`,
    );
    const extend = db.prepare<[number, number, string, number]>(
      'UPDATE lease SET expires_at = ?, ttl_ms = ?, renewals = renewals + 1 WHERE id = 1 AND holder = ? AND fence = ?',
    );
    const giveUp = db.prepare<[string, number]>(
      `UPDATE lease SET expires_at = ${RELEASED}, renewals = renewals + 1 WHERE id = 1 AND holder = ? AND fence = ?`,
    );

    const acquire = db.transaction((holder: string, ttlMs: number, steal: string | undefined): LeaseAttempt => {
      const row = select.get();
      if (row && row.expires_at !== RELEASED && row.holder !== steal) {
        const watched = this.look(row, clocks.monotonic());
        const leaseMs = row.ttl_ms > 0 ? row.ttl_ms : ttlMs;
        const stillForMs = clocks.monotonic() - watched.since;
        if (stillForMs < leaseMs) {
          const remainingMs = leaseMs - stillForMs;
          return {
            acquired: false,
            heldBy: { holder: row.holder, remainingMs, watched: { renewed: watched.renewed, stillForMs } },
          };
        }
      }
      this.watch = null;
      const fence = (row?.fence ?? 0) + 1;
      upsert.run(holder, fence, clocks.now() + ttlMs, ttlMs);
      return { acquired: true, grant: { holder, fence } };
    });
    this.acquireTx = (holder, ttlMs, steal) => acquire.immediate(holder, ttlMs, steal);
    const renew = db.transaction(
      (grant: LeaseGrant, ttlMs: number) =>
        extend.run(clocks.now() + ttlMs, ttlMs, grant.holder, grant.fence).changes === 1,
    );
    this.renewTx = (grant, ttlMs) => renew.immediate(grant, ttlMs);
    const release = db.transaction((grant: LeaseGrant) => void giveUp.run(grant.holder, grant.fence));
    this.releaseTx = (grant) => release.immediate(grant);
  }

  /** Updates the watch with the row seen now: a new holder or fence starts it over, a moved counter restarts its time. */
  private look(row: LeaseRow, now: number): Watch {
    const w = this.watch;
    if (!w || w.holder !== row.holder || w.fence !== row.fence) {
      this.watch = { holder: row.holder, fence: row.fence, renewals: row.renewals, since: now, renewed: false };
    } else if (w.renewals !== row.renewals) {
      this.watch = { ...w, renewals: row.renewals, since: now, renewed: true };
    }
    return this.watch!;
  }

  acquire(holder: string, ttlMs: number, options: { steal?: string } = {}): Promise<LeaseAttempt> {
    return this.access.write(() => this.acquireTx(holder, ttlMs, options.steal));
  }

  renew(grant: LeaseGrant, ttlMs: number): Promise<boolean> {
    // At once, not behind this process's queued writes: a renewal counts up and stamps its own time,
    // so its order with them does not matter, and one held back by a flood lets the lease go unconfirmed.
    return this.access.writeAtOnce(() => this.renewTx(grant, ttlMs));
  }

  release(grant: LeaseGrant): Promise<void> {
    return this.access.write(() => this.releaseTx(grant));
  }
}
