/**
 * Is this the store I knew? A process remembers the identity of the store it works on and the highest
 * control epoch it has seen (the trading process also keeps both in its latch file, so the memory
 * survives its restarts). A record read later is judged against that memory:
 *  - another identity → `replaced` (a new file at the path, an empty Redis that someone re-created,
 *    another database), unless the record says it was adopted from the remembered identity by the
 *    operator's `tcs store adopt`;
 *  - the same identity with a lower epoch → `rolled_back` (a restored backup, a lost tail of writes).
 * An empty store (no record at all) is judged by the adapters, which raise the `empty` fault.
 * A fault is never read as a fresh start; only the operator's adoption moves the memory to a new store.
 */
import type { ControlRecord } from './control.js';

export interface StoreMemory {
  /** The identity last accepted; null before the first record was seen. */
  storeId: string | null;
  /** The highest epoch seen on that store. */
  epoch: number;
}

export type StoreVerdict =
  | { ok: true; memory: StoreMemory; adopted: boolean }
  | { ok: false; kind: 'replaced' | 'rolled_back'; message: string };

export const NO_MEMORY: StoreMemory = { storeId: null, epoch: 0 };

export const ADOPT_HINT =
  'If this is intended (the store was restored or replaced on purpose), accept it with ' +
  '`tcs store adopt --reason "…"` (audited); the system then starts paused, or killed if it was killed.';

export function judgeRecord(memory: StoreMemory, record: ControlRecord): StoreVerdict {
  if (memory.storeId === null) return { ok: true, memory: remember(record), adopted: false };
  if (record.store_id !== memory.storeId) {
    if (record.adopted_from === memory.storeId) return { ok: true, memory: remember(record), adopted: true };
    return {
      ok: false,
      kind: 'replaced',
      message:
        `the store is not the one this process knew (identity ${record.store_id}, expected ${memory.storeId}): ` +
        `it was replaced or re-created. ${ADOPT_HINT}`,
    };
  }
  if (record.epoch < memory.epoch) {
    return {
      ok: false,
      kind: 'rolled_back',
      message:
        `the store went back in time: control epoch ${record.epoch}, but this process has seen ${memory.epoch} ` +
        `(a restore or lost writes). ${ADOPT_HINT}`,
    };
  }
  return { ok: true, memory: { storeId: memory.storeId, epoch: record.epoch }, adopted: false };
}

function remember(record: ControlRecord): StoreMemory {
  return { storeId: record.store_id, epoch: record.epoch };
}
