/**
 * CommandQueue over the `commands` table. Enqueue, claim and complete are each one IMMEDIATE
 * transaction, so two processes claiming at once serialise on the write lock and can never both take
 * the same command within its lease. Completing with an entry marks the command done and appends its
 * audit entry (event-chain.ts, chained like every other) in that one transaction: a lock that refuses
 * it refuses both, so a command is never done without its entry. Leases are absolute epoch-ms deadlines computed from the caller's
 * `now`, which keeps them testable and independent of this machine's clock.
 *
 * On a private file (a simulation run's store, run-store.ts) only this queue enqueues, so once a read
 * found no open command, none can appear until its own `enqueue`: claims skip the read until then.
 */
import { decodeStoredCommand, encodeCommandPayload, KILL_CANCELS } from '../../domain/commands.js';
import type { Command, CommandStatus, StoredCommand } from '../../domain/commands.js';
import { CommandQueueFullError } from '../../ports/command-queue.js';
import type { ClaimOptions, CommandQueue, EnqueueOptions } from '../../ports/command-queue.js';
import type { AuditEvent, NewAuditEvent } from '../../ports/event-store.js';
import type { ChangeWatcher } from './change-watcher.js';
import type { SqliteDatabase } from './connection.js';
import type { AppendChained } from './event-chain.js';
import type { StoreAccess } from './store-access.js';

interface CommandRow {
  ord: number;
  id: string;
  type: string;
  payload: string;
  enqueued_at: string;
  status: CommandStatus;
  attempts: number;
  result: string | null;
  completed_at: string | null;
}

const COLUMNS = 'ord, id, type, payload, enqueued_at, status, attempts, result, completed_at';

/** The port's view of a row, its payload decoded against its type's schema (malformed when it is not). */
function rowToRecord(row: CommandRow): StoredCommand {
  return decodeStoredCommand({
    id: row.id,
    type: row.type,
    payload: row.payload,
    enqueued_at: row.enqueued_at,
    status: row.status,
    attempts: row.attempts,
    result: row.result === null ? null : (JSON.parse(row.result) as Record<string, unknown>),
    completed_at: row.completed_at,
  });
}

export class SqliteCommandQueue implements CommandQueue {
  readonly lastOrd: () => number;
  private readonly getRow: (id: string) => CommandRow | undefined;
  private readonly enqueueTx: (
    command: Command,
    payload: string,
    maxOpen: number | undefined,
  ) => { record: StoredCommand; duplicate: boolean };
  private readonly claimTx: (consumer: string, options: ClaimOptions) => StoredCommand[];
  private readonly anyOpen: () => boolean;
  private readonly doneIds: () => string[];
  private readonly completeTx: (id: string, result: Record<string, unknown>, at: string) => StoredCommand;
  /** False once a private file's queue was seen empty, until its next enqueue (see the module comment). */
  private openMaybe = true;
  /** Enqueues completed, so a claim's empty read is not trusted across an enqueue that finished meanwhile. */
  private enqueued = 0;
  private readonly completeWithEntryTx: (
    id: string,
    result: Record<string, unknown>,
    at: string,
    entry: NewAuditEvent,
  ) => { record: StoredCommand; entry: AuditEvent | null };

