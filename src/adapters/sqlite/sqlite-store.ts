/**
 * The embedded store: one SQLite file holding control state, audit trail, command queue and key-value
 * documents, shared by the API and trading processes. This module only wires the parts together on one
 * connection; each part lives in its own file.
 */
import { performance } from 'node:perf_hooks';
import { systemClock } from '../../ports/clock.js';
import type { Clock } from '../../ports/clock.js';
import { DEFAULT_STORE_TIMEOUT_MS } from '../../ports/store.js';
import type { Store } from '../../ports/store.js';
import { ClockSkewError } from '../../ports/store-errors.js';
import { guardStore } from '../guard-store.js';
import { ChangeWatcher } from './change-watcher.js';
import type { WatchedState } from './change-watcher.js';
import { SqliteCommandQueue } from './command-queue.js';
import { openDatabase, stopBusyWaiting } from './connection.js';
import type { SqliteDatabase } from './connection.js';
import { SqliteControlStore } from './control-store.js';
import { chainAppender } from './event-chain.js';
import { SqliteEventStore } from './event-store.js';
import { fileIdentity } from './file-identity.js';
import { hostClockCheck } from './host-clock.js';
import type { HostClockCheck } from './host-clock.js';
import type { FileIdentity } from './file-identity.js';
import { sqliteFailure } from './failures.js';
import { SqliteKeyValueStore } from './kv-store.js';
import { lockWaiter } from './lock-wait.js';
import type { LockWaitClock } from './lock-wait.js';
import { migrate } from './schema.js';
import { afterAuditCommits, storeAccess } from './store-access.js';
import type { ThreadedAudit } from './threaded-audit.js';
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
  /** Times the waits for another connection's lock (lock-wait.ts); tests inject one. */
  lockWaitClock?: LockWaitClock;
  /** This process's wall clock, checked against the host's on every audit write (host-clock.ts; tests skew it). */
  clock?: Clock;
  /**
   * The file is one process's own (a simulation run, run-store.ts): the control record is read once
   * and remembered until this store writes it (control-store.ts), and an empty command queue stays
   * empty until this store enqueues (command-queue.ts). Never for a shared store.
   */
  privateFile?: boolean;
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
  return assemble(db, file, options, undefined, hostClockCheck(options.path, options.clock ?? systemClock));
}

/**
 * The stores on one connection. With `audit` (a run store's threaded appends, run-store.ts), the event
 * store appends through it, and the connection's own writes, and the event store's reads, first wait
 * until the worker has committed what was appended before them.
 */
export function assemble(
  db: SqliteDatabase,
  file: FileIdentity,
  options: SqliteStoreOptions,
  audit?: ThreadedAudit,
  /** The shared store's audit clock check; a run's private file has none (its times are simulated). */
  hostClock?: HostClockCheck,
): Store {
  const appendChained = chainAppender(db, hostClock?.check);
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
  const direct = storeAccess(file, lockWaiter(options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS, options.lockWaitClock));
  const threaded = audit ? afterAuditCommits(direct, audit) : direct;
  // Reading the control record (every cycle) needs no audit entry: only the event store's reads wait.
  const access = { read: direct.read, write: threaded.write, writeAtOnce: threaded.writeAtOnce };
  const control = new SqliteControlStore(db, appendChained, watcher, access, options.privateFile === true);
  const commands = new SqliteCommandQueue(db, watcher, access, appendChained, options.privateFile === true);
  const events = new SqliteEventStore(db, appendChained, threaded, audit);
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
    // A file keeps every row until we delete it: nothing to evict.
    evictionRisk: () => Promise.resolve(null),
    clockSkew() {
      try {
        hostClock?.check();
        return Promise.resolve(null);
      } catch (err) {
        if (err instanceof ClockSkewError) return Promise.resolve(err.message);
        return Promise.reject(err as Error);
      }
    },
    async close() {
      watcher.close();
      hostClock?.close();
      if (db.open) db.close();
    },
  };
  return guardStore(store, sqliteFailure(store.description));
}
