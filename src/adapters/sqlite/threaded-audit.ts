/**
 * A simulation run's audit appends off the main thread (issue 22, item 5). The main thread stays the
 * chain's one writer in everything but the disk: it numbers, times and hashes each entry against the
 * head it holds (chainedRow, as every other append does), so an append answers at once with the entry
 * it made; a worker thread with its own connection (audit-append-worker.mjs) inserts the rows and
 * moves the head, many to one transaction. Rows reach the worker in order and it commits whole
 * batches, so the file always holds an unbroken prefix of the chain: a crash loses the tail, never a
 * middle. The main connection writes to the chain itself only after `commitSync` has waited for the
 * worker to commit everything before it (sqlite-store.ts openRunStore), then `reloadHead` takes its
 * entry into account. A failed write stops the writer; the next append, commit or close throws it.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { AuditEvent, NewAuditEvent } from '../../ports/event-store.js';
import type { SqliteDatabase } from './connection.js';
import { appendedEvent, chainedRow, headReader } from './event-chain.js';
import type { EventRow, HeadRow } from './event-chain.js';

/** Rows handed to the worker in one message: fewer wake-ups, and still a few cycles behind at most. */
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

export interface ThreadedAudit {
  /** Numbers, chains and hashes the entry here; the worker writes it. Throws once the writer failed. */
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
  let head = currentHead();
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
  let pending: EventRow[] = [];
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
    if (pending.length === 0) return;
    worker.postMessage({ rows: pending });
    posted += pending.length;
    pending = [];
    waitFor(WRITTEN, (written) => posted - written <= MAX_ROWS_BEHIND, 'catching up');
    throwIfFailed();
  };
  const send = (message: { commit: number } | { close: number }) => {
    flushRows();
    worker.postMessage(message);
  };

  return {
    append(event) {
      if (closed) throw new Error('audit writer: the store is closed');
      throwIfFailed();
      const row = chainedRow(head, event);
      pending.push(row);
      head = { seq: row.seq, hash: row.hash, at: row.at };
      if (pending.length >= ROWS_PER_MESSAGE) flushRows();
      return appendedEvent(row);
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
}
