/**
 * `tcs store init`, and the first step of `tcs start`: a first start's control record is created
 * BEFORE any process serves, so that the API's first answer can record a kill or a pause and the
 * trading process obeys it from its first cycle (issue 30: the API used to listen on a store with no
 * record, refuse the kill 503 as "not the store this service knew (empty)", and the trading process
 * then created the record as `running` and traded).
 *
 * It decides exactly as the trading process's own first start does (attach-store.ts), from the same
 * latch entry: only a store the latch on this host has no entry for may be created; a store the latch
 * remembers is left alone whatever it holds, so a store that came back empty after it was seen stays
 * the `empty` fault the processes report (a fault is never a fresh start). What it created or found is
 * then remembered in the latch, fsync'd, so a store flushed between this step and the trading
 * process's start is a fault too, not a second first start.
 */
import { openStore } from '../adapters/open-store.js';
import { authenticatedStore } from '../application/authenticated-store.js';
import { latchFile } from '../adapters/latch/latch-file.js';
import { storeKey } from '../adapters/latch/store-key.js';
import type { ControlRecord } from '../domain/control.js';
import { isStoreFailure } from '../ports/store-errors.js';
import { readCommonConfig, readControlSecret } from './config.js';
import { readLatchPath } from './trading/safety-config.js';

export interface StoreInitOptions {
  storeUrl: string;
  storeTimeoutMs: number;
  latchPath: string;
  /** CONTROL_SECRET: the record is signed as every control record is (authenticated-store.ts). */
  controlSecret: string;
  now(): number;
}

export type StoreInitOutcome =
  /** The latch knows this store: the processes judge it as they find it (nothing was written). */
  | { kind: 'remembered'; storeId: string }
  /** A brand-new control record (running, epoch 0), now remembered in the latch. */
  | { kind: 'created'; record: ControlRecord }
  /** The store had a record the latch did not know (a new latch, another host's store): now remembered. */
  | { kind: 'known_now'; record: ControlRecord };

export async function initialiseStore(options: StoreInitOptions): Promise<StoreInitOutcome> {
  const latch = latchFile(options.latchPath, storeKey(options.storeUrl), { claimLegacy: true });
  const remembered = await latch.load();
  if (remembered) return { kind: 'remembered', storeId: remembered.storeId };
  const store = authenticatedStore(
    await openStore(options.storeUrl, { mustExist: false, timeoutMs: options.storeTimeoutMs }),
    options.controlSecret,
  );
  try {
    const at = new Date(options.now()).toISOString();
    const made = await store.control.initialise(at);
    const record = await store.control.read();
    await latch.save({ storeId: record.store_id, epoch: record.epoch, state: record.state, updatedAt: at });
    return { kind: made === 'created' ? 'created' : 'known_now', record };
  } finally {
    await store.close();
  }
}

/** One line for the operator about what was done. */
export function describeInit(outcome: StoreInitOutcome, key: string): string {
  switch (outcome.kind) {
    case 'remembered':
      return `store ${key} is known to this host (identity ${outcome.storeId}); nothing to initialise`;
    case 'created':
      return `first start on ${key}: created its control record (identity ${outcome.record.store_id}, running) and remembered it in the latch`;
    case 'known_now':
      return (
        `store ${key} already had a control record (identity ${outcome.record.store_id}, ` +
        `${outcome.record.state}, epoch ${outcome.record.epoch}); it is now remembered in the latch`
      );
  }
}

/** `tcs store init`: exit 0 when the store is ready (created or known), 1 when it could not be reached. */
export async function initStoreCommand(env: NodeJS.ProcessEnv): Promise<number> {
  const say = (message: string) => process.stderr.write(`tcs: ${message}\n`);
  const { storeUrl, storeTimeoutMs } = readCommonConfig(env);
  const controlSecret = readControlSecret(env); // before opening anything: a missing secret is exit 2
  try {
    const outcome = await initialiseStore({
      storeUrl,
      storeTimeoutMs,
      latchPath: readLatchPath(env),
      controlSecret,
      now: Date.now,
    });
    say(describeInit(outcome, storeKey(storeUrl)));
    return 0;
  } catch (err) {
    if (!isStoreFailure(err)) throw err;
    say(`could not initialise the store: ${err.message}`);
    return 1;
  }
}
