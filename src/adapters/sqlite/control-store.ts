/**
 * ControlStore over the single `control` row. `compareAndSet` is ONE IMMEDIATE transaction: check
 * the epoch, write the new record (if any) and append the audit event through the shared chain
 * appender, so a state change is never visible without its audit entry. The rules live in the
 * application layer; this only compares and writes.
 */
import type { ControlRecord, SystemState } from '../../domain/control.js';
import type { ControlChange, ControlStore, ControlWriteResult } from '../../ports/control-store.js';
import { StoreFaultError } from '../../ports/store-errors.js';
import type { ChangeWatcher } from './change-watcher.js';
import type { SqliteDatabase } from './connection.js';
import type { AppendChained } from './event-chain.js';

interface ControlRow {
  state: SystemState;
  epoch: number;
  reason: string | null;
  changed_at: string;
}

export class SqliteControlStore implements ControlStore {
  readonly readRecord: () => ControlRecord;
  private readonly casTx: (change: ControlChange) => ControlWriteResult;

  constructor(
    db: SqliteDatabase,
    appendChained: AppendChained,
    private readonly watcher: ChangeWatcher,
  ) {
    const select = db.prepare<[], ControlRow>('SELECT state, epoch, reason, changed_at FROM control WHERE id = 1');
    const update = db.prepare<[ControlRow]>(
      'UPDATE control SET state = @state, epoch = @epoch, reason = @reason, changed_at = @changed_at WHERE id = 1',
    );

    this.readRecord = () => {
      const row = select.get();
      // The migration seeds the row; its absence means the file was tampered with or truncated.
      if (row === undefined) {
        // Never read as the initial record: a tampered or truncated file must not undo a latched kill.
        throw new StoreFaultError(
          'empty',
          'sqlite: the control row is missing (the file was truncated or tampered with)',
        );
      }
      return { state: row.state, epoch: row.epoch, reason: row.reason, changed_at: row.changed_at };
    };

    const cas = db.transaction((change: ControlChange): ControlWriteResult => {
      const current = this.readRecord();
      if (current.epoch !== change.expectedEpoch) return { written: false, current };
      if (change.next) update.run(change.next);
      appendChained(change.audit);
      return { written: true };
    });
    this.casTx = (change) => cas.immediate(change);
  }

  async read(): Promise<ControlRecord> {
    return this.readRecord();
  }

  async compareAndSet(change: ControlChange): Promise<ControlWriteResult> {
    const result = this.casTx(change);
    if (result.written && change.next) this.watcher.localWrite();
    return result;
  }

  async subscribe(listener: (record: ControlRecord) => void): Promise<() => Promise<void>> {
    const unsubscribe = this.watcher.subscribeControl(listener);
    return async () => unsubscribe();
  }
}