  constructor(
    db: SqliteDatabase,
    private readonly watcher: ChangeWatcher,
    private readonly access: StoreAccess,
    appendChained: AppendChained,
    /** The file is this process's own: nothing but this queue writes its commands (sqlite-store.ts). */
    private readonly privateFile = false,
  ) {
    const byId = db.prepare<[string], CommandRow>(`SELECT ${COLUMNS} FROM commands WHERE id = ?`);
    const maxOrd = db.prepare<[], { ord: number | null }>('SELECT max(ord) AS ord FROM commands');
    const insert = db.prepare<[{ id: string; type: string; payload: string; enqueued_at: string }]>(
      `INSERT INTO commands (id, type, payload, enqueued_at, status, attempts)
       VALUES (@id, @type, @payload, @enqueued_at, 'pending', 0) ON CONFLICT (id) DO NOTHING`,
    );
    // `status <> 'done'` lets SQLite walk the partial index commands_open. The kill's cancels go
    // before everything else open, then queue order: behind a flood of ~1,150 flattens they waited
    // 14.5 s in enqueue order. Sorting the open commands costs well under a millisecond at thousands.
    const claimable = db.prepare<[number, number], CommandRow>(
      `SELECT ${COLUMNS} FROM commands
       WHERE status <> 'done' AND (status = 'pending' OR lease_until <= ?)
       ORDER BY type = '${KILL_CANCELS}' DESC, ord LIMIT ?`,
    );
    const markClaimed = db.prepare<[string, number, number]>(
      `UPDATE commands SET status = 'claimed', attempts = attempts + 1, claimed_by = ?, lease_until = ? WHERE ord = ?`,
    );
    const markDone = db.prepare<[string, string, string]>(
      `UPDATE commands SET status = 'done', result = ?, completed_at = ?, lease_until = NULL WHERE id = ?`,
    );

    this.getRow = (id) => byId.get(id);
    const done = db.prepare<[], { id: string }>(`SELECT id FROM commands WHERE status = 'done' ORDER BY ord`);
    this.doneIds = () => done.all().map((row) => row.id);
    this.lastOrd = () => maxOrd.get()?.ord ?? 0;

    const openCount = db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM commands WHERE status <> 'done'`);
    const enqueue = db.transaction((command: Command, payload: string, maxOpen: number | undefined) => {
      // The bound is judged in the transaction that inserts, so two API processes cannot both pass it.
      if (maxOpen !== undefined && command.type !== KILL_CANCELS && byId.get(command.id) === undefined) {
        if ((openCount.get()?.n ?? 0) >= maxOpen) throw new CommandQueueFullError(maxOpen);
      }
      const { changes } = insert.run({
        id: command.id,
        type: command.type,
        payload,
        enqueued_at: command.enqueued_at,
      });
      const row = byId.get(command.id);
      if (row === undefined) throw new Error(`sqlite: command ${command.id} vanished during enqueue`);
      return { record: rowToRecord(row), duplicate: changes === 0 };
    });
    this.enqueueTx = (command, payload, maxOpen) => enqueue.immediate(command, payload, maxOpen);

    // Read first, without the write lock: on an empty queue (almost every cycle) no IMMEDIATE
    // transaction is taken at all. Seeing nothing here is what a claim would have found at this instant.
    const anyOpen = db.prepare<[], { one: number }>(`SELECT 1 AS one FROM commands WHERE status <> 'done' LIMIT 1`);
    this.anyOpen = () => anyOpen.get() !== undefined;
    const claim = db.transaction((consumer: string, options: ClaimOptions) => {
      if (!Number.isInteger(options.max) || options.max < 1) return [];
      const rows = claimable.all(options.now, options.max);
      const leaseUntil = options.now + options.leaseMs;
      return rows.map((row) => {
        markClaimed.run(consumer, leaseUntil, row.ord);
        return rowToRecord({ ...row, status: 'claimed', attempts: row.attempts + 1 });
      });
    });
    this.claimTx = (consumer, options) => claim.immediate(consumer, options);

    const complete = db.transaction((id: string, result: Record<string, unknown>, at: string) => {
      const row = byId.get(id);
      if (row === undefined) throw new Error(`unknown command ${id}`);
      if (row.status === 'done') return rowToRecord(row);
      const text = JSON.stringify(result);
      markDone.run(text, at, id);
      return rowToRecord({ ...row, status: 'done', result: text, completed_at: at });
    });
    this.completeTx = (id, result, at) => complete.immediate(id, result, at);

    const completeWithEntry = db.transaction(
      (id: string, result: Record<string, unknown>, at: string, entry: NewAuditEvent) => {
        const row = byId.get(id);
        if (row === undefined) throw new Error(`unknown command ${id}`);
        if (row.status === 'done') return { record: rowToRecord(row), entry: null };
        const text = JSON.stringify(result);
        markDone.run(text, at, id);
        const appended = appendChained(entry);
        return { record: rowToRecord({ ...row, status: 'done', result: text, completed_at: at }), entry: appended };
      },
    );
    this.completeWithEntryTx = (id, result, at, entry) => completeWithEntry.immediate(id, result, at, entry);
  }

  async enqueue(
    command: Command,
    options: EnqueueOptions = {},
  ): Promise<{ record: StoredCommand; duplicate: boolean }> {
    const payload = encodeCommandPayload(command);
    const outcome = await this.access.write(() => {
      const written = this.enqueueTx(command, payload, options.maxOpen);
      // In the same turn as the insert: a claim whose empty read came before it sees the count move.
      this.enqueued += 1;
      this.openMaybe = true;
      return written;
    });
    if (!outcome.duplicate) this.watcher.localWrite();
    return outcome;
  }

  async claim(consumer: string, options: ClaimOptions): Promise<StoredCommand[]> {
    // A simulation's cycles claim every cycle from a queue that is almost always empty: on a private
    // file, an empty read stands until this queue's next enqueue (the profile's per-cycle SQLite read).
    if (!this.openMaybe) return [];
    const before = this.enqueued;
    if (!(await this.access.read(this.anyOpen))) {
      if (this.privateFile && this.enqueued === before) this.openMaybe = false;
      return [];
    }
    return this.access.write(() => this.claimTx(consumer, options));
  }

  complete(id: string, result: Record<string, unknown>, at: string): Promise<StoredCommand> {
    return this.access.write(() => this.completeTx(id, result, at));
  }

  completeWithEntry(
    id: string,
    result: Record<string, unknown>,
    at: string,
    entry: NewAuditEvent,
  ): Promise<{ record: StoredCommand; entry: AuditEvent | null }> {
    return this.access.write(() => this.completeWithEntryTx(id, result, at, entry));
  }

  async get(id: string): Promise<StoredCommand | null> {
    const row = await this.access.read(() => this.getRow(id));
    return row === undefined ? null : rowToRecord(row);
  }

  completedIds(): Promise<string[]> {
    return this.access.read(this.doneIds);
  }

  async subscribe(listener: () => void): Promise<() => Promise<void>> {
    const unsubscribe = this.watcher.subscribeCommands(listener);
    return async () => unsubscribe();
  }
}
