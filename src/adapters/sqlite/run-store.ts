/**
 * The store of one simulation run: the same schema, statements and transactions as the shared store,
 * on a new file that no other process opens. So it drops what sharing costs: no fsync
 * (synchronous=OFF), no check that the path still names the file, and few commits. WAL stays, so a
 * crash mid-transaction leaves the file as of the last commit (an in-memory journal could leave it
 * corrupt); the file is an ordinary store (`tcs audit verify` reads it).
 *
 * Two ways to write the audit trail, the same chain either way:
 * - `auditThread: true` (issue 22, item 5): the entries are written by a worker thread on its own
 *   connection (threaded-audit.ts), a batch per `commit()`; the main connection writes its rare own
 *   changes (a control change, a risk reset) each in its own transaction, after the worker committed
 *   what came before. Worth it when a second core is free; a sweep's trials already fill every core.
 * - otherwise the writes of many cycles go into one transaction on the main connection, committed by
 *   `commit()`; each store transaction inside becomes a savepoint.
 * The simulator calls `commit()` every 2,000 cycles and closes the store at the end. Nobody else writes
 * the file, so the control record is remembered between this store's own writes (control-store.ts).
 */
import type { Store } from '../../ports/store.js';
import { DEFAULT_STORE_TIMEOUT_MS } from '../../ports/store.js';
import { openDatabase } from './connection.js';
import { UNCHECKED_FILE } from './file-identity.js';
import { migrate } from './schema.js';
import { assemble } from './sqlite-store.js';
import { startThreadedAudit } from './threaded-audit.js';

/**
 * How long the cycle waits for the audit thread (to catch up, to commit) before the run fails. The
 * file is private, so nothing else holds it up: only a machine so loaded that the thread gets no
 * turn for this long, or a stuck thread. Much longer than a shared store's lock wait on purpose.
 */
const AUDIT_THREAD_TIMEOUT_MS = 30_000;

/** A run file that one `tcs simulate` process owns alone. */
export interface RunStore {
  store: Store;
  /** Commits what was written since the last call (the threaded writer: starts its commit). */
  commit(): void;
}

export async function openRunStore(path: string, options: { auditThread?: boolean } = {}): Promise<RunStore> {
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
  if (options.auditThread) {
    let audit;
    try {
      audit = startThreadedAudit(db, path, AUDIT_THREAD_TIMEOUT_MS);
    } catch (err) {
      db.close();
      throw err;
    }
    const store = assemble(db, UNCHECKED_FILE, { path, privateFile: true }, audit);
    const close = store.close.bind(store);
    return {
      commit: () => audit.commit(),
      store: {
        ...store,
        async close() {
          try {
            await audit.close();
          } finally {
            await close();
          }
        },
      },
    };
  }
  return oneTransactionAtATime(db, assemble(db, UNCHECKED_FILE, { path, privateFile: true }));
}

/** Every write on the main connection inside one transaction, committed by `commit()` and at close. */
function oneTransactionAtATime(db: ReturnType<typeof openDatabase>, store: Store): RunStore {
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
