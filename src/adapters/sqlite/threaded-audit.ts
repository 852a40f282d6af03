/**
 * A simulation run's audit appends off the main thread (issue 22, item 5; issue 34, item 8). The
 * main thread numbers and times each entry against the head it holds and prints its canonical body
 * (unhashedRow, as every other append does), so an append answers at once; a worker thread with its
 * own connection (audit-append-worker.mjs) chains them: it hashes each row to the one before it
 * (sha256, the same text as chainHashOfCanonical), inserts the rows and moves the head, many to one
 * transaction. Rows reach the worker in order and it commits whole batches, so the file always holds
 * an unbroken prefix of the chain: a crash loses the tail, never a middle. An entry's hash and
 * prev_hash are read from the file the first time someone asks (after waiting for the worker's
 * commit): the simulator never asks. The main connection writes to the chain itself only after
 * `commitSync` has waited for the worker to commit everything before it (sqlite-store.ts
 * openRunStore), then `reloadHead` takes its entry into account; the worker chains its next batch to
 * the head as it reads it in the file. A failed write stops the writer; the next append, commit or
 * close throws it.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { AuditEvent, NewAuditEvent } from '../../ports/event-store.js';
import type { SqliteDatabase } from './connection.js';
import { headReader, unhashedRow } from './event-chain.js';
import type { HeadRow, UnhashedRow } from './event-chain.js';

/**
 * Rows handed to the worker in one message: fewer wake-ups, and still a few cycles behind at most.
 * A message is one flat array (seq, at, kind, symbol, body of each row in turn): cloning primitives
 * is cheaper than cloning an object per row.
 */
const ROWS_PER_MESSAGE = 32;
/**
 * Rows handed over but not yet written, at most: past it, an append waits for the worker. Without a
 * bound, a writer slower than the cycles (both cores busy) would queue the whole run in memory.
 */
const MAX_ROWS_BEHIND = 2_048;
/** Shared state slots (audit-append-worker.mjs): the last generation done, the failed flag, rows handled. */
const DONE = 0;
const FAILED = 1;
const WRITTEN = 2;

const HASHES_AT = 'SELECT prev_hash, hash FROM events WHERE seq = ?';

export interface ThreadedAudit {
  /**
   * Numbers and prints the entry here; the worker hashes and writes it. Throws once the writer failed.
   * The entry's hash and prev_hash, when read, wait for the worker to commit it.
   */
  append(event: NewAuditEvent): AuditEvent;
  /** Asks the worker to commit what it has; does not wait. */
  commit(): void;
  /** Waits (blocking this thread, at most `timeoutMs`) until everything appended so far is committed. */
  commitSync(): void;
  /** Reads the head again: the main connection has written to the chain itself. */
  reloadHead(): void;
  /** Commits, closes the worker's connection and ends the thread. */
  close(): Promise<void>;
}

/** The worker's file: beside this module in src/ (tests, tsx) and in dist/ (the build copies it there). */
function workerFile(): URL {
  const url = new URL('./audit-append-worker.mjs', import.meta.url);
  if (!existsSync(fileURLToPath(url)))
    throw new Error(`audit writer: ${fileURLToPath(url)} is missing (run the build)`);
  return url;
}

