/**
 * The trading lease on SQLite: one `lease` row, read and written inside BEGIN IMMEDIATE, so two
 * processes racing for it serialise on the write lock and exactly one wins. Expiry uses this
 * machine's clock (both processes share the file, hence the machine). The fence only grows — a
 * release keeps the row with an expiry in the past — so a token once superseded never becomes
 * current again. Fenced writes compare with the row's fence (kv-store.ts).
 */
import type { LeaseAttempt, LeaseGrant, TradingLease } from '../../ports/trading-lease.js';
import type { SqliteDatabase } from './connection.js';
import type { StoreAccess } from './store-access.js';

interface LeaseRow {
  holder: string;
  fence: number;
  expires_at: number;
}

export class SqliteTradingLease implements TradingLease {
  private readonly acquireTx: (holder: string, ttlMs: number, steal: string | undefined) => LeaseAttempt;
  private readonly renewTx: (grant: LeaseGrant, ttlMs: number) => boolean;
  private readonly releaseTx: (grant: LeaseGrant) => void;

  constructor(
    db: SqliteDatabase,
    private readonly access: StoreAccess,
    now: () => number = Date.now,
  ) {
    const select = db.prepare<[], LeaseRow>('SELECT holder, fence, expires_at FROM lease WHERE id = 1');
    const upsert = db.prepare<[string, number, number]>(
      `INSERT INTO lease (id, holder, fence, expires_at) VALUES (1, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, fence = excluded.fence, expires_at = excluded.expires_at`,
    );
    const extend = db.prepare<[number, string, number]>(
      'UPDATE lease SET expires_at = ? WHERE id = 1 AND holder = ? AND fence = ?',
    );

    const acquire = db.transaction((holder: string, ttlMs: number, steal: string | undefined): LeaseAttempt => {
      const at = now();
      const row = select.get();
      if (row && row.expires_at > at && row.holder !== steal) {
        return { acquired: false, heldBy: { holder: row.holder, remainingMs: row.expires_at - at } };
      }
      const fence = (row?.fence ?? 0) + 1;
      upsert.run(holder, fence, at + ttlMs);
      return { acquired: true, grant: { holder, fence } };
    });
    this.acquireTx = (holder, ttlMs, steal) => acquire.immediate(holder, ttlMs, steal);
    const renew = db.transaction(
      (grant: LeaseGrant, ttlMs: number) => extend.run(now() + ttlMs, grant.holder, grant.fence).changes === 1,
    );
    this.renewTx = (grant, ttlMs) => renew.immediate(grant, ttlMs);
    const release = db.transaction((grant: LeaseGrant) => void extend.run(0, grant.holder, grant.fence));
    this.releaseTx = (grant) => release.immediate(grant);
  }

  acquire(holder: string, ttlMs: number, options: { steal?: string } = {}): Promise<LeaseAttempt> {
    return this.access.write(() => this.acquireTx(holder, ttlMs, options.steal));
  }

  renew(grant: LeaseGrant, ttlMs: number): Promise<boolean> {
    return this.access.write(() => this.renewTx(grant, ttlMs));
  }

  release(grant: LeaseGrant): Promise<void> {
    return this.access.write(() => this.releaseTx(grant));
  }
}
