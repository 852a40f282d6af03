/**
 * Which SQLite errors mean "the file is not available to us" (a StoreUnavailableError, answered
 * 503) rather than a bug in our SQL (left as is, a 500): another writer held the lock past the busy
 * timeout, the file or its directory refuses writes, the disk is full or failing, the file is not a
 * database (any more), or the connection was closed under us.
 */
import { StoreUnavailableError } from '../../ports/store-errors.js';

const UNAVAILABLE_CODES = [
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_READONLY',
  'SQLITE_IOERR',
  'SQLITE_FULL',
  'SQLITE_CANTOPEN',
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
  'SQLITE_PROTOCOL',
  'SQLITE_PERM',
];

export function sqliteFailure(description: string): (err: unknown) => StoreUnavailableError | null {
  return (err) => {
    if (!(err instanceof Error)) return null;
    const code = (err as { code?: unknown }).code;
    // better-sqlite3 reports extended codes (SQLITE_READONLY_DBMOVED, SQLITE_IOERR_WRITE, …).
    const unavailable =
      (typeof code === 'string' && UNAVAILABLE_CODES.some((base) => code === base || code.startsWith(`${base}_`))) ||
      err.message === 'The database connection is not open';
    return unavailable ? new StoreUnavailableError(`${description}: ${err.message}`) : null;
  };
}