export function startThreadedAudit(db: SqliteDatabase, path: string, timeoutMs: number): ThreadedAudit {
  const readHead = headReader(db);
  const currentHead = (): HeadRow => {
    const head = readHead();
    if (head === undefined) throw new Error('sqlite: audit chain head missing (the file was tampered with)');
    return head;
  };
  let head: Omit<HeadRow, 'hash'> = currentHead();
  const hashesAt = db.prepare<[number], { prev_hash: string; hash: string }>(HASHES_AT);
  const state = new Int32Array(new SharedArrayBuffer(12));
  const { port1: replies, port2: workerReplies } = new MessageChannel();
  const worker = new Worker(workerFile(), {
    workerData: { path, state: state.buffer, replies: workerReplies, busyTimeoutMs: timeoutMs },
    transferList: [workerReplies],
    // It holds a few dozen rows at a time: a small heap, whatever young generation the process was
    // started with (a simulation asks for a large one, simulate-process.ts).
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // A thread that fails to start (or dies) is a failed writer too.
  let failure: Error | null = null;
  worker.on('error', (err) => (failure ??= new Error(`audit writer: ${err.message}`)));
  let pending: Array<string | number | null> = [];
  let pendingRows = 0;
  let posted = 0;
  let generation = 0;
  let closed = false;
  let closing: Promise<void> | undefined;

  /** Blocks this thread until `done()` holds, the writer fails, or the store's deadline passes. */
  const waitFor = (slot: number, done: (value: number) => boolean, what: string) => {
    const deadline = performance.now() + timeoutMs;
    for (let seen = Atomics.load(state, slot); !done(seen); seen = Atomics.load(state, slot)) {
      if (Atomics.load(state, FAILED) === 1) return;
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`audit writer: ${what} not done within ${timeoutMs} ms`);
      Atomics.wait(state, slot, seen, left);
    }
  };

  const failed = (): Error | null => {
    if (failure === null && Atomics.load(state, FAILED) === 1) {
      const text = receiveMessageOnPort(replies)?.message;
      failure = new Error(typeof text === 'string' ? text : 'audit writer: a write failed');
    }
    return failure;
  };
  const throwIfFailed = () => {
    const err = failed();
    if (err) throw err;
  };
  const flushRows = () => {
    if (pendingRows === 0) return;
    worker.postMessage({ rows: pending });
    posted += pendingRows;
    pending = [];
    pendingRows = 0;
    waitFor(WRITTEN, (written) => posted - written <= MAX_ROWS_BEHIND, 'catching up');
    throwIfFailed();
  };
  const send = (message: { commit: number } | { close: number }) => {
    flushRows();
    worker.postMessage(message);
  };

  /**
   * An appended entry's hashes, as the worker wrote them: waits for its commit (rare: a simulation
   * never asks). After the store closed (everything committed), read from the file on a connection
   * of its own: an entry an append returned stays whole.
   */
  const hashesOf = (seq: number): { prev_hash: string; hash: string } => {
    api.commitSync();
    let row: { prev_hash: string; hash: string } | undefined;
    if (db.open) row = hashesAt.get(seq);
    else {
      const file = new Database(path, { readonly: true, fileMustExist: true });
      try {
        row = file.prepare<[number], { prev_hash: string; hash: string }>(HASHES_AT).get(seq);
      } finally {
        file.close();
      }
    }
    if (row === undefined) throw new Error(`audit writer: entry ${seq} is not in the file`);
    return row;
  };

  const api: ThreadedAudit = {
    append(event) {
      if (closed) throw new Error('audit writer: the store is closed');
      throwIfFailed();
      const row = unhashedRow(head, event);
      pending.push(row.seq, row.at, row.kind, row.symbol, row.body);
      head = { seq: row.seq, at: row.at };
      if (++pendingRows >= ROWS_PER_MESSAGE) flushRows();
      return threadedEvent(row, hashesOf);
    },
    commit() {
      if (!closed) send({ commit: ++generation });
    },
    commitSync() {
      throwIfFailed();
      if (closed) return;
      const wanted = ++generation;
      send({ commit: wanted });
      waitFor(DONE, (done) => done >= wanted, 'the commit');
      throwIfFailed();
    },
    reloadHead() {
      head = currentHead();
    },
    // Once: a second close, even while the first still waits for the thread, answers as the first
    // does (when everything is committed, or with the failure), not at once.
    close() {
      closing ??= (async () => {
        closed = true;
        try {
          flushRows();
        } finally {
          // Whatever the last rows met, the thread is told to end: it must never outlive the store.
          worker.postMessage({ close: ++generation });
          await exited;
          replies.close();
        }
        throwIfFailed();
      })();
      return closing;
    },
  };
  return api;
}

/**
 * The entry as an append returns it: body parsed, and hashes read, only if someone looks (own
 * enumerable getters, so a copy of the entry has them all, as appendedEvent's body).
 */
function threadedEvent(row: UnhashedRow, hashesOf: (seq: number) => { prev_hash: string; hash: string }): AuditEvent {
  let body: Record<string, unknown> | undefined;
  let hashes: { prev_hash: string; hash: string } | undefined;
  return {
    seq: row.seq,
    at: row.at,
    kind: row.kind,
    symbol: row.symbol,
    get body() {
      return (body ??= JSON.parse(row.body) as Record<string, unknown>);
    },
    get prev_hash() {
      return (hashes ??= hashesOf(row.seq)).prev_hash;
    },
    get hash() {
      return (hashes ??= hashesOf(row.seq)).hash;
    },
  };
}
