/**
 * The control store as a process that remembers its store sees it: every record read is judged
 * against the process's memory (src/domain/store-identity.ts) before anyone acts on it. A record of
 * another identity, an older epoch, or one that has left a remembered kill without a kill reset raises
 * StoreFaultError instead of being returned, so no caller — the API's routes, the trading process's
 * cycle, order gate, heartbeat — can mistake a replaced, emptied or rolled-back store for the one it
 * knew. A compare-and-set that lost returns the record it lost to, judged the same way, so a retry
 * never decides on a record nobody trusted. The memory moves only forward, and only after
 * `remember` (the trading process's latch file) has stored the move.
 */
import type { ControlRecord } from '../domain/control.js';
import { judgeRecord } from '../domain/store-identity.js';
import type { StoreMemory, StoreVerdict } from '../domain/store-identity.js';
import type { ControlStore } from '../ports/control-store.js';
import { StoreFaultError } from '../ports/store-errors.js';

export interface TrustedControlOptions {
  memory: StoreMemory;
  /** Called (and awaited) before the memory moves, with the record that moves it. */
  remember?(memory: StoreMemory, record: ControlRecord): Promise<void>;
  /** The epoch written by the newest `kill_reset` audit entry (null when none): proof that a kill was ended. */
  lastResetEpoch?(): Promise<number | null>;
  /** Told about a record that was not trusted (a notification that will not be delivered). */
  distrusted?(err: StoreFaultError): void;
}

export interface TrustedControl extends ControlStore {
  /** What this process remembers now. */
  memory(): StoreMemory;
}

export function trustedControl(inner: ControlStore, options: TrustedControlOptions): TrustedControl {
  let memory = options.memory;
  // Moves are stored one after another, so a slow save can never land after a newer one.
  let saving: Promise<unknown> = Promise.resolve();

  const verdictFor = async (record: ControlRecord): Promise<StoreVerdict> => {
    const verdict = judgeRecord(memory, record);
    if (verdict.ok || verdict.kind !== 'needs_reset_proof') return verdict;
    return judgeRecord(memory, record, (await options.lastResetEpoch?.()) ?? null);
  };

  const judge = async (record: ControlRecord, again?: () => Promise<ControlRecord>): Promise<ControlRecord> => {
    let verdict = await verdictFor(record);
    // A reply that left before a newer notification moved the memory looks rolled back: read once more.
    if (!verdict.ok && verdict.kind === 'rolled_back' && again) {
      record = await again();
      verdict = await verdictFor(record);
    }
    if (!verdict.ok) {
      const kind = verdict.kind === 'needs_reset_proof' ? 'rolled_back' : verdict.kind;
      throw new StoreFaultError(kind, 'message' in verdict ? verdict.message : 'a remembered kill was left');
    }
    const next = verdict.memory;
    if (next.storeId === memory.storeId && next.epoch === memory.epoch && next.killedAt === memory.killedAt)
      return record;
    const save = saving.then(() => options.remember?.(next, record));
    saving = save.catch(() => undefined); // a failed save fails this read only; the next one retries it
    await save;
    if (next.storeId !== memory.storeId || next.epoch >= memory.epoch) memory = next;
    return record;
  };

  return {
    memory: () => memory,
    read: async () => judge(await inner.read(), () => inner.read()),
    initialise: (at) => inner.initialise(at),
    adopt: (record, audit) => inner.adopt(record, audit),
    async compareAndSet(change) {
      const result = await inner.compareAndSet(change);
      if (result.written) return result;
      return { written: false, current: await judge(result.current, () => inner.read()) };
    },
    subscribe: (listener) =>
      inner.subscribe((record) => {
        judge(record).then(listener, (err: unknown) => {
          options.distrusted?.(
            err instanceof StoreFaultError
              ? err
              : new StoreFaultError('rolled_back', `a control notification could not be judged: ${String(err)}`),
          );
        });
      }),
  };
}
