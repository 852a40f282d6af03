/**
 * The proof that a kill was ended by the operator: the epoch written by the newest `kill_reset` audit
 * entry (null when the trail has none). A process that remembers a kill accepts a record that is no
 * longer killed only when a reset newer than that kill is in the trail (src/domain/store-identity.ts).
 */
import type { EventStore } from '../ports/event-store.js';
import type { TradingLatch } from '../ports/latch.js';
import type { StoreMemory } from '../domain/store-identity.js';

export async function lastKillResetEpoch(events: EventStore): Promise<number | null> {
  const [reset] = await events.query({ kind: 'kill_reset', limit: 1 });
  const epoch = reset?.body.epoch;
  return typeof epoch === 'number' ? epoch : null;
}

/** What a latch says the process remembers. */
export function memoryOf(latch: TradingLatch): StoreMemory {
  const head =
    latch.auditSeq !== undefined && latch.auditHash !== undefined
      ? { seq: latch.auditSeq, hash: latch.auditHash }
      : null;
  return {
    storeId: latch.storeId,
    epoch: latch.epoch,
    killedAt: latch.state === 'killed' ? latch.epoch : null,
    ...(head ? { head } : {}),
  };
}
