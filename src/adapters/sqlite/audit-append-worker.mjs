// @ts-check
/**
 * The worker thread that writes a simulation run's audit rows (threaded-audit.ts is its other half).
 * The main thread has already numbered and timed each row and printed its canonical body; this
 * thread chains them (each row's hash is sha256 of the previous hash and the entry's canonical text,
 * exactly as chainHashOfCanonical in src/domain/hash-chain.ts makes it: `tcs audit verify` re-derives
 * it with that code), inserts the rows and moves the chain head, on its own connection, many rows to
 * one transaction. Each transaction starts from the head as the file holds it, so an entry the main
 * connection wrote in between (after waiting for this thread's commit) is chained to as well. Plain
 * JavaScript on purpose: the same file runs from src/ (tests, tsx) and from dist/ (the build copies
 * it), with no TypeScript loader in the worker.
 *
 * Messages in: { rows: Array } (seq, at, kind, symbol, body of each row in turn, appended in order),
 * { commit: generation } (commit, then say so), { close: generation } (commit, close the
 * connection, say so). It answers through the shared Int32Array: [0] the last generation done, [1] 1
 * once a write failed, [2] rows handled (so the main thread never gets more than a bounded number of
 * rows ahead); the failure's text goes on the reply port, where the main thread reads it
 * synchronously. After a failure nothing more is written: a chain with a hole in it is worse than a
 * chain that stops.
 */
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** @type {{ path: string, state: SharedArrayBuffer, replies: import('node:worker_threads').MessagePort, busyTimeoutMs: number }} */
const { path, state: stateBuffer, replies, busyTimeoutMs } = workerData;
const state = new Int32Array(stateBuffer);
const DONE = 0;
const FAILED = 1;
const WRITTEN = 2;
/** Fields per row in a rows message: seq, at, kind, symbol, body. */
const FIELDS = 5;

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
        'INSERT INTO events (seq, at, kind, symbol, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      readHead: db.prepare('SELECT seq, hash FROM event_head WHERE id = 1'),
      // Never moves the head back: the main thread's own chained writes happen only after a commit here.
      moveHead: db.prepare('UPDATE event_head SET seq = ?, hash = ?, at = ? WHERE id = 1 AND seq < ?'),
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

/** The last entry chained in the open transaction (read from the file when it begins). */
let headSeq = 0;
let headHash = '';

/**
 * The entry's hash: chainHashOfCanonical (src/domain/hash-chain.ts), the canonical entry assembled
 * around the body's canonical text, keys in sorted order.
 * @param {string} prevHash @param {number} seq @param {string} at @param {string} kind
 * @param {string | null} symbol @param {string} body
 */
function chainHash(prevHash, seq, at, kind, symbol, body) {
  const canonical =
    `{"at":${JSON.stringify(at)},"body":${body},"kind":${JSON.stringify(kind)},` +
    `"seq":${JSON.stringify(seq)},"symbol":${JSON.stringify(symbol)}}`;
  return createHash('sha256').update(prevHash).update(canonical).digest('hex');
}

/**
 * Chains and inserts one message's rows, then moves the head once (the same transaction).
 * @param {NonNullable<typeof writer>} w @param {Array<string | number | null>} rows
 */
function writeRows(w, rows) {
  const { db, insert, readHead, moveHead, begin } = w;
  if (!db.inTransaction) {
    begin.run();
    const head = /** @type {{ seq: number, hash: string } | undefined} */ (readHead.get());
    if (head === undefined) throw new Error('sqlite: audit chain head missing (the file was tampered with)');
    headSeq = head.seq;
    headHash = head.hash;
  }
  let at = '';
  for (let i = 0; i < rows.length; i += FIELDS) {
    const seq = /** @type {number} */ (rows[i]);
    // Numbered by the main thread against the head it holds: anything else would leave a hole.
    if (seq !== headSeq + 1) throw new Error(`entry ${seq} does not follow the chain head ${headSeq}`);
    at = /** @type {string} */ (rows[i + 1]);
    const kind = /** @type {string} */ (rows[i + 2]);
    const symbol = /** @type {string | null} */ (rows[i + 3]);
    const body = /** @type {string} */ (rows[i + 4]);
    const hash = chainHash(headHash, seq, at, kind, symbol, body);
    insert.run(seq, at, kind, symbol, body, headHash, hash);
    headSeq = seq;
    headHash = hash;
  }
  if (rows.length > 0) moveHead.run(headSeq, headHash, at, headSeq);
}

parentPort?.on('message', (message) => {
  try {
    if (writer !== null && Atomics.load(state, FAILED) === 0) {
      if (message.rows) writeRows(writer, message.rows);
      else if (writer.db.inTransaction) writer.commitStatement.run();
    }
  } catch (err) {
    fail(err);
  }
  // Rows handled: written, or dropped after a failure. Counted either way, so a failure that lands
  // between the main thread's look at the flag and its wait on this count still wakes it at once.
  if (message.rows) {
    Atomics.add(state, WRITTEN, message.rows.length / FIELDS);
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
