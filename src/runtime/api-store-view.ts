/**
 * The API process's view of its store for /health (src/api/store-view.ts), from the trading latch
 * on this host (TRADING_LATCH_PATH: under `tcs start` both processes share it; an API elsewhere finds
 * no entry and knows only what it saw itself). The latch is only read, never written: it is the
 * trading process's. An unreadable latch is never "nobody saw this store".
 */
import { latchFile } from '../adapters/latch/latch-file.js';
import { storeKey } from '../adapters/latch/store-key.js';
import { lastKillResetEpoch, memoryOf } from '../application/kill-reset-proof.js';
import { trustedControl } from '../application/trusted-control.js';
import type { HealthStoreView } from '../api/store-view.js';
import { ADOPT_COMMAND } from '../api/store-view.js';
import type { TradingLatch } from '../ports/latch.js';
import { StoreFaultError } from '../ports/store-errors.js';
import type { Store } from '../ports/store.js';

export function apiStoreView(options: {
  /** The store as opened, not judged by this API's memory. */
  raw: Store;
  storeUrl: string;
  latchPath: string;
  /** Whether this API has accepted a control record of this store. */
  seenRecord(): boolean;
}): HealthStoreView {
  const key = storeKey(options.storeUrl);
  const latch = latchFile(options.latchPath, key);
  const entry = (): Promise<TradingLatch | null> => latch.load();
  // The key carries no credentials: a Redis with a password needs it added to run this.
  const adoptCommand = `STORE_URL=${key} ${ADOPT_COMMAND}`;
  return {
    adoptCommand,
    async mayBeFirstStart() {
      if (options.seenRecord()) return false;
      return (await entry().catch(() => 'unreadable' as const)) === null;
    },
    async tradingFault() {
      const remembered = await entry().catch(() => null);
      if (remembered === null) return null;
      const events = options.raw.events;
      // Judged as the trading process judges it at start (src/runtime/trading/attach-store.ts).
      const view = trustedControl(options.raw.control, {
        memory: memoryOf(remembered),
        events,
        lastResetEpoch: () => lastKillResetEpoch(events),
      });
      try {
        await view.read();
        await view.checkHead();
        return null;
      } catch (err) {
        if (err instanceof StoreFaultError) return err;
        return null; // unreachable or slow: /health says so from its own checks
      }
    },
  };
}
