/**
 * ControlStore over the single `control` row. `apply` and `resetKill` are each ONE IMMEDIATE
 * transaction: read the row, decide (decideControl is the only rule), write, and append the audit
 * event through the shared chain appender, so a state change is never visible without its audit entry.
 */
import { decideControl } from '../../../machines/control.machine.js';
import type {
  ControlActor,
  ControlApplyResult,
  ControlEvent,
  ControlRecord,
  SystemState,
} from '../../domain/control.js';
import type { ControlStore } from '../../ports/control-store.js';
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
  private readonly applyTx: (event: ControlEvent, who: ControlActor) => ControlApplyResult;
  private readonly resetTx: (who: ControlActor, reason: string) => { record: ControlRecord; changed: boolean };

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
      if (row === undefined) throw new Error('sqlite: control row missing');
      return { state: row.state, epoch: row.epoch, reason: row.reason, changed_at: row.changed_at };
    };

    const apply = db.transaction((event: ControlEvent, who: ControlActor): ControlApplyResult => {
      const current = this.readRecord();
      const decision = decideControl(current.state, event);
      let record = current;
      if (decision.outcome === 'changed') {
        record = { state: decision.to, epoch: current.epoch + 1, reason: event.reason, changed_at: who.at };
        update.run(record);
      }
      appendChained({
        kind: 'control',
        at: who.at,
        symbol: null,
        body: {
          event: event.type,
          reason: event.reason,
          outcome: decision.outcome,
          from: decision.from,
          to: decision.to,
          epoch: record.epoch,
          actor: who.actor,
        },
      });
      return { ...decision, event, record };
    });
    this.applyTx = (event, who) => apply.immediate(event, who);

    const reset = db.transaction((who: ControlActor, reason: string) => {
      const current = this.readRecord();
      if (current.state !== 'killed') return { record: current, changed: false };
      // The manual restart leaves the statechart's final state, so no decideControl here: it is the
      // statechart starting over from its initial state, recorded as such.
      const record: ControlRecord = { state: 'running', epoch: current.epoch + 1, reason, changed_at: who.at };
      update.run(record);
      appendChained({
        kind: 'kill_reset',
        at: who.at,
        symbol: null,
        body: { reason, from: 'killed', to: 'running', epoch: record.epoch, actor: who.actor },
      });
      return { record, changed: true };
    });
    this.resetTx = (who, reason) => reset.immediate(who, reason);
  }

  async read(): Promise<ControlRecord> {
    return this.readRecord();
  }

  async apply(event: ControlEvent, who: ControlActor): Promise<ControlApplyResult> {
    const result = this.applyTx(event, who);
    if (result.outcome === 'changed') this.watcher.localWrite();
    return result;
  }

  async resetKill(who: ControlActor, reason: string): Promise<ControlRecord> {
    const { record, changed } = this.resetTx(who, reason);
    if (changed) this.watcher.localWrite();
    return record;
  }

  async subscribe(listener: (record: ControlRecord) => void): Promise<() => Promise<void>> {
    const unsubscribe = this.watcher.subscribeControl(listener);
    return async () => unsubscribe();
  }
}
