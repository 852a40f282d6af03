/**
 * ControlStore over the single `control` row. `compareAndSet` is ONE IMMEDIATE transaction: check
 * the epoch and the identity, write the new record (if any) and append the audit event through the
 * shared chain appender, so a state change is never visible without its audit entry. The rules live
 * in the application layer; this only compares and writes. A file with no control row is an empty
 * store (a fault), never read as running: the row is created only by `initialise` or `adopt`.
 *
 * `remember` (a simulation run's private file, run-store.ts, which no other process opens): the row
 * is read once and kept until this store writes it, instead of a SELECT every cycle. Each write
 * forgets it before and after, so the next read is the row as written (or as a refused or rolled
 * back write left it). A shared store never remembers: other processes write its row.
 */
import { randomUUID } from 'node:crypto';
import type { ControlRecord, SystemState } from '../../domain/control.js';
import { initialControlRecord } from '../../domain/control.js';
import type { ControlChange, ControlStore, ControlWriteResult } from '../../ports/control-store.js';
import type { NewAuditEvent } from '../../ports/event-store.js';
import { EMPTY_STORE_MESSAGE, StoreFaultError } from '../../ports/store-errors.js';
import type { ChangeWatcher } from './change-watcher.js';
import type { SqliteDatabase } from './connection.js';
import type { AppendChained } from './event-chain.js';
import type { StoreAccess } from './store-access.js';

interface ControlRow {
  state: SystemState;
  epoch: number;
  reason: string | null;
  changed_at: string;
  store_id: string;
  adopted_from: string | null;
  mac: string | null;
}

/** The record as a row: a record without a MAC is stored with none (NULL). */
const rowOf = (record: ControlRecord): ControlRow => ({ ...record, mac: record.mac ?? null });

export class SqliteControlStore implements ControlStore {
  /** The control row, without the file check (the caller's access makes it). */
  readonly readRecord: () => ControlRecord;
  private readonly casTx: (change: ControlChange) => ControlWriteResult;
  private readonly initialiseTx: (at: string, mac?: (record: ControlRecord) => string) => 'created' | 'exists';
  private readonly adoptTx: (record: ControlRecord, audit: NewAuditEvent) => void;
  /** The row as last read, while `remember` holds and nothing was written since; null otherwise. */
  private remembered: ControlRecord | null = null;

  constructor(
    db: SqliteDatabase,
    appendChained: AppendChained,
    private readonly watcher: ChangeWatcher,
    private readonly access: StoreAccess,
    remember = false,
  ) {
    const select = db.prepare<[], ControlRow>(
      'SELECT state, epoch, reason, changed_at, store_id, adopted_from, mac FROM control WHERE id = 1',
    );
    const update = db.prepare<[Pick<ControlRow, 'state' | 'epoch' | 'reason' | 'changed_at' | 'mac'>]>(
      'UPDATE control SET state = @state, epoch = @epoch, reason = @reason, changed_at = @changed_at, mac = @mac WHERE id = 1',
    );
    const replace = db.prepare<[ControlRow]>(
      `INSERT OR REPLACE INTO control (id, state, epoch, reason, changed_at, store_id, adopted_from, mac)
       VALUES (1, @state, @epoch, @reason, @changed_at, @store_id, @adopted_from, @mac)`,
    );
    const hasEvents = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM (SELECT 1 FROM events LIMIT 1)');

    const readRow = (): ControlRecord => {
      const row = select.get();
      if (row === undefined || row.store_id === null) throw new StoreFaultError('empty', EMPTY_STORE_MESSAGE);
      const { mac, ...record } = row;
      return mac === null ? record : { ...record, mac };
    };
    // Frozen: every reader gets the same object, so none may change it for the others.
    this.readRecord = remember ? () => (this.remembered ??= Object.freeze(readRow())) : readRow;
    /** Runs a write with the remembered row forgotten before it and after it, whatever it met. */
    const forgetting =
      <A extends unknown[], R>(write: (...args: A) => R) =>
      (...args: A): R => {
        this.remembered = null;
        try {
          return write(...args);
        } finally {
          this.remembered = null;
        }
      };

    const cas = db.transaction((change: ControlChange): ControlWriteResult => {
      const current = readRow();
      if (current.epoch !== change.expectedEpoch || current.store_id !== change.expectedStoreId) {
        return { written: false, current };
      }
      if (change.next) update.run(rowOf(change.next));
      appendChained(change.audit, { storeClockIfSkewed: change.priority === true });
      return { written: true };
    });
    this.casTx = forgetting((change: ControlChange) => cas.immediate(change));

    const initialise = db.transaction((at: string, mac?: (record: ControlRecord) => string): 'created' | 'exists' => {
      if (select.get()?.store_id) return 'exists';
      if ((hasEvents.get()?.n ?? 0) > 0) {
        throw new StoreFaultError(
          'empty',
          'the store has an audit trail but no control record: it lost data, so it is not initialised as new. ' +
            'Inspect it with `tcs audit verify`; accept it deliberately with `tcs store adopt --reason "…"`',
        );
      }
      const record = initialControlRecord(randomUUID(), at);
      replace.run(rowOf(mac ? { ...record, mac: mac(record) } : record));
      return 'created';
    });
    this.initialiseTx = forgetting((at: string, mac?: (record: ControlRecord) => string) =>
      initialise.immediate(at, mac),
    );

    const adopt = db.transaction((record: ControlRecord, audit: NewAuditEvent) => {
      replace.run(rowOf(record));
      appendChained(audit);
    });
    this.adoptTx = forgetting((record: ControlRecord, audit: NewAuditEvent) => adopt.immediate(record, audit));
  }

  // Not async: the access's promise is the answer, without another one around it (the hottest read).
  read(): Promise<ControlRecord> {
    return this.access.read(this.readRecord);
  }

  async initialise(at: string, mac?: (record: ControlRecord) => string): Promise<'created' | 'exists'> {
    const outcome = await this.access.write(() => this.initialiseTx(at, mac));
    if (outcome === 'created') this.watcher.localWrite();
    return outcome;
  }

  async adopt(record: ControlRecord, audit: NewAuditEvent): Promise<void> {
    await this.access.write(() => this.adoptTx(record, audit));
    this.watcher.localWrite();
  }

  async compareAndSet(change: ControlChange): Promise<ControlWriteResult> {
    const result = await this.access.write(() => this.casTx(change));
    if (result.written && change.next) this.watcher.localWrite();
    return result;
  }

  async subscribe(listener: (record: ControlRecord) => void): Promise<() => Promise<void>> {
    const unsubscribe = this.watcher.subscribeControl(listener);
    return async () => unsubscribe();
  }
}
