/**
 * Contract for trimming the hot window (issue 35): entries up to an archived one are deleted with
 * the floor moved in the same step; verify() walks from the floor, still names a gap above it, and
 * queries never reach below it. Bad trims (another hash, the head itself) change nothing.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/ports/event-store.js';
import type { Store } from '../../src/ports/store.js';
import type { ChainTamperHooks } from './event-store-anchor.contract.js';
import { isoAt, readAll, storeHarness } from './support.js';
import type { StoreFactory } from './support.js';

export function eventStoreTrimContract(
  name: string,
  open: StoreFactory,
  openSecond: StoreFactory,
  hooks: Pick<ChainTamperHooks, 'deleteEntry'>,
): void {
  describe(`EventStore trimming: ${name}`, () => {
    const stores = storeHarness(open, openSecond);

    async function filled(n: number): Promise<{ store: Store; appended: AuditEvent[] }> {
      const store = await stores.one();
      const appended: AuditEvent[] = [];
      for (let i = 0; i < n; i++)
        appended.push(
          await store.events.append({
            kind: i % 2 ? 'control' : 'decision',
            at: isoAt(i),
            symbol: 'BTC-USD',
            body: { i },
          }),
        );
      return { store, appended };
    }

    it('deletes through the given entry, moves the floor, and the rest still verifies', async () => {
      const { store, appended } = await filled(12);
      const through = appended[6]!;
      expect(await store.events.trimThrough({ seq: through.seq, hash: through.hash })).toBe(7);
      expect(await store.events.floor()).toEqual({ seq: 7, hash: through.hash });
      const left = await readAll(store.events);
      expect(left.map((e) => e.seq)).toEqual([12, 11, 10, 9, 8]);
      // count() is what the store holds (what /health shows), the same on every adapter.
      expect(await store.events.count()).toBe(5);
      expect((await readAll(store.events, { kind: 'decision' })).map((e) => e.seq)).toEqual([11, 9]);
      const verified = await store.events.verify();
      expect(verified.ok, JSON.stringify(verified)).toBe(true);
      // Appends go on chaining after a trim.
      await store.events.append({ kind: 'decision', at: isoAt(20), body: {} });
      expect((await store.events.verify()).ok).toBe(true);
    });

    it('is idempotent: trimming to the floor again (or below it) deletes nothing', async () => {
      const { store, appended } = await filled(6);
      await store.events.trimThrough({ seq: 3, hash: appended[2]!.hash });
      expect(await store.events.trimThrough({ seq: 3, hash: appended[2]!.hash })).toBe(0);
      expect(await store.events.trimThrough({ seq: 2, hash: appended[1]!.hash })).toBe(0);
      expect((await store.events.floor()).seq).toBe(3);
    });

    it('refuses another hash, the head, and bad input, changing nothing', async () => {
      const { store, appended } = await filled(6);
      await expect(store.events.trimThrough({ seq: 3, hash: appended[3]!.hash })).rejects.toThrow(/not the one/);
      await expect(store.events.trimThrough({ seq: 6, hash: appended[5]!.hash })).rejects.toThrow(/head/);
      await expect(store.events.trimThrough({ seq: -1, hash: appended[0]!.hash })).rejects.toThrow(RangeError);
      await expect(store.events.trimThrough({ seq: 2, hash: 'nope' })).rejects.toThrow(RangeError);
      expect((await store.events.floor()).seq).toBe(0);
      expect(await readAll(store.events)).toHaveLength(6);
    });

    it('verify still names an entry deleted above the floor', async () => {
      const { store, appended } = await filled(10);
      await store.events.trimThrough({ seq: 4, hash: appended[3]!.hash });
      await hooks.deleteEntry(store, 7);
      const result = await store.events.verify();
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.firstBad).toMatchObject({ seq: 7, reason: expect.stringMatching(/missing/) });
    });

    it('trims in chunks across a long window', async () => {
      const { store, appended } = await filled(2600);
      const through = appended[2500]!;
      expect(await store.events.trimThrough({ seq: through.seq, hash: through.hash })).toBe(2501);
      expect((await store.events.verify()).ok).toBe(true);
      expect((await store.events.query({ limit: 1000 })).length).toBe(99);
    });
  });
}
