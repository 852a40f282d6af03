/**
 * The control store as a process that remembers its store sees it: every record read is judged
 * against the process's memory (src/domain/store-identity.ts) before anyone acts on it. A record of
 * another identity or an older epoch raises StoreFaultError instead of being returned, so no caller —
 * the API's routes, the trading process's cycle, order gate, heartbeat — can mistake a replaced,
 * emptied or rolled-back store for the one it knew. The memory moves only forward (a higher epoch,
 * or a store adopted from the remembered one); `remember` lets the trading process persist each
 * move in its latch file before the record is acted on.
 */
import type { ControlRecord } from '../domain/control.js';
import { judgeRecord } from '../domain/store-identity.js';
import type { StoreMemory } from '../domain/store-identity.js';
import type { ControlStore } from '../ports/control-store.js';
import { StoreFaultError } from '../ports/store-errors.js';

export interface TrustedControlOptions {
  memory: StoreMemory;
  /** Called (and awaited) when the memory moves, with the record that moved it. */
  remember?(memory: StoreMemory, record: ControlRecord): Promise<void>;
  /** Told about a record that was not trusted (a notification that will not be delivered). */
  distrusted?(err: StoreFaultError): void;
}

export interface TrustedControl extends ControlStore {
  /** What this process remembers now. */
  memory(): StoreMemory;
}

export function trustedControl(inner: ControlStore, options: TrustedControlOptions): TrustedControl {
  let memory = options.memory;
  // Saves run one after another, so a slow save can never land after a newer one.
  let saving: Promise<void> = Promise.resolve();

  const judge = async (record: ControlRecord): Promise<ControlRecord> => {
    const verdict = judgeRecord(memory, record);
    if (!verdict.ok) throw new StoreFaultError(verdict.kind, verdict.message);
    const moved = verdict.memory.storeId !== memory.storeId || verdict.memory.epoch > memory.epoch;
    if (moved) {
      memory = verdict.memory;
      const snapshot = memory;
      saving = saving.then(() => options.remember?.(snapshot, record));
      await saving;
    }
    return record;
  };

  return {
    memory: () => memory,
    read: async () => judge(await inner.read()),
    initialise: (at) => inner.initialise(at),
    adopt: (record, audit) => inner.adopt(record, audit),
    compareAndSet: (change) => inner.compareAndSet(change),
    subscribe: (listener) =>
      inner.subscribe((record) => {
        judge(record).then(listener, (err: unknown) => {
          if (err instanceof StoreFaultError) options.distrusted?.(err);
        });
      }),
  };
}
