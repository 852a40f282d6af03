/**
 * Opens the SQLite file with the settings two processes need to share it safely: WAL (readers never
 * block the writer), a busy timeout (a writer waits for the other process's transaction instead of
 * failing) and synchronous=NORMAL (durable at every checkpoint, fast commits; WAL keeps it consistent).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;

/** How long a statement waits for another process's write lock (STORE_TIMEOUT_MS; then SQLITE_BUSY). */
const BUSY_TIMEOUT_MS = 500;

export function openDatabase(path: string, busyTimeoutMs = BUSY_TIMEOUT_MS): SqliteDatabase {
  // The default path lives under var/, which a fresh checkout does not have.
  mkdirSync(dirname(path), { recursive: true });
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
