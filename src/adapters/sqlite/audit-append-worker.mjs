// @ts-check
/**
 * The worker thread that writes a simulation run's audit rows (threaded-audit.ts is its other half).
 * The main thread has already numbered, chained and hashed each row; this thread only inserts the
 * rows and moves the chain head, on its own connection, many rows to one transaction. Plain
 * JavaScript on purpose: the same file runs from src/ (tests, tsx) and from dist/ (the build copies
 * it), with no TypeScript loader in the worker.
 *
 * Messages in: { rows: EventRow[] } (appended in order), { commit: generation } (commit, then say
 * so), { close: generation } (commit, close the connection, say so). It answers through the shared
 * Int32Array: [0] the last generation done, [1] 1 once a write failed, [2] rows handled (so the main
 * thread never gets more than a bounded number of rows ahead); the failure's text goes on
 * the reply port, where the main thread reads it synchronously. After a failure nothing more is
 * written: a chain with a hole in it is worse than a chain that stops.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** @type {{ path: string, state: SharedArrayBuffer, replies: import('node:worker_threads').MessagePort, busyTimeoutMs: number }} */
const { path, state: stateBuffer, replies, busyTimeoutMs } = workerData;
const state = new Int32Array(stateBuffer);
const DONE = 0;
const FAILED = 1;
const WRITTEN = 2;

/** @param {unknown} err */
function fail(err) {
  if (Atomics.load(state, FAILED) === 1) return;
  replies.postMessage(`audit writer: ${/** @type {Error} */ (err)?.message ?? String(err)}`);
  Atomics.store(state, FAILED, 1);
  // The main thread may be waiting for rows written or for a commit: it must hear of the failure now.
  Atomics.notify(state, WRITTEN);
  Atomics.notify(state, DONE);
}

/**
 * The connection and its statements; null when they could not be made (the file cannot be opened).
 * That is a failed write like any other, said through the shared state: a thread that died of it
 * instead would leave the main thread blocked in its wait until the deadline, none the wiser.
 */
const writer = (() => {
  try {
    const db = new Database(path, { timeout: busyTimeoutMs });
    // A run's file is private to one process: no fsync, as the main connection (run-store.ts).
    db.pragma('synchronous = OFF');
    return {
      db,
      insert: db.prepare(
        'INSERT INTO events (seq, at, kind, symbol, body, prev_hash, hash) VALUES (@seq, @at, @kind, @symbol, @body, @prev_hash, @hash)',
      ),
      // Never moves the head back: the main thread's own chained writes happen only after a commit here.
      moveHead: db.prepare('UPDATE event_head SET seq = @seq, hash = @hash, at = @at WHERE id = 1 AND seq < @seq'),
      begin: db.prepare('BEGIN IMMEDIATE'),
      commitStatement: db.prepare('COMMIT'),
    };
  } catch (err) {
    fail(err);
    return null;
  }
})();

/** @param {number} generation */
function answer(generation) {
  Atomics.store(state, DONE, generation);
  Atomics.notify(state, DONE);
}

parentPort?.on('message', (message) => {
  try {
    if (writer !== null && Atomics.load(state, FAILED) === 0) {
      const { db, insert, moveHead, begin, commitStatement } = writer;
      if (message.rows) {
        if (!db.inTransaction) begin.run();
        for (const row of message.rows) {
          insert.run(row);
          moveHead.run(row);
        }
      } else if (db.inTransaction) commitStatement.run();
    }
  } catch (err) {
    fail(err);
  }
  // Rows handled: written, or dropped after a failure. Counted either way, so a failure that lands
  // between the main thread's look at the flag and its wait on this count still wakes it at once.
  if (message.rows) {
    Atomics.add(state, WRITTEN, message.rows.length);
    Atomics.notify(state, WRITTEN);
  }
  if (message.close !== undefined) {
    try {
      writer?.db.close();
    } catch (err) {
      fail(err);
    }
    answer(message.close);
    parentPort?.close();
  } else if (message.commit !== undefined) answer(message.commit);
});
