/**
 * The trusted control store on real stores: a record that leaves a remembered kill without a kill
 * reset is refused (a store restored to before the kill, then resumed on); the audited reset makes it
 * trusted; a compare-and-set that lost to a store of another identity does not hand that record to
 * the caller's retry; a failed latch save does not move the memory. And the fenced view of the
 * key-value store reports a refused write at once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyControl, resetKill } from '../../src/application/control-transition.js';
import { lastKillResetEpoch } from '../../src/application/kill-reset-proof.js';
import { fencedKv } from '../../src/application/store-views.js';
import { trustedControl } from '../../src/application/trusted-control.js';
import { StoreFaultError } from '../../src/ports/store-errors.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const who = (s: number) => ({ actor: 'test', at: new Date(Date.UTC(2026, 0, 5, 12, 0, s)).toISOString() });

describe('trusted control', () => {
  let t: TestStore | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('a kill is not left by a store that went back and was resumed on, only by an audited reset', async () => {
    t = await openTestStore('sqlite');
    const { store } = t;
    await applyControl(store.control, { type: 'control.pause', reason: 'p' }, who(1));
    const { store_id: id } = await store.control.read();
    // What this process saw: killed at epoch 2 (its latch says so).
    const trusted = trustedControl(store.control, {
      memory: { storeId: id, epoch: 2, killedAt: 2 },
      lastResetEpoch: () => lastKillResetEpoch(store.events),
    });
    // The store came back at paused@1, and someone resumed on it: running@2.
    await applyControl(store.control, { type: 'control.resume', reason: 'on the restored store' }, who(2));
    await expect(trusted.read()).rejects.toMatchObject({ name: 'StoreFaultError', kind: 'rolled_back' });
    // The audited way out: a kill, then the operator's reset.
    await applyControl(store.control, { type: 'control.kill', reason: 'k' }, who(3));
    await resetKill(store.control, who(4), 'incident closed');
    expect(await trusted.read()).toMatchObject({ state: 'running', epoch: 4 });
    expect(trusted.memory()).toEqual({ storeId: id, epoch: 4, killedAt: null });
  });

  it('a compare-and-set lost to another identity raises the fault instead of returning that record', async () => {
    t = await openTestStore('redis');
    const current = await t.store.control.read();
    const trusted = trustedControl(t.store.control, { memory: { storeId: 'the-old-store', epoch: 0, killedAt: null } });
    const result = trusted.compareAndSet({
      expectedEpoch: current.epoch,
      expectedStoreId: 'the-old-store',
      next: null,
      audit: { kind: 'control', at: who(1).at, symbol: null, body: {} },
    });
    await expect(result).rejects.toBeInstanceOf(StoreFaultError);
    await expect(result).rejects.toMatchObject({ kind: 'replaced' });
  });

  it('a failed latch save fails the read and leaves the memory where it was', async () => {
    t = await openTestStore('sqlite');
    await applyControl(t.store.control, { type: 'control.pause', reason: 'p' }, who(1));
    const { store_id: id } = await t.store.control.read();
    let fail = true;
    const trusted = trustedControl(t.store.control, {
      memory: { storeId: id, epoch: 0, killedAt: null },
      remember: async () => {
        if (fail) throw new Error('ENOSPC: no space left on device');
      },
    });
    await expect(trusted.read()).rejects.toThrow(/ENOSPC/);
    expect(trusted.memory()).toEqual({ storeId: id, epoch: 0, killedAt: null });
    fail = false;
    expect(await trusted.read()).toMatchObject({ epoch: 1 });
    expect(trusted.memory()).toEqual({ storeId: id, epoch: 1, killedAt: null });
  });
});

describe('fenced key-value view', () => {
  let t: TestStore | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('a write refused for a superseded fence is reported at once (the process halts on it) and rejected', async () => {
    t = await openTestStore('sqlite');
    const first = await t.store.lease.acquire('first', 50);
    if (!first.acquired) throw new Error('first should win');
    const heard: StoreFaultError[] = [];
    const kv = fencedKv(t.store.kv, first.grant.fence, (err) => heard.push(err));
    await kv.set('paper:state', { v: 1 });
    // The 50 ms lease runs out (on the store's clock) and the next taker wins.
    await vi.waitFor(
      async () => expect(await t!.store.lease.acquire('second', 10_000)).toMatchObject({ acquired: true }),
      {
        timeout: 5_000,
        interval: 20,
      },
    );
    await expect(kv.set('paper:state', { v: 2 })).rejects.toMatchObject({ kind: 'fenced' });
    expect(heard.map((e) => e.kind)).toEqual(['fenced']);
    expect(await t.store.kv.get('paper:state')).toEqual({ v: 1 });
  });
});
