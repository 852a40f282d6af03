/**
 * `tcs store adopt --reason TEXT`: the operator's explicit, audited acceptance of a store that the
 * processes refuse as a fault — empty (lost its data), replaced (another identity) or rolled back
 * (an older epoch, or an audit trail that ends before the head the latch remembers). It writes a new control record with a fresh identity that names the identity the
 * trading latch remembers (`adopted_from`), so the processes that remember that store accept this one;
 * its epoch is above every epoch seen; its state is `killed` when the store or the latch was killed,
 * or the store lost data (a kill survives the loss of its store), otherwise `paused`, so nothing
 * trades until an operator resumes. The adoption is the first entry of the new store's audit trail (or the next of its own).
 * The new record is signed with CONTROL_SECRET, so adoption is also how a record without a valid MAC
 * (a store from a release before MACs) is accepted again: paused when the latch vouches for it, else killed.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { openStore } from '../adapters/open-store.js';
import { tellOperator } from './tell-operator.js';
import { latchFile } from '../adapters/latch/latch-file.js';
import { storeKey } from '../adapters/latch/store-key.js';
import type { ControlRecord } from '../domain/control.js';
import { lastKillResetEpoch, memoryOf } from '../application/kill-reset-proof.js';
import { trustedControl } from '../application/trusted-control.js';
import { authenticatedStore } from '../application/authenticated-store.js';
import { StoreFaultError } from '../ports/store-errors.js';
import type { Store } from '../ports/store.js';
import { readControlSecret, readStoreUrl } from './config.js';
import { readSafetyConfig } from './trading/safety-config.js';

/**
 * The record before adoption, null for an empty store; `signed` false when its MAC is missing or
 * wrong (read past the check from `raw`: its fields are only a writer's word).
 */
async function currentRecord(store: Store, raw: Store): Promise<{ record: ControlRecord; signed: boolean } | null> {
  try {
    return { record: await store.control.read(), signed: true };
  } catch (err) {
    if (err instanceof StoreFaultError && err.kind === 'empty') return null;
    if (!(err instanceof StoreFaultError && err.kind === 'tampered')) throw err;
    const { mac: _mac, ...record } = await raw.control.read();
    return { record, signed: false };
  }
}

/** Whether a process remembering `memory` trusts this store as it is. */
async function trustedBy(store: Store, memory: ReturnType<typeof memoryOf>): Promise<boolean> {
  const events = store.events;
  const view = trustedControl(store.control, { memory, events, lastResetEpoch: () => lastKillResetEpoch(events) });
  try {
    await view.read();
    await view.checkHead();
    return true;
  } catch (err) {
    if (err instanceof StoreFaultError) return false;
    throw err;
  }
}

export async function adoptStore(env: NodeJS.ProcessEnv, reason: string): Promise<number> {
  const say = tellOperator;
  const url = readStoreUrl(env);
  // This store's entry: what the trading process remembers of the store at this URL (an old-format
  // latch is attached to it, as the trading process would).
  const latch = await latchFile(readSafetyConfig(env).latchPath, storeKey(url), { claimLegacy: true }).load();
  const secret = readControlSecret(env);
  const raw = await openStore(url);
  // The adopted record is signed with CONTROL_SECRET: the way a store written before MACs (or under
  // another secret) is accepted again, deliberately and audited.
  const store = authenticatedStore(raw, secret);
  try {
    const found = await currentRecord(store, raw);
    const current = found?.record ?? null;
    if (current && latch && (await trustedBy(store, memoryOf(latch)))) {
      say(
        `the store is the one the latch knows (identity ${current.store_id}, epoch ${current.epoch}): nothing to adopt`,
      );
      return 0;
    }
    const at = new Date().toISOString();
    // Killed when anything says so, and whenever the store lost data (empty, or not ahead of the
    // latch): a kill may have been among what was lost, and a loss must never undo a kill.
    // (A trail gone back at the same epoch is such a loss too: it is why the store was refused.)
    // An unsigned record exactly as the latch remembers it (identity and epoch) is a store written
    // before MACs, not a loss; one the latch cannot vouch for may say anything, so it counts as one.
    const vouched =
      current !== null && latch !== null && current.store_id === latch.storeId && current.epoch === latch.epoch;
    const lostData =
      current === null || (found?.signed === false ? !vouched : latch !== null && current.epoch <= latch.epoch);
    const killed = current?.state === 'killed' || latch?.state === 'killed' || lostData;
    const adopted: ControlRecord = {
      state: killed ? 'killed' : 'paused',
      epoch: Math.max(current?.epoch ?? 0, latch?.epoch ?? 0) + 1,
      reason: `store adopted: ${reason}`,
      changed_at: at,
      store_id: randomUUID(),
      adopted_from: latch?.storeId ?? current?.store_id ?? null,
    };
    const brief = (r: { store_id?: string; storeId?: string; epoch: number; state: string }) => ({
      store_id: r.store_id ?? r.storeId ?? null,
      epoch: r.epoch,
      state: r.state,
    });
    await store.control.adopt(adopted, {
      kind: 'store_adopted',
      at,
      symbol: null,
      body: {
        reason,
        actor: `operator:${process.env.USER ?? 'unknown'}@${hostname()}`,
        found: current ? brief(current) : null,
        latch: latch ? brief(latch) : null,
        adopted: brief(adopted),
      },
    });
    say(
      `adopted ${store.description} as ${adopted.store_id} (from ${adopted.adopted_from ?? 'no known store'}): ` +
        `${adopted.state} at epoch ${adopted.epoch}, recorded in the audit trail. ` +
        (killed
          ? 'It stays killed: end the kill with --reset-kill when trading may start again.'
          : 'Nothing trades until an operator resumes (POST /control/resume).') +
        ' Processes still holding the old store (an SQLite file that was deleted or replaced) must be restarted.',
    );
    if (!latch)
      say(
        `the trading latch here has no entry for ${storeKey(url)}: a trading process that remembers another store there will not accept this one until restarted`,
      );
    return 0;
  } finally {
    await store.close();
  }
}
