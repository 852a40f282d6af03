/**
 * The trading process's latch: a small local file that remembers, across its restarts, for each
 * store it has worked on (keyed by the store's canonical URL without credentials, see
 * src/adapters/latch/store-key.ts) which store it was (identity), the highest control epoch it has
 * seen there, the state at that epoch and the furthest audit trail head it has seen. It is what lets
 * a restarted process tell "the store lost its data" from "a new store", and carries a latched kill
 * into `tcs store adopt`. Kept per store so that switching STORE_URL is a first start on the new
 * store and leaves what is remembered of the old one as it was. Written durably (fsync) before the
 * process acts on a new epoch.
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

/** The latch of one store (one key) in the latch file. */
export interface LatchFile {
  /** Where it lives (for messages). */
  readonly path: string;
  /** The store's key in it. */
  readonly key: string;
  /** This store's latch, or null when there is none yet (a first start here). An unreadable file throws. */
  load(): Promise<TradingLatch | null>;
  save(latch: TradingLatch): Promise<void>;
}

/**
 * The latch could not be saved (a full disk, a read-only or vanished volume, permissions). Never a
 * store failure: the store may be fine. The trading process halts on it (`latch_unwritable`): a move it
 * cannot remember (a new epoch, a kill, a further audit head) would be forgotten by a restart, which
 * could then take a store that lost its data or went back in time for the one it knew.
 */
export class LatchUnwritableError extends Error {
  override name = 'LatchUnwritableError';
  readonly code = 'TCS_LATCH_UNWRITABLE';
}
