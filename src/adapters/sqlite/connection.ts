/**
 * Opens the SQLite file with the settings two processes need to share it safely: WAL (readers never
 * block the writer), a busy timeout while opening (switching to WAL and migrating wait for the other
 * process's transaction instead of failing) and synchronous=NORMAL (durable at every checkpoint, fast
 * commits; WAL keeps it consistent). Once a shared store is open, `stopBusyWaiting` turns the busy
 * timeout off: SQLite's wait is a sleep inside the call that stops the whole event loop, so from then
 * on the store waits for the lock from timers (lock-wait.ts).
 */
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { StoreFaultError } from '../../ports/store-errors.js';

export type SqliteDatabase = Database.Database;

/** How long opening waits for another process's write lock (STORE_TIMEOUT_MS; then SQLITE_BUSY). */
const BUSY_TIMEOUT_MS = 500;

/**
 * Creates a missing file with mode 0600 (`wx`: never touches an existing one, which may be read-only
 * on purpose — SQLite then opens it read-only and /health's write probe says so).
 */
function createPrivately(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

export function openDatabase(path: string, options: { mustExist?: boolean; timeoutMs?: number } = {}): SqliteDatabase {
  if (options.mustExist && !existsSync(path)) {
    throw new StoreFaultError(
      'empty',
      `the database file ${path} does not exist: it was deleted or moved. A new one is not created in its place; ` +
        'if a new store is intended, accept it with `tcs store adopt --reason "…"`',
    );
  }
  // The default path lives under var/, which a fresh checkout does not have. What it holds (the
  // control state, the audit trail) is for the owner only: a directory created here is 0700, and a
  // new database file 0600 before SQLite opens it, since SQLite gives -wal and -shm the file's mode.
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  createPrivately(path);
  const busyTimeoutMs = options.timeoutMs ?? BUSY_TIMEOUT_MS;
  const db = new Database(path, { timeout: busyTimeoutMs });
  try {
    // busy_timeout first: switching to WAL itself needs a lock another process may hold.
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (typeof mode !== 'string' || mode.toLowerCase() !== 'wal') {
      throw new Error(`sqlite: could not enable WAL on ${path} (journal_mode=${String(mode)})`);
    }
    db.pragma('synchronous = NORMAL');
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/**
 * From here on a statement that meets another connection's lock fails at once with SQLITE_BUSY
 * instead of sleeping in the call; the store retries it from a timer until its deadline.
 */
export function stopBusyWaiting(db: SqliteDatabase): void {
  db.pragma('busy_timeout = 0');
}
