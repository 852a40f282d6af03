/**
 * Contract for a store's identity (src/ports/control-store.ts `initialise` / `adopt`, and the
 * identity compare of `compareAndSet`): opening a store never creates a control record; an empty
 * store is a fault, never read as running; a store with an audit trail but no record lost data and is
 * not initialised as new; a write decided on another store's identity is refused; the operator's
 * adoption replaces the record and is audited. Every adapter runs it on a fresh, uninitialised backend.
 */
import { describe, expect, it } from 'vitest';
import { applyControl } from '../../src/application/control-transition.js';
import type { ControlRecord } from '../../src/domain/control.js';
import { StoreFaultError } from '../../src/ports/store-errors.js';
import type { Store } from '../../src/ports/store.js';
import { isoAt, storeHarness } from './support.js';
import type { StoreFactory } from './support.js';

const who = (seconds: number) => ({ actor: 'test', at: isoAt(seconds) });

export function storeIdentityContract(name: string, openEmpty: StoreFactory, openSecond: StoreFactory): void {
  describe(`Store identity contract: ${name}`, () => {
    const stores = storeHarness(openEmpty, openSecond);

    const faultOf = async (attempt: Promise<unknown>): Promise<StoreFaultError> => {
      const err = await attempt.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StoreFaultError);
      return err as StoreFaultError;
    };

    it('an opened store has no record: reading it is the empty fault, never running at epoch 0', async () => {
      const store = await stores.one();
      expect((await faultOf(store.control.read())).kind).toBe('empty');
      expect((await faultOf(applyControl(store.control, { type: 'control.resume', reason: 'r' }, who(1)))).kind).toBe(
        'empty',
      );
      expect(await store.events.count()).toBe(0);
    });

    it('initialise creates the record once, with a fresh identity, from either connection', async () => {
      const [a, b] = await stores.two();
      const [first, second] = await Promise.all([a.control.initialise(isoAt(5)), b.control.initialise(isoAt(6))]);
      expect([first, second].sort()).toEqual(['created', 'exists']);
      const record = await a.control.read();
      expect(record).toMatchObject({ state: 'running', epoch: 0, reason: null, adopted_from: null });
      expect([isoAt(5), isoAt(6)]).toContain(record.changed_at);
      expect(await b.control.read()).toEqual(record);
      expect(await a.control.initialise(isoAt(7))).toBe('exists');
      expect(await a.control.read()).toEqual(record);
    });

    it('a store with an audit trail but no record is not initialised as new', async () => {
      const store = await stores.one();
      await store.events.append({ kind: 'decision', at: isoAt(1), body: { cycle: 1 } });
      expect((await faultOf(store.control.initialise(isoAt(2)))).kind).toBe('empty');
      expect((await faultOf(store.control.read())).kind).toBe('empty');
    });

    it('compareAndSet refuses a decision made on another identity, even at the same epoch', async () => {
      const store = await stores.one();
      await store.control.initialise(isoAt(1));
      const current = await store.control.read();
      const count = await store.events.count();
      const result = await store.control.compareAndSet({
        expectedEpoch: current.epoch,
        expectedStoreId: 'another-store',
        next: { ...current, state: 'killed', epoch: current.epoch + 1 },
        audit: { kind: 'control', at: isoAt(2), symbol: null, body: { event: 'control.kill' } },
      });
      expect(result).toEqual({ written: false, current });
      expect(await store.control.read()).toEqual(current);
      expect(await store.events.count()).toBe(count);
    });

    it('adopt replaces the record of an empty store (or any store), audited, and notifies', async () => {
      const [a, b] = await stores.two();
      const seen: ControlRecord[] = [];
      await a.control.initialise(isoAt(1));
      const unsubscribe = await b.control.subscribe((r) => seen.push(r));
      const adopted: ControlRecord = {
        state: 'killed',
        epoch: 8,
        reason: 'adopted: restored from backup',
        changed_at: isoAt(9),
        store_id: 'new-identity',
        adopted_from: 'old-identity',
      };
      await a.control.adopt(adopted, {
        kind: 'store_adopted',
        at: isoAt(9),
        symbol: null,
        body: { reason: 'restored from backup' },
      });
      expect(await a.control.read()).toEqual(adopted);
      expect(await b.control.read()).toEqual(adopted);
      const [entry] = await a.events.query({ kind: 'store_adopted', limit: 1 });
      expect(entry?.body).toEqual({ reason: 'restored from backup' });
      expect((await a.events.verify()).ok).toBe(true);
      await expect.poll(() => seen.map((r) => r.epoch)).toContain(8);
      await unsubscribe();
    });

    it('a record without a reason adopts cleanly (null fields stay null)', async () => {
      const store: Store = await stores.one();
      const adopted: ControlRecord = {
        state: 'paused',
        epoch: 1,
        reason: null,
        changed_at: isoAt(3),
        store_id: 'id-1',
        adopted_from: null,
      };
      await store.control.adopt(adopted, { kind: 'store_adopted', at: isoAt(3), symbol: null, body: {} });
      expect(await store.control.read()).toEqual(adopted);
    });
  });
}
