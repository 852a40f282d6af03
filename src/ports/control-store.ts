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
  /** The record to store, or null to leave the record as it is (an accepted no-op or a refusal). */
  next: ControlRecord | null;
  /** Appended to the audit chain in the same atomic step, whatever `next` is. */
  audit: NewAuditEvent;
}

export type ControlWriteResult = { written: true } | { written: false; current: ControlRecord };

export interface ControlStore {
  /** The current record; the initial one (running, epoch 0) when nothing was ever written. */
  read(): Promise<ControlRecord>;
  /**
   * In ONE atomic step (Redis: a Lua script; SQLite: one IMMEDIATE transaction): when the stored
   * epoch still equals `expectedEpoch`, writes `next` (if any) and appends `audit` to the event
   * store; otherwise writes nothing and returns the current record. After `next` is written, every
   * subscriber (in any process) is notified.
   */
  compareAndSet(change: ControlChange): Promise<ControlWriteResult>;
  /** Calls `listener` with the new record after every change made by any process. */
  subscribe(listener: (record: ControlRecord) => void): Promise<() => Promise<void>>;
}
