/**
 * Contract for the audit trail's one clock per store (issue 30, finding 8): every write that extends
 * the chain (an append, a control change) is checked against the store's own clock — Redis `TIME`,
 * the host's clock for SQLite — and a writer whose wall clock is further from it than
 * AUDIT_CLOCK_SKEW_MS is refused with a ClockSkewError (a StoreUnavailableError: the API's 503),
 * recording nothing. Before, one writer a year ahead was recorded, and every later entry (of every
 * writer) was raised to its time. `openWithClock` opens another connection to the latest store whose
 * writer reads its wall time from the given clock (the store's clock stays the real one).
 */
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/ports/clock.js';
import { ClockSkewError, StoreUnavailableError } from '../../src/ports/store-errors.js';
import type { Store } from '../../src/ports/store.js';
import { storeHarness } from './support.js';
import type { StoreFactory } from './support.js';

const YEAR_MS = 365 * 86_400_000;

/** A wall clock `offsetMs` away from the real one (the store's clock stays real). */
const offsetClock = (offsetMs: number): Clock => ({ now: () => Date.now() + offsetMs });

export function eventStoreClockContract(
  name: string,
  open: StoreFactory,
  openWithClock: (clock: Clock) => Promise<Store>,
): void {
  describe(`audit clock contract: ${name}`, () => {
    const stores = storeHarness(open, () => Promise.reject(new Error('not used')));
    const opened: Store[] = [];
    const skewed = async (offsetMs: number) => {
      const store = await openWithClock(offsetClock(offsetMs));
      opened.push(store);
      return store;
    };
    const closeSkewed = async () => {
      for (const store of opened.splice(0)) await store.close();
    };

    it('refuses an append from a writer a year ahead, names the skew, records nothing; later entries keep their time', async () => {
      const store = await stores.one();
      try {
        const ahead = await skewed(YEAR_MS);
        const at = new Date(Date.now() + YEAR_MS).toISOString();
        const refused = await ahead.events.append({ kind: 'control', at, body: { action: 'pause' } }).catch((e) => e);
        expect(refused).toBeInstanceOf(ClockSkewError);
        expect(refused).toBeInstanceOf(StoreUnavailableError);
        expect((refused as Error).message).toMatch(/clock is 365d \d\d:\d\d:\d\d ahead of the store's clock/);
        expect(await store.events.count()).toBe(0);
        // The writer with the right time is recorded at its own time, not raised to a future one.
        const now = new Date().toISOString();
        const kept = await store.events.append({ kind: 'decision', at: now, body: {} });
        expect(kept.at).toBe(now);
        expect(
          await store.events.query({ limit: 10, until: new Date(Date.now() + 60_000).toISOString() }),
        ).toHaveLength(1);
      } finally {
        await closeSkewed();
      }
    });

    it('refuses a control change from a writer an hour behind; the record is unchanged', async () => {
      const store = await stores.one();
      try {
        const behind = await skewed(-3_600_000);
        const record = await behind.control.read();
        const refused = await behind.control
          .compareAndSet({
            expectedEpoch: record.epoch,
            expectedStoreId: record.store_id,
            next: { ...record, state: 'paused', epoch: record.epoch + 1, reason: 'skewed' },
            audit: { kind: 'control', at: new Date(Date.now() - 3_600_000).toISOString(), body: { action: 'pause' } },
          })
          .catch((e) => e);
        expect(refused).toBeInstanceOf(ClockSkewError);
        expect((refused as Error).message).toMatch(/clock is 01:00:\d\d behind the store's clock/);
        expect((await store.control.read()).state).toBe('running');
        expect(await store.events.count()).toBe(0);
      } finally {
        await closeSkewed();
      }
    });

    it('accepts a writer within the bound (2 s ahead)', async () => {
      await stores.one();
      try {
        const near = await skewed(2_000);
        const entry = await near.events.append({ kind: 'decision', at: new Date().toISOString(), body: {} });
        expect(entry.seq).toBe(1);
      } finally {
        await closeSkewed();
      }
    });
  });
}
