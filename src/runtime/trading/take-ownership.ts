/**
 * How the trading process takes up its store: the trusted view of the control record (judged against
 * what this process remembers, its audit trail head included), the first record read through it — a
 * store this process does not trust stops here, before the lease or the account are touched — then
 * the trading lease (kept by a lease keeper) and the key-value store fenced with its token. Faults
 * these views notice later (a fenced write refused, a notification not trusted) go to `fault`.
 */
import { lastKillResetEpoch } from '../../application/kill-reset-proof.js';
import { createLeaseKeeper } from '../../application/lease-keeper.js';
import type { LeaseKeeper } from '../../application/lease-keeper.js';
import { fencedKv, withControl } from '../../application/store-views.js';
import { trustedControl } from '../../application/trusted-control.js';
import type { TrustedControl } from '../../application/trusted-control.js';
import type { ControlRecord } from '../../domain/control.js';
import { NO_MEMORY } from '../../domain/store-identity.js';
import type { StoreMemory } from '../../domain/store-identity.js';
import type { Clock } from '../../ports/clock.js';
import { monotonicNow } from '../../ports/clock.js';
import type { KeyValueStore } from '../../ports/key-value-store.js';
import type { StoreFaultError } from '../../ports/store-errors.js';
import type { Store } from '../../ports/store.js';
import { holderName, takeTradingLease } from './ownership.js';

export interface OwnershipDeps {
  store: Store;
  clock: Clock;
  leaseMs: number;
  memory?: StoreMemory;
  remember?(memory: StoreMemory, record: ControlRecord): Promise<void>;
  log(level: 'warn' | 'info' | 'error', message: string, details: Record<string, unknown>): void;
  fault(err: StoreFaultError): void;
}

export interface Ownership {
  /** The store with the trusted control in place of the raw one. */
  store: Store;
  control: TrustedControl;
  /** The control record read at start. */
  initial: ControlRecord;
  keeper: LeaseKeeper;
  /** Writes carry the lease's current fence. */
  kv: KeyValueStore;
}

export async function takeOwnership(deps: OwnershipDeps): Promise<Ownership> {
  const events = deps.store.events;
  const control = trustedControl(deps.store.control, {
    memory: deps.memory ?? NO_MEMORY,
    events,
    ...(deps.remember ? { remember: deps.remember } : {}),
    lastResetEpoch: () => lastKillResetEpoch(events),
    distrusted: deps.fault,
  });
  const initial = await control.read();
  const grantedAt = monotonicNow(deps.clock);
  const grant = await takeTradingLease(deps.store.lease, holderName(), deps.leaseMs);
  const keeper = createLeaseKeeper({
    lease: deps.store.lease,
    grant,
    grantedAt,
    ttlMs: deps.leaseMs,
    clock: deps.clock,
    log: deps.log,
  });
  return {
    store: withControl(deps.store, control),
    control,
    initial,
    keeper,
    kv: fencedKv(deps.store.kv, () => keeper.fence(), deps.fault),
  };
}
