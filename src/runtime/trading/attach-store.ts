/**
 * How the trading process takes up its store: as a process that remembers it. The latch file's entry
 * for this store (its URL without credentials: what the last run on it saw, the store's identity, the
 * highest epoch, the state there) is loaded first. With no entry this is a first start on this store,
 * which may create a brand-new store (initialise): another STORE_URL is another store. With an entry,
 * the store must be the one remembered: a missing SQLite file is not re-created, and a store that is
 * empty, of another identity or rolled back is a fault. Then the process waits, trading nothing, and
 * says why and what the operator can do, until the store is back or adopted (`tcs store adopt`).
 */
import type { Logger } from 'pino';
import { openStore } from '../../adapters/open-store.js';
import { latchFile } from '../../adapters/latch/latch-file.js';
import { storeKey } from '../../adapters/latch/store-key.js';
import type { ControlRecord } from '../../domain/control.js';
import { NO_MEMORY } from '../../domain/store-identity.js';
import type { StoreMemory } from '../../domain/store-identity.js';
import type { Store } from '../../ports/store.js';
import { lastKillResetEpoch, memoryOf } from '../../application/kill-reset-proof.js';
import { authenticatedStore } from '../../application/authenticated-store.js';
import { trustedControl } from '../../application/trusted-control.js';
import { ConfigError } from '../config-error.js';

export interface AttachedStore {
  store: Store;
  memory: StoreMemory;
  /** Saves a moved memory in the latch file (fsync'd) before it is acted on. */
  remember(memory: StoreMemory, record: ControlRecord): Promise<void>;
}

export interface AttachOptions {
  storeUrl: string;
  /** CONTROL_SECRET: the store is used only through its MACs (src/application/authenticated-store.ts). */
  controlSecret: string;
  /** STORE_TIMEOUT_MS: the deadline of every store command. */
  storeTimeoutMs: number;
  latchPath: string;
  log: Logger;
  /** Pause between tries while the store is missing, unreachable or faulted. */
  retryMs: number;
  now(): number;
  /** The audit archive's hash of an entry trimmed from the store since it was remembered (issue 35). */
  archivedHash?(seq: number): Promise<string | null>;
}

export async function attachStore(options: AttachOptions): Promise<AttachedStore> {
  const latch = latchFile(options.latchPath, storeKey(options.storeUrl), {
    claimLegacy: true,
    onLegacyClaimed: (old) =>
      options.log.warn(
        { latch: options.latchPath, store: storeKey(options.storeUrl), remembered: old },
        'the trading latch was of the old single-store format, which does not say which store it was written for: ' +
          'it is now kept for this store, the first one opened with it (fail-closed). If it was written for another ' +
          'store, accept this one with `tcs store adopt --reason "…"`',
      ),
  });
  const remembered = await latch.load();
  const memory: StoreMemory = remembered ? memoryOf(remembered) : NO_MEMORY;
  const remember = async (moved: StoreMemory, record: ControlRecord) =>
    latch.save({
      storeId: moved.storeId ?? record.store_id,
      epoch: moved.epoch,
      // A kill this process remembers is written as killed, whatever record the caller had at hand.
      state: moved.killedAt !== null ? 'killed' : record.state,
      ...(moved.head ? { auditSeq: moved.head.seq, auditHash: moved.head.hash } : {}),
      updatedAt: new Date(options.now()).toISOString(),
    });
  let lastProblem = '';
  for (;;) {
    let store: Store | undefined;
    try {
      store = authenticatedStore(
        await openStore(options.storeUrl, { mustExist: remembered !== null, timeoutMs: options.storeTimeoutMs }),
        options.controlSecret,
      );
      // Before anything is created or written: a store that may evict our keys is not one to trade on,
      // and waiting does not fix it (the operator does), so it stops the start like a bad setting.
      const eviction = await store.evictionRisk();
      if (eviction !== null)
        throw new ConfigError(`not trading on ${store.description}: it may lose what is written to it: ${eviction}`);
      if (!remembered) await store.control.initialise(new Date(options.now()).toISOString());
      // Judged as the trading system will judge it (throws the fault), without moving any memory yet.
      const events = store.events;
      const trusted = trustedControl(store.control, {
        memory,
        events,
        lastResetEpoch: () => lastKillResetEpoch(events),
        ...(options.archivedHash ? { archivedHash: options.archivedHash } : {}),
      });
      await trusted.read();
      await trusted.checkHead();
      if (remembered === null)
        options.log.info(
          { latch: latch.path, store: latch.key },
          'first start on this store: the latch has no entry for it yet; it will be remembered there',
        );
      return { store, memory, remember };
    } catch (err) {
      await store?.close().catch(() => {});
      if (err instanceof ConfigError) throw err;
      const problem = (err as Error).message;
      if (problem !== lastProblem) {
        lastProblem = problem;
        options.log.error(
          { latch: latch.path, store: latch.key, remembered },
          `not trading: ${problem}. Waiting for the store (retrying every ${options.retryMs} ms)`,
        );
      } else {
        // Said once above; each further refusal only at debug, where a test counts them.
        options.log.debug(`still not trading: ${problem}`);
      }
      await new Promise((resolve) => setTimeout(resolve, options.retryMs));
    }
  }
}
