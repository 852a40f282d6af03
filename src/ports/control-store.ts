/**
 * Control store port: the system state as the single source of truth, shared by the API process
 * and the trading process. The store only compares and writes; which moves are legal is decided by
 * the control statechart in the application layer (src/application/control-transition.ts), so no
 * adapter knows the rules. Every adapter must pass test/contracts/control-store.contract.ts.
 */
import type { ControlRecord } from '../domain/control.js';
import type { NewAuditEvent } from './event-store.js';

/** One control write: the record it was decided on (by epoch), the new record, and its audit entry. */
export interface ControlChange {
  /** The epoch of the record the decision was made on; the write is refused if it moved. */
  expectedEpoch: number;
  /** The identity of the store the decision was made on; the write is refused on any other store. */
  expectedStoreId: string;
  /** The record to store (with its `mac`, if any), or null to leave the record as it is (an accepted no-op or a refusal). */
  next: ControlRecord | null;
  /** Appended to the audit chain in the same atomic step, whatever `next` is. */
  audit: NewAuditEvent;
  /**
   * How long the store may keep retrying its own races (another writer extending the audit chain)
   * before it gives up with ControlContentionError; unbounded while the store answers when omitted.
   */
  timeoutMs?: number;
  /**
   * A kill: goes ahead of this process's other writes still waiting for the store (never of a running
   * one), and is never refused for this process's clock: when it is too far from the store's, the
   * entry is stamped with the store's clock instead (src/domain/clock-skew.ts restampedWith).
   */
  priority?: boolean;
}

export type ControlWriteResult = { written: true } | { written: false; current: ControlRecord };

export interface ControlStore {
  /**
   * The current record. A store that has none (never initialised, or its data was lost) raises
   * StoreFaultError 'empty' (src/ports/store-errors.ts): never a default record, which would undo a
   * latched kill.
   */
  read(): Promise<ControlRecord>;
  /**
   * Creates the record of a brand-new store (running, epoch 0, a fresh identity, changed_at = `at`)
   * when it has none, atomically. Only a process that knows no other store may call it (the trading
   * process without a latch, tests). A store with an audit trail but no record has lost data: that is
   * StoreFaultError 'empty', and nothing is written. `mac`, when given, signs the new record (the
   * adapter makes its identity, so only it can ask); the MAC is stored with it.
   */
  initialise(at: string, mac?: (record: ControlRecord) => string): Promise<'created' | 'exists'>;
  /**
   * The operator's `tcs store adopt`: replaces the record (whatever is there, or nothing) with
   * `record` and appends `audit`, in one atomic step, so the processes that remember
   * `record.adopted_from` accept this store again.
   */
  adopt(record: ControlRecord, audit: NewAuditEvent): Promise<void>;
  /**
   * In ONE atomic step (Redis: a Lua script; SQLite: one IMMEDIATE transaction): when the stored
   * epoch still equals `expectedEpoch` and the identity `expectedStoreId`, writes `next` (if any) and appends `audit` to the event
   * store; otherwise writes nothing and returns the current record. After `next` is written, every
   * subscriber (in any process) is notified.
   */
  compareAndSet(change: ControlChange): Promise<ControlWriteResult>;
  /** Calls `listener` with the new record after every change made by any process. */
  subscribe(listener: (record: ControlRecord) => void): Promise<() => Promise<void>>;
}
