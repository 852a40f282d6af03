/**
 * What /health may know of the store beyond the store itself: whether an empty store can be a first
 * start in progress (nobody is known to have seen it: this API saw no control record and the trading
 * latch on this host has no entry for it), why the trading process refuses the store (judged, read
 * only, against that latch entry: the trading process then waits without a heartbeat and the store
 * looks fine to the API), and the command that ends a store fault. The API process builds it from
 * the latch (src/runtime/api-store-view.ts); without one (tests, benches) an empty store is always a
 * fault, as before, and no trading fault is known.
 */
import type { StoreFaultError } from '../ports/store-errors.js';

export interface HealthStoreView {
  /** True when nothing known has seen this store: an empty one is then a first start, not a loss. */
  mayBeFirstStart(): Promise<boolean>;
  /** Why the trading process on this host refuses this store (a fault against its latch), or null. */
  tradingFault(): Promise<StoreFaultError | null>;
  /** The command that accepts a faulted store, e.g. `STORE_URL=… tcs store adopt --reason "…"`. */
  readonly adoptCommand: string;
}

export const ADOPT_COMMAND = 'tcs store adopt --reason "…"';

export const NO_STORE_VIEW: HealthStoreView = {
  mayBeFirstStart: async () => false,
  tradingFault: async () => null,
  adoptCommand: ADOPT_COMMAND,
};
