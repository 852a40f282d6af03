/**
 * Is this the store I knew? A process remembers the identity of the store it works on, the highest
 * control epoch it has seen and, when that state was `killed`, the epoch of the kill (the trading
 * process also keeps all of it in its latch file, so the memory survives its restarts). A record read
 * later is judged against that memory:
 *  - another identity → `replaced` (a new file at the path, an empty Redis that someone re-created,
 *    another database), unless the record says it was adopted from the remembered identity by the
 *    operator's `tcs store adopt`;
 *  - the same identity with a lower epoch → `rolled_back` (a restored backup, a lost tail of writes);
 *  - a remembered kill with a record that is not killed: only a kill reset newer than that kill (an
 *    audit entry `kill_reset`, looked up by the caller) explains it; otherwise the store went back to
 *    before the kill and something moved it on (a resume on the restored record): `rolled_back`;
 *  - (judgeHead) an audit trail that ends before the head remembered, or holds another entry at its
 *    seq (restored, then written on): `rolled_back`, also at the same epoch.
 * An empty store (no record at all) is judged by the adapters, which raise the `empty` fault.
 * A fault is never read as a fresh start; only the operator's adoption moves the memory to a new store.
 */
import type { ControlRecord } from './control.js';

export interface StoreMemory {
  /** The identity last accepted; null before the first record was seen. */
  storeId: string | null;
  /** The highest epoch seen on that store. */
  epoch: number;
  /** The epoch at which the state was seen `killed`, null when the last state seen was not killed. */
  killedAt: number | null;
  /**
   * The furthest audit trail head seen on that store (null: none seen yet). Control changes are rare,
   * so most restores land at the same epoch; the trail moves every cycle, so it tells them apart.
   */
  head?: AuditHead | null;
}

/** An audit trail's head: its last entry's seq and hash (seq 0 for an empty trail). */
export interface AuditHead {
  seq: number;
  hash: string;
}

export type StoreVerdict =
  | { ok: true; memory: StoreMemory; adopted: boolean }
  | { ok: false; kind: 'replaced' | 'rolled_back'; message: string }
  /** A remembered kill and a record that is not killed: judge again with the newest kill reset's epoch. */
  | { ok: false; kind: 'needs_reset_proof' };

export const NO_MEMORY: StoreMemory = { storeId: null, epoch: 0, killedAt: null };

export const ADOPT_HINT =
  'If this is intended (the store was restored or replaced on purpose), accept it with ' +
  '`tcs store adopt --reason "…"` (audited); the system then starts killed (or paused if nothing was lost).';

/**
 * `lastResetEpoch`: the epoch written by the newest `kill_reset` in the store's audit trail (null when
 * there is none), needed only for a `needs_reset_proof` verdict.
 */
export function judgeRecord(memory: StoreMemory, record: ControlRecord, lastResetEpoch?: number | null): StoreVerdict {
  if (memory.storeId === null) return { ok: true, memory: remember(record, null), adopted: false };
  if (record.store_id !== memory.storeId) {
    if (record.adopted_from === memory.storeId) return { ok: true, memory: remember(record, null), adopted: true };
    return {
      ok: false,
      kind: 'replaced',
      message:
        `the store is not the one this process knew (identity ${record.store_id}, expected ${memory.storeId}): ` +
        `it was replaced or re-created. ${ADOPT_HINT}`,
    };
  }
  if (record.epoch < memory.epoch) {
    return rolledBack(
      `control epoch ${record.epoch}, but this process has seen ${memory.epoch} (a restore or lost writes)`,
    );
  }
  if (memory.killedAt !== null && record.state !== 'killed') {
    if (lastResetEpoch === undefined) return { ok: false, kind: 'needs_reset_proof' };
    if (lastResetEpoch === null || lastResetEpoch <= memory.killedAt) {
      return rolledBack(
        `it says ${record.state} at epoch ${record.epoch}, but this process saw the kill at epoch ${memory.killedAt} ` +
          'and the audit trail has no kill reset since (the store went back to before the kill)',
      );
    }
  }
  return { ok: true, memory: remember(record, memory.killedAt, memory.head ?? null), adopted: false };
}

export type HeadVerdict = { ok: true; memory: StoreMemory } | { ok: false; kind: 'rolled_back'; message: string };

/**
 * The store's audit head against the one remembered. `hashAtRemembered` is the hash of the store's
 * entry at the remembered seq (null when it has none), looked up by the caller only when the trail
 * reaches that far. The memory moves forward to the store's head when it is on the remembered chain.
 */
export function judgeHead(memory: StoreMemory, head: AuditHead, hashAtRemembered?: string | null): HeadVerdict {
  const seen = memory.head ?? null;
  if (seen === null || memory.storeId === null) return { ok: true, memory: { ...memory, head } };
  if (head.seq < seen.seq) {
    return rolledBackHead(
      `the audit trail ends at entry ${head.seq}, but this process has seen entry ${seen.seq} (a restore or lost writes)`,
    );
  }
  // Every trail starts from the empty one (seq 0), so a remembered empty trail is on every chain.
  const onChain = seen.seq === 0 || (head.seq === seen.seq ? head.hash === seen.hash : hashAtRemembered === seen.hash);
  if (!onChain) {
    return rolledBackHead(
      `the audit trail's entry ${seen.seq} is not the one this process saw (restored and written on, or replaced)`,
    );
  }
  return { ok: true, memory: head.seq === seen.seq ? memory : { ...memory, head } };
}

function rolledBackHead(detail: string): HeadVerdict {
  return { ok: false, kind: 'rolled_back', message: `the store went back in time: ${detail}. ${ADOPT_HINT}` };
}

function rolledBack(detail: string): StoreVerdict {
  return { ok: false, kind: 'rolled_back', message: `the store went back in time: ${detail}. ${ADOPT_HINT}` };
}

function remember(record: ControlRecord, killedAt: number | null, head: AuditHead | null = null): StoreMemory {
  const killed = record.state === 'killed' ? (killedAt ?? record.epoch) : null;
  return { storeId: record.store_id, epoch: record.epoch, killedAt: killed, ...(head ? { head } : {}) };
}
