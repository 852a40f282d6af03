/**
 * The embedded store: one SQLite file holding control state, audit trail, command queue and key-value
 * documents, shared by the API and trading processes. This module only wires the parts together on one
 * connection; each part lives in its own file.
 */
import { performance } from 'node:perf_hooks';
import type { Clock } from '../../ports/clock.js';
import { DEFAULT_STORE_TIMEOUT_MS } from '../../ports/store.js';
import type { Store } from '../../ports/store.js';
import { guardStore } from '../guard-store.js';
import { ChangeWatcher } from './change-watcher.js';
import type { WatchedState } from './change-watcher.js';
import { SqliteCommandQueue } from './command-queue.js';
import { openDatabase, stopBusyWaiting } from './connection.js';
import type { SqliteDatabase } from './connection.js';
import { SqliteControlStore } from './control-store.js';
import { chainAppender } from './event-chain.js';
import { SqliteEventStore } from './event-store.js';
import { fileIdentity, UNCHECKED_FILE } from './file-identity.js';
import type { FileIdentity } from './file-identity.js';
import { sqliteFailure } from './failures.js';
import { SqliteKeyValueStore } from './kv-store.js';
import { lockWaiter } from './lock-wait.js';
import { migrate } from './schema.js';
import { storeAccess } from './store-access.js';
import { SqliteTradingLease } from './trading-lease.js';

export interface SqliteStoreOptions {
  /** The database file; its parent directory is created when missing. */
  path: string;
  /** How often subscribers' watcher polls PRAGMA data_version (default 2 ms: a kill reaches the trading process within a p99 under 10 ms, for under 1 % of a core). */
  pollIntervalMs?: number;
  /** Where errors thrown by subscribers or the watcher go (default: stderr, never stdout). */
  onError?: (err: unknown) => void;
  /**
   * Refuse to create the file when it is missing (StoreFaultError 'empty'): a process that knew a
   * store at this path must not quietly start a new one after the file was deleted.
   */
  mustExist?: boolean;
  /**
   * How long a call waits for another process's write lock, in ms (default DEFAULT_STORE_TIMEOUT_MS);
   * it waits from timers, the event loop keeps running (lock-wait.ts).
   */
  timeoutMs?: number;
  /** Measures the age of the last file check that reads rely on (file-identity.ts); tests inject one. */
  fileCheckClock?: Clock;
}

/** A run file that one `tcs simulate` process owns alone: see openRunStore. */
export interface RunStore {
  store: Store;
  /** Commits what was written since the last call (and at close). */
  commit(): void;
}

export const DEFAULT_POLL_INTERVAL_MS = 2;

function reportToStderr(err: unknown): void {
  console.error('sqlite store: change notification failed', err);
}

export async function openSqliteStore(options: SqliteStoreOptions): Promise<Store> {
  const db = openDatabase(options.path, {
    mustExist: options.mustExist === true,
    timeoutMs: options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS,
  });
  let file;
  try {
    migrate(db);
    file = fileIdentity(options.path, options.fileCheckClock);
    stopBusyWaiting(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return assemble(db, file, options);
}

/**
 * The store of one simulation run: the same schema, statements and transactions as the shared store,
 * on a new file that no other process opens. So it drops what sharing costs: no fsync
 * (synchronous=OFF), no check that the path still names the file, and the writes of many cycles go
 * into one transaction, committed by `commit()` (the simulator calls it every 2,000 cycles and at the
 * end) — each store transaction inside becomes a savepoint. WAL stays, so a crash mid-transaction
 * leaves the file as of the last commit (an in-memory journal could leave it corrupt); the file is an
 * ordinary store (`tcs audit verify` reads it).
 */
export async function openRunStore(path: string): Promise<RunStore> {
  const db = openDatabase(path, { timeoutMs: DEFAULT_STORE_TIMEOUT_MS });
  try {
    // WAL stays: with an in-memory journal, pages of a big uncommitted transaction spilled into the
    // file could not be rolled back, and a crash (or a second Ctrl-C) left a corrupt file.
    db.pragma('synchronous = OFF');
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  const store = assemble(db, UNCHECKED_FILE, { path });
  const begin = db.prepare('BEGIN');
  const commitStatement = db.prepare('COMMIT');
  begin.run();
  const commit = () => {
    if (!db.open) return;
    if (db.inTransaction) commitStatement.run();
    begin.run();
  };
  const close = store.close.bind(store);
  return {
    commit,
    store: {
      ...store,
      async close() {
        if (db.open && db.inTransaction) commitStatement.run();
        await close();
      },
    },
  };
}

function assemble(db: SqliteDatabase, file: FileIdentity, options: SqliteStoreOptions): Store {
  const appendChained = chainAppender(db);
  // The watcher needs readers from the stores and the stores need the watcher: late-bind the readers.
  // The watcher reads in its own turn (a poll): it relies on a recent file check like any read.
  const readers: WatchedState = {
    readControl: () => {
      file.assertRecent();
      return control.readRecord();
    },
    lastCommandOrd: () => commands.lastOrd(),
  };
  const watcher = new ChangeWatcher(
    db,
    readers,
    options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    options.onError ?? reportToStderr,
  );
  const access = storeAccess(file, lockWaiter(options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS));
  const control = new SqliteControlStore(db, appendChained, watcher, access);
  const commands = new SqliteCommandQueue(db, watcher, access);
  const events = new SqliteEventStore(db, appendChained, access);
  const kv = new SqliteKeyValueStore(db, access);
  const lease = new SqliteTradingLease(db, access);
  const ping = db.prepare('SELECT 1');

  const store: Store = {
    kind: 'sqlite',
    description: `sqlite:${options.path}`,
    control,
    events,
    commands,
    kv,
    lease,
    async ping() {
      const started = performance.now();
      ping.get();
      return performance.now() - started;
    },
    async close() {
      watcher.close();
      if (db.open) db.close();
    },
  };
  return guardStore(store, sqliteFailure(store.description));
}
