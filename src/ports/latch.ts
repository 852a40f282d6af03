/**
 * The trading process's latch: a small local file that remembers, across its restarts, which store
 * it works on (identity), the highest control epoch it has seen, the state at that epoch and the
 * furthest audit trail head it has seen. It is
 * what lets a restarted process tell "the store lost its data" from "a new store", and carries a
 * latched kill into `tcs store adopt`. Written durably (fsync) before the process acts on a new epoch.
 */
import type { SystemState } from '../domain/control.js';

export interface TradingLatch {
  storeId: string;
  epoch: number;
  state: SystemState;
  /**
   * The furthest audit trail head seen on that store (its last entry's seq and hash), so that a
   * restore at the same epoch is still seen; absent in a latch written before it was kept.
   */
  auditSeq?: number;
  auditHash?: string;
  /** ISO 8601 UTC of the write. */
  updatedAt: string;
}

export interface LatchFile {
  /** Where it lives (for messages). */
  readonly path: string;
  /** The latch, or null when there is none yet (a first start). An unreadable file throws. */
  load(): Promise<TradingLatch | null>;
  save(latch: TradingLatch): Promise<void>;
}
