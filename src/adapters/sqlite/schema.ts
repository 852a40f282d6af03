/**
 * The SQLite schema and its migrations, tracked with PRAGMA user_version. Migrations run inside one
 * IMMEDIATE transaction so two processes starting together cannot both apply the same step.
 */
import { randomUUID } from 'node:crypto';
import { GENESIS_HASH } from '../../domain/hash-chain.js';
import type { SqliteDatabase } from './connection.js';

interface Migration {
  version: number;
  up(db: SqliteDatabase): void;
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    up(db) {
      db.exec(`
        CREATE TABLE control (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          state TEXT NOT NULL CHECK (state IN ('running', 'paused', 'killed')),
          epoch INTEGER NOT NULL CHECK (epoch >= 0),
          reason TEXT,
          changed_at TEXT NOT NULL
        );

        -- seq is assigned by the append code (last + 1), never by AUTOINCREMENT, so it has no gaps.
        CREATE TABLE events (
          seq INTEGER PRIMARY KEY,
          at TEXT NOT NULL,
          kind TEXT NOT NULL,
          symbol TEXT,
          body TEXT NOT NULL,
          prev_hash TEXT NOT NULL,
          hash TEXT NOT NULL
        );
        CREATE INDEX events_kind_seq ON events (kind, seq);
        CREATE INDEX events_kind_symbol_seq ON events (kind, symbol, seq);
        CREATE INDEX events_symbol_seq ON events (symbol, seq);

        -- ord gives the queue order (oldest first) and lets watchers spot new commands cheaply.
        CREATE TABLE commands (
          ord INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          type TEXT NOT NULL,
          payload TEXT NOT NULL,
          enqueued_at TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('pending', 'claimed', 'done')),
          attempts INTEGER NOT NULL DEFAULT 0,
          claimed_by TEXT,
          lease_until INTEGER,
          result TEXT,
          completed_at TEXT
        );
        -- Claims only ever look at unfinished commands; done ones pile up and must not slow them.
        CREATE INDEX commands_open ON commands (ord) WHERE status <> 'done';

        CREATE TABLE kv (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL
        );
      `);
      // The control row is not created here: a new store gets it from `initialise` (its creator),
      // so a file that re-appears empty is never mistaken for a store (control-store.ts). Files made
      // before version 2 got their row here, running at epoch 0.
    },
  },
  {
    // Store identity and the trading lease (issue 8): the control row carries the identity made when
    // the store was created (an existing store gets one now), and the lease row holds the single
    // trading process's claim and its fencing token, which only grows.
    version: 2,
    up(db) {
      db.exec(`
        ALTER TABLE control ADD COLUMN store_id TEXT;
        ALTER TABLE control ADD COLUMN adopted_from TEXT;
        CREATE TABLE lease (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          holder TEXT NOT NULL,
          fence INTEGER NOT NULL CHECK (fence >= 1),
          expires_at INTEGER NOT NULL
        );
      `);
      db.prepare('UPDATE control SET store_id = ? WHERE id = 1 AND store_id IS NULL').run(randomUUID());
    },
  },
  {
    version: 3,
    up(db) {
      // The audit chain's head, moved in the same transaction as every entry it anchors (see
      // event-chain.ts). Without it, deleting the newest rows left a shorter chain that verified.
      // A table of its own rather than columns on `control`, so later changes to the control row
      // never touch it. `at` is null only for the empty chain.
      db.exec(`
        CREATE TABLE event_head (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          seq INTEGER NOT NULL CHECK (seq >= 0),
          hash TEXT NOT NULL,
          at TEXT
        );
      `);
      // An existing file is anchored at its current last row: what was already removed before this
      // migration cannot be noticed, but from here on the tail is held in place.
      db.prepare(
        `INSERT INTO event_head (id, seq, hash, at)
         SELECT 1, seq, hash, at FROM events ORDER BY seq DESC LIMIT 1`,
      ).run();
      db.prepare('INSERT OR IGNORE INTO event_head (id, seq, hash, at) VALUES (1, 0, ?, NULL)').run(GENESIS_HASH);
    },
  },
  {
    // The control record's MAC under CONTROL_SECRET (issue 30): stored beside the record, written and
    // judged by the application. An existing row has none, which the processes refuse until the
    // operator re-signs it with `tcs store adopt` (docs/operate/faults.md).
    version: 4,
    up(db) {
      db.exec('ALTER TABLE control ADD COLUMN mac TEXT');
    },
  },
  {
    version: 5,
    up(db) {
      // Issue 30: a successor judges the lease by the holder's renewals standing still on its own
      // monotonic clock, not by an expiry in another process's wall time (trading-lease.ts). Idempotent:
      // a file set back to an older version (the migration tests) already has them.
      const has = new Set(
        db
          .prepare<[], { name: string }>('PRAGMA table_info(lease)')
          .all()
          .map((c) => c.name),
      );
      if (!has.has('renewals')) db.exec('ALTER TABLE lease ADD COLUMN renewals INTEGER NOT NULL DEFAULT 0');
      if (!has.has('ttl_ms')) db.exec('ALTER TABLE lease ADD COLUMN ttl_ms INTEGER NOT NULL DEFAULT 0');
    },
  },
  {
    // Issue 35: the hot window's floor, the last entry archived and then deleted (seq 0: none). Moved
    // in the same transaction as the rows it replaces, so verify() knows where the kept chain resumes
    // and a row deleted above it is still a gap. A table of its own, like event_head.
    version: 6,
    up(db) {
      db.exec(`
        CREATE TABLE IF NOT EXISTS event_floor (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          seq INTEGER NOT NULL CHECK (seq >= 0),
          hash TEXT NOT NULL
        );
      `);
      db.prepare('INSERT OR IGNORE INTO event_floor (id, seq, hash) VALUES (1, 0, ?)').run(GENESIS_HASH);
    },
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

function userVersion(db: SqliteDatabase): number {
  return Number(db.pragma('user_version', { simple: true }));
}

/** Brings the file up to SCHEMA_VERSION; refuses a file written by a newer version of the service. */
export function migrate(db: SqliteDatabase): void {
  if (userVersion(db) === SCHEMA_VERSION) return;
  db.transaction(() => {
    // Re-read under the write lock: the other process may have migrated while we waited.
    const current = userVersion(db);
    if (current > SCHEMA_VERSION) {
      throw new Error(`sqlite: schema version ${current} is newer than this service supports (${SCHEMA_VERSION})`);
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    }
  }).immediate();
}
